/* gui-test-util.h: the harness the window tests share, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each test program runs the real CsWindow in-process (and answers
 * `index-worker FILE` itself).  cs_test_gui_init() gives it private XDG
 * folders under a temporary work folder, a display and a registered
 * CsApplication; cs_test_gui_run() runs the tests and removes the folder.
 * Screenshots go to $CS_SCREENSHOT_DIR (the build folder under meson), or
 * the work folder.
 */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "cs-test-data.h"
#include "cs-window.h"

G_BEGIN_DECLS

#define CS_TEST_WAIT_TIMEOUT_S 60

extern char *cs_test_work_dir;
extern char *cs_test_screenshot_dir;
extern GtkApplication *cs_test_application;

void cs_test_gui_init (int         *argc,
                       char      ***argv,
                       const char  *name,
                       gboolean     private_config);
int cs_test_gui_run (void);

char *cs_test_find_recording (void);
GPtrArray *cs_test_list_shortcuts (GtkWidget *widget);
GtkShortcutScope cs_test_activate_shortcut (GtkWidget  *widget,
                                            const char *accel);

typedef gboolean (*CsTestCondition) (gpointer data);

void cs_test_wait_until (CsTestCondition  condition,
                         gpointer         data,
                         const char      *what);
void cs_test_spin (guint ms);

gboolean cs_test_window_is_idle (gpointer data);
gboolean cs_test_window_is_ready (gpointer data);
/* For cs_test_wait_until(): @data, a CsWindow, shows two recordings,
 * none still being added. */
gboolean cs_test_window_has_two_streams (gpointer data);
gboolean cs_test_widget_is_drawable (gpointer data);

CsWindow *cs_test_new_window (int width,
                              int height);
CsWindow *cs_test_open_window (const char *path,
                               int         width,
                               int         height);
const char *cs_test_open_failing (CsWindow   *window,
                                  const char *path,
                                  const char *what);
double cs_test_timeline_x (CsTimeline *timeline,
                           gint64      ts_ns);
void cs_test_activate (CsWindow   *window,
                       const char *action,
                       GVariant   *parameter);
void cs_test_destroy_window (CsWindow *window);
void cs_test_show_tab (GtkWidget *page);
gboolean cs_test_passes_done (gpointer data);
JsonObject *cs_test_run_json (const char * const *argv);

GdkTexture *cs_test_snapshot_widget (GtkWidget *widget);
void cs_test_save_screenshot (GtkWidget  *widget,
                              const char *name);

typedef struct {
  int width;
  int height;
  gsize stride;
  guchar *pixels;   /* B G R A, premultiplied (GDK_MEMORY_DEFAULT) */
} CsTestPixels;

void cs_test_pixels_init (CsTestPixels *pixels,
                          GtkWidget    *widget);
void cs_test_pixels_clear (CsTestPixels *pixels);
gboolean cs_test_same_color (guint32 a,
                             guint32 b,
                             int     tolerance);

void cs_test_remove_tree (const char *path);
GtkWidget *cs_test_find_named (GtkWidget  *widget,
                               const char *name);
GtkWidget *cs_test_need_named (GtkWidget  *root,
                               const char *name);
void cs_test_choose (GtkWidget  *root,
                     const char *name,
                     const char *text);
GtkWidget *cs_test_find_visible_label (GtkWidget  *widget,
                                       const char *text,
                                       GtkWidget  *clip);

typedef gboolean (*CsTestWidgetMatch) (GtkWidget *widget, gconstpointer data);

GtkWidget *cs_test_find_where  (GtkWidget         *root,
                                CsTestWidgetMatch  match,
                                gconstpointer      data);
GtkWidget *cs_test_find_widget (GtkWidget *root,
                                GType      type);

G_END_DECLS
