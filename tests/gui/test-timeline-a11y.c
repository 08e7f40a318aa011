/* test-timeline-a11y.c: the timeline as assistive technology and the
 * keyboard see it, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process (this program answers `index-worker
 * FILE` itself) on tests/data/sched-irq-v7.dat, with GTK_A11Y=test: GTK
 * 4.8 has no public getter for accessible properties, but its test API
 * (gtk_test_accessible_check_property()) compares them and hands back the
 * value it found.  The accessible tree is walked through GtkWidget's
 * children and gtk_accessible_get_accessible_role(); plot names are
 * checked against what the renderer draws (its CPUs and task plots) and
 * the index (comm of each pid).  Keys are the timeline's own shortcuts,
 * found in its shortcut controller by their trigger and activated as GTK
 * does: the keys cannot be typed into Xvfb from here.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "cs-cli.h"
#include "cs-event-list-view.h"
#include "cs-format.h"
#include "cs-timeline-plot-item.h"
#include "cs-window.h"
#include "gui-test-util.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* An accessible string property's value ("" when unset).  The check
 * returns the value it found when it differs from the one asked, and no
 * name is a single control character. */
static char *
accessible_string (gpointer              accessible,
                   GtkAccessibleProperty property)
{
  char *value;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (accessible), property))
    return g_strdup ("");
  value = gtk_test_accessible_check_property (GTK_ACCESSIBLE (accessible), property, "\x01");
  g_assert_nonnull (value);
  return value;
}

/* The timeline's key @accel, as GTK runs it on a key press. */
static void
press (CsTimeline *timeline,
       const char *accel)
{
  cs_test_activate_shortcut (GTK_WIDGET (timeline), accel);
}

/* The plot items, top to bottom, as GtkWidget children of the timeline. */
static GPtrArray *
plot_items (CsTimeline *timeline)
{
  GPtrArray *items = g_ptr_array_new ();

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (timeline));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (CS_IS_TIMELINE_PLOT_ITEM (child))
      g_ptr_array_add (items, child);
  return items;
}

/* The names the plots are drawn with: "CPU n" for the renderer's CPUs,
 * "comm (pid)" for its task plots, from the index. */
static GPtrArray *
drawn_plot_names (CsTimeline *timeline)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (timeline);
  CsDocument *document = cs_timeline_get_document (timeline);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint n_cpus = 0, n_pids = 0;
  const guint *cpus = cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  const gint32 *pids = cs_timeline_renderer_get_task_plots (renderer, &n_pids);

  for (guint i = 0; i < n_cpus; i++)
    g_ptr_array_add (names, g_strdup_printf ("CPU %u", cpus[i]));
  for (guint i = 0; i < n_pids; i++)
    g_ptr_array_add (names, g_strdup_printf ("%s (%d)", cs_document_get_comm (document, pids[i]), pids[i]));
  g_assert_cmpuint (cs_timeline_renderer_get_n_plugin_rows (renderer), ==, 0);
  return names;
}

typedef struct {
  CsTimeline *timeline;
  GPtrArray *names;
} PlotsWait;

static gboolean
items_match_plots (gpointer data)
{
  PlotsWait *wait = data;
  g_autoptr(GPtrArray) items = plot_items (wait->timeline);

  if (items->len != wait->names->len)
    return FALSE;
  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *label = accessible_string (items->pdata[i], GTK_ACCESSIBLE_PROPERTY_LABEL);

      if (!g_str_equal (label, wait->names->pdata[i]))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  gpointer accessible;
  GtkAccessibleProperty property;
  const char *old_value;      /* wait for another value */
  const char *contains;       /* or for one containing this */
} PropertyWait;

static gboolean
property_changed (gpointer data)
{
  PropertyWait *wait = data;
  g_autofree char *value = accessible_string (wait->accessible, wait->property);

  if (wait->old_value != NULL && g_str_equal (value, wait->old_value))
    return FALSE;
  return wait->contains == NULL || strstr (value, wait->contains) != NULL;
}

static char *
wait_for_change (gpointer              accessible,
                 GtkAccessibleProperty property,
                 const char           *old_value,
                 const char           *contains)
{
  PropertyWait wait = { accessible, property, old_value, contains };

  cs_test_wait_until (property_changed, &wait, contains != NULL ? contains : "an accessible property to change");
  return accessible_string (accessible, property);
}

/* The expected label for the visible span. */
static char *
span_label (CsTimeline *timeline)
{
  gint64 first_ns = cs_document_get_first_ns (cs_timeline_get_document (timeline));
  g_autofree char *begin = cs_format_offset (cs_timeline_get_begin_ns (timeline) - first_ns);
  g_autofree char *end = cs_format_offset (cs_timeline_get_end_ns (timeline) - first_ns);

  return g_strdup_printf ("Timeline of sched-irq-v7.dat, %s to %s", begin, end);
}

/* A task that ran: the first in the index's list. */
static gint32
some_task (CsDocument *document)
{
  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    if (cs_document_get_task (document, i)->pid > 0 && cs_document_get_task (document, i)->runtime_ns > 0)
      return cs_document_get_task (document, i)->pid;
  g_error ("No task ran in the recording");
}

/* ------------------------------------------------------------------------ */
/* Tests                                                                     */

static void
test_tree (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  g_autoptr(GPtrArray) names = drawn_plot_names (timeline);
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *label = NULL;
  g_autofree char *expected = NULL;
  PlotsWait wait = { timeline, names };
  gint32 pid = some_task (document);

  gtk_test_accessible_assert_role (timeline, GTK_ACCESSIBLE_ROLE_GROUP);
  g_assert_cmpuint (names->len, ==, cs_document_get_n_cpus (document));
  cs_test_wait_until (items_match_plots, &wait, "one accessible item per CPU plot");

  items = plot_items (timeline);
  for (guint i = 0; i < items->len; i++)
    {
      gtk_test_accessible_assert_role (items->pdata[i], GTK_ACCESSIBLE_ROLE_IMG);
      g_test_message ("plot %u: %s", i, (const char *) names->pdata[i]);
    }

  /* The label names the recording and the span shown. */
  expected = span_label (timeline);
  label = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_LABEL, NULL, expected);
  g_assert_cmpstr (label, ==, expected);

  /* A task plot joins the tree with the task's name. */
  cs_test_activate (window, "add-task-plot", g_variant_new_int32 (pid));
  g_ptr_array_unref (wait.names);
  names = wait.names = drawn_plot_names (timeline);
  g_assert_cmpuint (names->len, ==, cs_document_get_n_cpus (document) + 1);
  cs_test_wait_until (items_match_plots, &wait, "an accessible item for the task plot");
  g_test_message ("task plot: %s", (const char *) names->pdata[names->len - 1]);

  /* The active descendant is the focused plot: the first. */
  g_clear_pointer (&items, g_ptr_array_unref);
  items = plot_items (timeline);
  g_assert_cmpuint (cs_timeline_get_focused_plot (timeline), ==, 0);
  gtk_test_accessible_assert_relation (timeline, GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT,
                                       items->pdata[0]);

  cs_test_destroy_window (window);
}

/* The event list says what it is, and its icon-only button too. */
static void
test_event_list_labels (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsEventListView *view = cs_window_get_event_list_view (window);
  GtkColumnView *column_view = cs_event_list_view_get_column_view (view);
  GtkWidget *search_button = NULL;
  g_autofree char *label = accessible_string (column_view, GTK_ACCESSIBLE_PROPERTY_LABEL);

  g_assert_cmpstr (label, ==, "Events");
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (column_view),
                                                   GTK_ACCESSIBLE_RELATION_DESCRIBED_BY));

  /* Every toggle button of the list's toolbar has a name to read. */
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (view)); w != NULL; w = gtk_widget_get_next_sibling (w))
    for (GtkWidget *child = gtk_widget_get_first_child (w); child != NULL; child = gtk_widget_get_next_sibling (child))
      if (GTK_IS_TOGGLE_BUTTON (child) && !GTK_IS_CHECK_BUTTON (child))
        search_button = child;
  g_assert_nonnull (search_button);
  g_clear_pointer (&label, g_free);
  label = accessible_string (search_button, GTK_ACCESSIBLE_PROPERTY_LABEL);
  g_assert_cmpstr (label, ==, "Search the list");

  cs_test_destroy_window (window);
}

static void
test_keys_move_view (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 last_ns = cs_document_get_last_ns (document);
  gint64 begin_ns, span_ns;
  g_autofree char *label = NULL;
  g_autofree char *zoomed = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *description = NULL;

  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  expected = span_label (timeline);
  label = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_LABEL, NULL, expected);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);

  /* + zooms in around the cursor (the middle), and the label follows. */
  span_ns = cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline);
  press (timeline, "plus");
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), <, span_ns);
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), >, first_ns);
  g_clear_pointer (&expected, g_free);
  expected = span_label (timeline);
  zoomed = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_LABEL, label, expected);
  g_assert_cmpstr (zoomed, ==, expected);
  g_assert_cmpstr (zoomed, !=, label);
  g_test_message ("%s -> %s", label, zoomed);
  press (timeline, "plus");
  span_ns = cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline);

  /* Right and Left pan by a tenth, keeping the zoom. */
  begin_ns = cs_timeline_get_begin_ns (timeline);
  press (timeline, "Right");
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), >, begin_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), ==, span_ns);
  press (timeline, "Left");
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, begin_ns);

  /* Home and End: the ends of the recording, at the same zoom. */
  press (timeline, "Home");
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), ==, span_ns);
  g_assert_cmpint (cs_timeline_get_cursor_ns (timeline), ==, first_ns);
  press (timeline, "End");
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);
  g_assert_cmpint (cs_timeline_get_cursor_ns (timeline), ==, last_ns);

  /* - zooms out; 0 shows everything. */
  press (timeline, "minus");
  g_assert_cmpint (cs_timeline_get_end_ns (timeline) - cs_timeline_get_begin_ns (timeline), >, span_ns);
  press (timeline, "0");
  g_assert_cmpint (cs_timeline_get_begin_ns (timeline), ==, first_ns);
  g_assert_cmpint (cs_timeline_get_end_ns (timeline), ==, last_ns + 1);

  /* Down and Up move the focused plot; its item is described. */
  items = plot_items (timeline);
  g_assert_cmpuint (items->len, >=, 2);
  press (timeline, "Down");
  g_assert_cmpuint (cs_timeline_get_focused_plot (timeline), ==, 1);
  description = wait_for_change (items->pdata[1], GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", NULL);
  g_test_message ("plot 1 under the cursor: %s", description);
  gtk_test_accessible_assert_relation (timeline, GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT,
                                       items->pdata[1]);
  for (guint i = 0; i < items->len + 2; i++)
    press (timeline, "Down");
  g_assert_cmpuint (cs_timeline_get_focused_plot (timeline), ==, items->len - 1);
  for (guint i = 0; i < items->len + 2; i++)
    press (timeline, "Up");
  g_assert_cmpuint (cs_timeline_get_focused_plot (timeline), ==, 0);

  cs_test_destroy_window (window);
}

/* The first event of some CPU plot, and that plot's index. */
static gboolean
first_event_of_a_plot (CsTimeline *timeline,
                       gboolean    from_end,
                       guint      *plot,
                       CsEvent    *event)
{
  CsDocument *document = cs_timeline_get_document (timeline);
  gint64 ts_ns = from_end ? cs_document_get_last_ns (document) : cs_document_get_first_ns (document);
  g_autoptr(GError) error = NULL;
  guint n_cpus = 0;
  const guint *cpus = cs_timeline_renderer_get_cpus (cs_timeline_get_renderer (timeline), &n_cpus);

  for (guint i = 0; i < n_cpus; i++)
    if (cs_document_find_event_near (document, cpus[i], ts_ns, 0, event, &error))
      {
        *plot = i;
        return TRUE;
      }
  g_assert_no_error (error);
  return FALSE;
}

static void
test_keyboard_selection (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  g_autofree char *description = NULL;
  g_autofree char *expected = NULL;
  const CsEventType *type;
  CsEvent event;
  guint plot;

  gtk_widget_grab_focus (GTK_WIDGET (timeline));

  /* Home puts the cursor on the first event; Enter on its CPU's plot
   * selects it. */
  g_assert_true (first_event_of_a_plot (timeline, FALSE, &plot, &event));
  press (timeline, "plus");
  press (timeline, "Home");
  for (guint i = 0; i < plot; i++)
    press (timeline, "Down");
  g_assert_cmpuint (cs_timeline_get_focused_plot (timeline), ==, plot);
  press (timeline, "Return");
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_A), ==, event.ts_ns);
  type = cs_document_get_event_type (document, event.type_id);
  expected = g_strdup_printf ("Selected: CPU %u", event.cpu);
  description = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, NULL, expected);
  g_test_message ("after Enter at the start: %s", description);
  g_assert_nonnull (strstr (description, type->name));

  /* End and Shift+Enter on the last event: marker B, and the description
   * follows the new selection. */
  g_assert_true (first_event_of_a_plot (timeline, TRUE, &plot, &event));
  press (timeline, "End");
  for (guint i = 0; i < 8; i++)
    press (timeline, "Up");
  for (guint i = 0; i < plot; i++)
    press (timeline, "Down");
  press (timeline, "<Shift>Return");
  g_assert_cmpint (cs_timeline_get_marker_ns (timeline, CS_MARKER_B), ==, event.ts_ns);
  {
    g_autofree char *time = cs_format_offset (event.ts_ns - cs_document_get_first_ns (document));
    g_autofree char *after = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, time);

    g_test_message ("after Shift+Enter at the end: %s", after);
    type = cs_document_get_event_type (document, event.type_id);
    g_assert_nonnull (strstr (after, type->name));
    /* Both markers are placed now: their distance is read too. */
    g_assert_nonnull (strstr (after, "Marker A at 0 ns, marker B at"));
  }

  cs_test_destroy_window (window);
}

/* A row selected in the event list (as a click there does, through the
 * column view's selection model) is announced by the timeline's
 * description, and a second row replaces it. */
static void
test_list_selection (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsDocument *document = cs_timeline_get_document (timeline);
  CsEventListView *list = cs_window_get_event_list_view (window);
  GtkSelectionModel *selection = gtk_column_view_get_model (cs_event_list_view_get_column_view (list));
  g_autofree char *before = NULL;
  g_autofree char *description = NULL;
  const guint rows[] = { 10, 200 };

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (selection)), >, rows[1]);
  before = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, NULL, "Cursor: ");
  g_assert_null (strstr (before, "Selected: "));

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const CsEvent *event;
      const CsEventType *type;
      g_autofree char *expected = NULL;
      g_autofree char *time = NULL;
      g_autofree char *after = NULL;

      g_assert_true (gtk_selection_model_select_item (selection, rows[i], TRUE));
      g_assert_cmpuint (cs_event_list_view_get_selected_row (list), ==, rows[i]);
      event = cs_event_item_get_event (cs_event_list_view_get_selected_item (list));
      type = cs_document_get_event_type (document, event->type_id);
      time = cs_format_offset (event->ts_ns - cs_document_get_first_ns (document));
      expected = g_strdup_printf ("Selected: CPU %u", event->cpu);

      after = wait_for_change (timeline, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                               description != NULL ? description : before, expected);
      g_test_message ("row %u selected in the list: %s", rows[i], after);
      g_assert_nonnull (strstr (after, type->name));
      g_assert_nonnull (strstr (after, time));
      g_free (description);
      description = g_steal_pointer (&after);
    }

  cs_test_destroy_window (window);
}

/* Visible focus draws a ring around the focused plot. */
static void
test_focus_ring (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  CsTestPixels before, after;
  guint n_changed = 0;

  gtk_window_set_focus_visible (GTK_WINDOW (window), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  cs_test_spin (100);
  cs_test_pixels_init (&before, GTK_WIDGET (timeline));
  gtk_window_set_focus_visible (GTK_WINDOW (window), TRUE);
  g_assert_true (gtk_widget_has_visible_focus (GTK_WIDGET (timeline)));
  cs_test_spin (100);
  cs_test_pixels_init (&after, GTK_WIDGET (timeline));
  cs_test_save_screenshot (GTK_WIDGET (window), "timeline-focus-ring.png");

  g_assert_cmpint (before.width, ==, after.width);
  g_assert_cmpint (before.height, ==, after.height);
  for (int y = 0; y < after.height; y++)
    for (int x = 0; x < after.width; x++)
      {
        const guint32 *a = (const guint32 *) (before.pixels + (gsize) y * before.stride) + x;
        const guint32 *b = (const guint32 *) (after.pixels + (gsize) y * after.stride) + x;

        if (!cs_test_same_color (*a, *b, 8))
          n_changed++;
      }
  g_test_message ("%u pixels changed with visible focus", n_changed);
  /* At least the ring's top and bottom edges across the time area. */
  g_assert_cmpuint (n_changed, >, (guint) after.width);

  cs_test_pixels_clear (&before);
  cs_test_pixels_clear (&after);
  cs_test_destroy_window (window);
}

/* Every key of the timeline (but the keypad's twins) is in the shortcuts
 * window. */
static void
test_keys_documented (void)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/gtk/help-overlay.ui");
  g_autoptr(GSList) objects = gtk_builder_get_objects (builder);
  g_autoptr(GPtrArray) documented = g_ptr_array_new_with_free_func (g_object_unref);
  GtkWidget *timeline = g_object_ref_sink (cs_timeline_new ());
  g_autoptr(GPtrArray) shortcuts = cs_test_list_shortcuts (timeline);
  guint n_checked = 0;

  for (GSList *l = objects; l != NULL; l = l->next)
    {
      g_autofree char *accelerator = NULL;
      g_auto(GStrv) accels = NULL;

      if (!GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        continue;
      g_object_get (l->data, "accelerator", &accelerator, NULL);
      if (accelerator == NULL)
        continue;
      accels = g_strsplit (accelerator, " ", -1);
      for (guint i = 0; accels[i] != NULL; i++)
        {
          GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string (accels[i]);

          if (trigger != NULL)
            g_ptr_array_add (documented, trigger);
        }
    }
  g_assert_cmpuint (documented->len, >, 0);

  for (guint i = 0; i < shortcuts->len; i++)
    {
      GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcuts->pdata[i]);
      g_autofree char *name = gtk_shortcut_trigger_to_string (trigger);
      gboolean found = FALSE;

      if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
          g_str_has_prefix (gdk_keyval_name (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger))), "KP_"))
        continue;
      for (guint k = 0; k < documented->len && !found; k++)
        found = gtk_shortcut_trigger_equal (trigger, documented->pdata[k]);
      if (!found)
        g_error ("The timeline's key %s is not in the shortcuts window", name);
      n_checked++;
    }
  g_test_message ("%u keys of the timeline are in the shortcuts window", n_checked);
  g_assert_cmpuint (n_checked, >=, 15);

  g_object_unref (timeline);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc >= 2 && g_str_equal (argv[1], "index-worker"))
    return cs_cli_run (argc, argv);

  /* GTK's test context keeps the accessible properties where
   * gtk_test_accessible_check_property() reads them. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  cs_test_gui_init (&argc, &argv, "test-timeline-a11y", TRUE);

  g_test_add_func ("/cs/gui/TimelineA11y/tree", test_tree);
  g_test_add_func ("/cs/gui/TimelineA11y/event-list-labels", test_event_list_labels);
  g_test_add_func ("/cs/gui/TimelineA11y/keys-move-view", test_keys_move_view);
  g_test_add_func ("/cs/gui/TimelineA11y/keyboard-selection", test_keyboard_selection);
  g_test_add_func ("/cs/gui/TimelineA11y/list-selection", test_list_selection);
  g_test_add_func ("/cs/gui/TimelineA11y/focus-ring", test_focus_ring);
  g_test_add_func ("/cs/gui/TimelineA11y/keys-documented", test_keys_documented);

  return cs_test_gui_run ();
}
