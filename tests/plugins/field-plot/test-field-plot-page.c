/* test-field-plot-page.c: the field plot's page in a real window (Xvfb).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A person picks cpu_frequency, its field state and "those where a field
 * has a value" cpu_id=0 on the page, and clicks "Add row": the row must
 * appear under the CPU plots with that key, its pass run in the
 * background, and its line be drawn.  The page is reached through its
 * widgets only, as a person reaches it.
 */
#include "config.h"

#include <string.h>

#include "cs-cli.h"
#include "cs-timeline.h"
#include "cs-window-plugins.h"
#include "gui-test-util.h"

#define LINE_RGB 0x0072b2

static gboolean
passes_done (gpointer data)
{
  return !cs_plugin_window_get_pass_running (cs_window_get_plugins (data));
}

/* The first widget below @widget of @type (in tree order), after @skip
 * such widgets. */
static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type,
             guint     *skip)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    {
      if (*skip == 0)
        return widget;
      (*skip)--;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, skip);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
nth_widget (GtkWidget *root,
            GType      type,
            guint      n)
{
  return find_widget (root, type, &n);
}

/* The page: the grid whose first label reads "Event". */
static GtkWidget *
find_page (GtkWidget *widget)
{
  if (GTK_IS_GRID (widget))
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (widget), 0, 0);

      if (GTK_IS_LABEL (label) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (label)), "Event") == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_page (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
choose (GtkDropDown *choice,
        const char  *text)
{
  GListModel *model = gtk_drop_down_get_model (choice);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), text) == 0)
      {
        gtk_drop_down_set_selected (choice, i);
        cs_test_spin (50);
        return;
      }
  g_error ("the page offers no “%s”", text);
}

/* A recording (cs_test_path()) and the row the page is asked for. */
typedef struct {
  const char *recording;
  const char *event;
  const char *field;
  const char *where;
} PageCase;

static const PageCase own_case = {
  "sched-irq-v7.dat", "timer:hrtimer_start", "expires", "mode=0" };
static const PageCase public_case = {
  "public/lisa-rtapp-arm64-v6.dat", "power:cpu_frequency", "state", "cpu_id=0" };

static void
test_page_adds_row (gconstpointer data)
{
  const PageCase *c = data;
  g_autofree char *path = cs_test_path (c->recording);
  g_autofree char *key = g_strdup_printf ("%s.%s/%s", c->event, c->field, c->where);
  g_autofree char *want_label = g_strdup_printf ("%s\n%s", c->field, c->where);
  CsWindow *window;
  CsTimeline *timeline;
  CsTimelineRenderer *renderer;
  GtkWidget *page, *entry, *button;
  CsPluginRowSpec row;
  const char *label = NULL;
  CsTestPixels pixels;
  double y0, height;
  guint n_line = 0;

  if (path == NULL)
    return;
  window = cs_test_open_window (path, 1200, 900);
  timeline = cs_window_get_timeline (window);
  renderer = cs_timeline_get_renderer (timeline);
  cs_test_wait_until (passes_done, window, "the plugin passes");
  page = find_page (GTK_WIDGET (window));
  g_assert_nonnull (page);

  choose (GTK_DROP_DOWN (nth_widget (page, GTK_TYPE_DROP_DOWN, 0)), c->event);
  choose (GTK_DROP_DOWN (nth_widget (page, GTK_TYPE_DROP_DOWN, 1)), c->field);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (nth_widget (page, GTK_TYPE_DROP_DOWN, 2)), 3);
  entry = nth_widget (page, GTK_TYPE_ENTRY, 0);
  g_assert_true (gtk_widget_get_sensitive (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), c->where);
  button = find_button (page, "Add row");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  cs_test_spin (200);
  cs_test_wait_until (passes_done, window, "the row's pass");
  cs_test_spin (300);

  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 1);
  cs_timeline_renderer_get_plugin_row (renderer, 0, &row, &label);
  g_assert_cmpstr (row.key, ==, key);
  g_assert_cmpstr (label, ==, want_label);

  /* Its line is drawn in the row (the screenshot shows the page). */
  cs_test_show_tab (page);
  cs_test_save_screenshot (GTK_WIDGET (window), "field-plot-page");
  cs_timeline_renderer_get_plugin_row_area (renderer, 0, &y0, &height);
  cs_test_pixels_init (&pixels, GTK_WIDGET (timeline));
  for (int y = (int) y0; y < (int) (y0 + height) && y < pixels.height; y++)
    for (int x = 0; x < pixels.width; x++)
      {
        const guchar *p = pixels.pixels + y * pixels.stride + x * 4;
        guint32 rgb = ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];

        if (ABS ((int) (rgb >> 16) - 0x00) < 24 && ABS ((int) ((rgb >> 8) & 0xff) - 0x72) < 24 &&
            ABS ((int) (rgb & 0xff) - 0xb2) < 24)
          n_line++;
      }
  cs_test_pixels_clear (&pixels);
  g_test_message ("%u line pixels in the row", n_line);
  g_assert_cmpuint (n_line, >, 100);
  cs_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-field-plot-page", TRUE);
  g_test_add_data_func ("/cs/gui/FieldPlot/page-adds-row", &own_case, test_page_adds_row);
  g_test_add_data_func ("/cs/gui/FieldPlot/page-adds-row/public", &public_case, test_page_adds_row);
  return cs_test_gui_run ();
}
