/* gui-test-util.c: the harness the window tests share, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include <glib/gstdio.h>

#include "cs-application.h"
#include "cs-window-plugins.h"
#include "cs-window-streams.h"
#include "gui-test-util.h"

char *cs_test_work_dir;
char *cs_test_screenshot_dir;
GtkApplication *cs_test_application;

/* ------------------------------------------------------------------------ */
/* Set-up and tear-down                                                     */

void
cs_test_gui_init (int         *argc,
                  char      ***argv,
                  const char  *name,
                  gboolean     private_config)
{
  g_autofree char *template = g_strdup_printf ("cs-%s-XXXXXX", name);
  g_autofree char *cache_dir = NULL;

  cs_test_work_dir = g_dir_make_tmp (template, NULL);
  g_assert_nonnull (cs_test_work_dir);
  cache_dir = g_build_filename (cs_test_work_dir, "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache_dir, TRUE);
  /* The recent recordings (recently-used.xbel) stay in the work folder. */
  {
    g_autofree char *data_dir = g_build_filename (cs_test_work_dir, "data", NULL);

    g_setenv ("XDG_DATA_HOME", data_dir, TRUE);
  }
  if (private_config)
    {
      g_autofree char *config_dir = g_build_filename (cs_test_work_dir, "config", NULL);

      g_setenv ("XDG_CONFIG_HOME", config_dir, TRUE);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  cs_test_screenshot_dir = g_strdup (g_getenv ("CS_SCREENSHOT_DIR"));
  if (cs_test_screenshot_dir == NULL)
    cs_test_screenshot_dir = g_strdup (cs_test_work_dir);

  g_test_init (argc, argv, NULL);

  if (!gtk_init_check ())
    {
      /* Not a skip: meson runs this under xvfb-run, so this is a failure. */
      g_printerr ("Cannot open a display (run under xvfb-run)\n");
      exit (1);
    }

  /* Registered, not run: its actions (app.open, app.quit, app.about) and
   * the help overlay are there, as in chronoscope. */
  cs_test_application = GTK_APPLICATION (cs_application_new ());
  g_application_set_flags (G_APPLICATION (cs_test_application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (cs_test_application), NULL, NULL))
    g_error ("Cannot register the application");
}

/* Removes @path and all below it (not following links). */
void
cs_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        cs_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

int
cs_test_gui_run (void)
{
  int status = g_test_run ();

  g_clear_object (&cs_test_application);
  cs_test_remove_tree (cs_test_work_dir);
  g_clear_pointer (&cs_test_work_dir, g_free);
  g_clear_pointer (&cs_test_screenshot_dir, g_free);
  return status;
}

/* tests/data/sched-irq-v6.dat, from $CS_TESTDATA. */
char *
cs_test_find_recording (void)
{
  return cs_test_own_path ("sched-irq-v6.dat");
}

/* The shortcuts of @widget's shortcut controllers (its class's key
 * bindings among them), each with its controller's scope as the
 * "cs-test-scope" data. */
GPtrArray *
cs_test_list_shortcuts (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  GPtrArray *shortcuts = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          GtkShortcut *shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutScope scope = gtk_shortcut_controller_get_scope (GTK_SHORTCUT_CONTROLLER (controller));

          g_object_set_data (G_OBJECT (shortcut), "cs-test-scope", GINT_TO_POINTER (scope));
          g_ptr_array_add (shortcuts, shortcut);
        }
    }
  return shortcuts;
}

/* Runs what the shortcut @accel (as gtk_shortcut_trigger_parse_string()
 * reads it) of one of @widget's shortcut controllers does, as GTK does
 * on a key press: the key itself cannot be typed into Xvfb from here.
 * Returns the scope of the controller that had it; fails the test when
 * none has it. */
GtkShortcutScope
cs_test_activate_shortcut (GtkWidget  *widget,
                           const char *accel)
{
  g_autoptr(GPtrArray) shortcuts = cs_test_list_shortcuts (widget);
  g_autoptr(GtkShortcutTrigger) wanted = gtk_shortcut_trigger_parse_string (accel);

  g_assert_nonnull (wanted);
  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkShortcut *shortcut = shortcuts->pdata[i];

      if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
        {
          g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget, NULL));
          return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (shortcut), "cs-test-scope"));
        }
    }

  g_error ("%s has no shortcut %s", G_OBJECT_TYPE_NAME (widget), accel);
}

/* ------------------------------------------------------------------------ */
/* Waiting                                                                   */

static gboolean
keep_ticking_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
cs_test_wait_until (CsTestCondition  condition,
                    gpointer         data,
                    const char      *what)
{
  gint64 deadline = g_get_monotonic_time () + CS_TEST_WAIT_TIMEOUT_S * G_USEC_PER_SEC;
  /* Wakes the loop up when nothing else happens, to look again. */
  guint tick = g_timeout_add (50, keep_ticking_cb, NULL);

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out after %d s waiting for %s", CS_TEST_WAIT_TIMEOUT_S, what);
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (tick);
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Lets GTK lay out and draw (and transitions finish). */
void
cs_test_spin (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  cs_test_wait_until (flag_is_set, &done, "the main loop");
}

gboolean
cs_test_window_is_idle (gpointer data)
{
  return cs_window_get_state (data) != CS_WINDOW_STATE_LOADING;
}

gboolean
cs_test_window_has_two_streams (gpointer data)
{
  CsStreamSet *set = cs_window_get_streams (data);

  return set != NULL && cs_stream_set_get_n_streams (set) == 2 &&
         cs_window_get_n_adding (data) == 0;
}

gboolean
cs_test_window_is_ready (gpointer data)
{
  return cs_window_get_state (data) == CS_WINDOW_STATE_READY;
}

gboolean
cs_test_widget_is_drawable (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0 &&
         gtk_widget_get_height (data) > 0;
}

/* ------------------------------------------------------------------------ */
/* Windows                                                                   */

CsWindow *
cs_test_new_window (int width,
                    int height)
{
  CsWindow *window = cs_window_new (cs_test_application);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_test_wait_until (cs_test_widget_is_drawable, window, "the window to show");
  return window;
}

void
cs_test_destroy_window (CsWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  cs_test_spin (50);
}

/* ------------------------------------------------------------------------ */
/* Pixels                                                                    */

/* The widget's last frame; NULL while a redraw is pending. */
static GskRenderNode *
widget_node (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  return gtk_snapshot_free_to_node (snapshot);
}

static gboolean
widget_is_drawn (gpointer data)
{
  GskRenderNode *node = widget_node (data);

  if (node == NULL)
    return FALSE;
  gsk_render_node_unref (node);
  return TRUE;
}

GdkTexture *
cs_test_snapshot_widget (GtkWidget *widget)
{
  GskRenderNode *node;
  GdkTexture *texture;

  /* A widget between a layout and its first frame (or a loaded machine
   * behind the last change) draws nothing yet. */
  cs_test_wait_until (widget_is_drawn, widget, "a frame to take a snapshot of");
  node = widget_node (widget);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                              gtk_widget_get_height (widget)));
  gsk_render_node_unref (node);
  return texture;
}

/* Brings the notebook tab holding @page to the front, as a person
 * clicking its tab would, and lets it draw; nothing when @page is in no
 * notebook. */
void
cs_test_show_tab (GtkWidget *page)
{
  GtkWidget *notebook = gtk_widget_get_ancestor (page, GTK_TYPE_NOTEBOOK);
  GtkWidget *tab = page;

  if (notebook == NULL)
    return;
  while (gtk_widget_get_parent (tab) != NULL && gtk_notebook_page_num (GTK_NOTEBOOK (notebook), tab) < 0)
    tab = gtk_widget_get_parent (tab);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), gtk_notebook_page_num (GTK_NOTEBOOK (notebook), tab));
  cs_test_spin (200);
}

/* A CsTestCondition: no plugin pass runs for the window @data. */
gboolean
cs_test_passes_done (gpointer data)
{
  return !cs_plugin_window_get_pass_running (cs_window_get_plugins (data));
}

/* Runs @argv (a command printing one JSON object, such as `chronoscope
 * latency FILE --json`) and returns that object; the test fails when the
 * command fails or prints something else. */
JsonObject *
cs_test_run_json (const char * const *argv)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s %s failed: %s", argv[0], argv[1] != NULL ? argv[1] : "", err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

void
cs_test_save_screenshot (GtkWidget  *widget,
                         const char *name)
{
  g_autoptr(GdkTexture) texture = cs_test_snapshot_widget (widget);
  g_autofree char *path = g_build_filename (cs_test_screenshot_dir, name, NULL);

  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

void
cs_test_pixels_init (CsTestPixels *pixels,
                     GtkWidget    *widget)
{
  g_autoptr(GdkTexture) texture = cs_test_snapshot_widget (widget);

  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = (gsize) pixels->width * 4;
  pixels->pixels = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->pixels, pixels->stride);
}

/* Whether the 0xRRGGBB colours @a and @b differ by at most @tolerance in
 * each channel. */
gboolean
cs_test_same_color (guint32 a,
                    guint32 b,
                    int     tolerance)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

void
cs_test_pixels_clear (CsTestPixels *pixels)
{
  g_clear_pointer (&pixels->pixels, g_free);
}

/* A new window of @width × @height showing @path, indexed and drawn. */
CsWindow *
cs_test_open_window (const char *path,
                     int         width,
                     int         height)
{
  CsWindow *window = cs_test_new_window (width, height);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  cs_window_open_file (window, file);
  cs_test_wait_until (cs_test_window_is_ready, window, "the recording");
  cs_test_wait_until (cs_test_widget_is_drawable, cs_window_get_timeline (window), "the timeline");
  cs_test_spin (200);
  return window;
}

/* Opens @path in @window, waits (polling) until it is no longer loading, and
 * returns the error message the window shows, borrowed from @window; fails
 * the test when there is none. @what names the wait in a timeout. */
const char *
cs_test_open_failing (CsWindow   *window,
                      const char *path,
                      const char *what)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *message;

  cs_window_open_file (window, file);
  cs_test_wait_until (cs_test_window_is_idle, window, what);
  message = cs_window_get_error_message (window);
  g_assert_nonnull (message);
  g_test_message ("the window says: %s", message);
  return message;
}

/* Where @ts_ns is drawn in @timeline, px from its left edge. */
double
cs_test_timeline_x (CsTimeline *timeline,
                    gint64      ts_ns)
{
  CsViewport viewport = {
    cs_timeline_get_begin_ns (timeline), cs_timeline_get_end_ns (timeline),
    gtk_widget_get_width (GTK_WIDGET (timeline)), gtk_widget_get_height (GTK_WIDGET (timeline)),
  };

  return cs_timeline_renderer_ns_to_x (cs_timeline_get_renderer (timeline), &viewport, ts_ns);
}

/* Activates the window's action @action, which must be enabled. */
void
cs_test_activate (CsWindow   *window,
                  const char *action,
                  GVariant   *parameter)
{
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), action));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, parameter);
}

/* The widget named @name (gtk_widget_set_name()) in @widget's tree, or
 * NULL. */
GtkWidget *
cs_test_find_named (GtkWidget  *widget,
                    const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cs_test_find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The widget named @name in @root's tree; fails the test when there is
 * none. */
GtkWidget *
cs_test_need_named (GtkWidget  *root,
                    const char *name)
{
  GtkWidget *widget = cs_test_find_named (root, name);

  if (widget == NULL)
    g_error ("the window has no widget named %s", name);
  return widget;
}

/* Selects @text in the GtkDropDown named @name below @root (a
 * GtkStringList model), as a person picking it; fails the test when it
 * is not offered. */
void
cs_test_choose (GtkWidget  *root,
                const char *name,
                const char *text)
{
  GtkDropDown *dropdown = GTK_DROP_DOWN (cs_test_need_named (root, name));
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), text) == 0)
      {
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
  g_error ("%s offers no “%s”", name, text);
}

/* A label showing @text inside @widget that is on screen within @clip
 * (a scrolled window: rows scrolled out of it do not count). */
GtkWidget *
cs_test_find_visible_label (GtkWidget  *widget,
                            const char *text,
                            GtkWidget  *clip)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;

  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    {
      graphene_rect_t bounds;

      if (gtk_widget_compute_bounds (widget, clip, &bounds) &&
          bounds.origin.y >= -1 &&
          bounds.origin.y + bounds.size.height <= gtk_widget_get_height (clip) + 1)
        return widget;
      return NULL;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cs_test_find_visible_label (child, text, clip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The first widget under @root (depth first, @root included) that @match
 * accepts, or NULL. */
GtkWidget *
cs_test_find_where (GtkWidget         *root,
                    CsTestWidgetMatch  match,
                    gconstpointer      data)
{
  if (match (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cs_test_find_where (child, match, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget *widget, gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

/* The first widget of @type under @root (depth first, @root included), or
 * NULL. */
GtkWidget *
cs_test_find_widget (GtkWidget *root,
                     GType      type)
{
  return cs_test_find_where (root, is_of_type, GSIZE_TO_POINTER (type));
}
