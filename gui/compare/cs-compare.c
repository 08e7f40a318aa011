/* cs-compare.c: a second recording beside the window's, to compare.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * "Compare with…" (win.compare, or `chronoscope A.dat --compare B.dat`)
 * indexes recording B like any other (progress bar, cancel by closing)
 * and shows it in the same window: a second timeline, with its own CPU
 * and task plots (its own CsAnalysis, which its context menu changes),
 * under the window's, each labelled
 * with its file name.  Each timeline keeps its own time axis; they are
 * aligned at their first events, or (win.compare-align-markers) at marker
 * A of each, and a zoom or scroll of either shows the same span relative
 * to that origin in the other.  win.compare-stats opens the table of both
 * recordings' statistics (cs-compare-stats-window.c); win.compare-close
 * puts the window back to one recording.
 *
 * While comparing, the start child of the window's paned (the scrolled
 * window around timeline A) moves into a box that holds both; closing
 * puts it back.  The CsCompare of a window lives as long as the window
 * (cs_compare_get_for()).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-compare.h"
#include "cs-compare-stats-window.h"
#include "cs-recording-filters.h"
#include "cs-format.h"
#include "cs-index-job.h"

#define COMPARE_KEY "cs-compare"

struct _CsCompare
{
  GObject parent_instance;

  /* weak / borrowed */
  GtkApplicationWindow *window;
  CsViewModel *model;           /* the window's: recording A's file */
  CsTimeline *timeline_a;
  GtkWindow *stats_window;

  /* owned while comparing */
  GtkPaned *paned;
  GtkWidget *scrolled_a;        /* ref while it sits in box */
  GtkWidget *box;               /* ref: both timelines */
  GtkLabel *label_a;
  GtkLabel *label_b;
  GtkLabel *hover_b;            /* what lies under the pointer on B */
  GtkProgressBar *progress_bar;
  CsTimeline *timeline_b;
  CsAnalysis *analysis_b;
  CsIndexJob *job;
  GCancellable *cancellable;
  CsDocument *document;
  char *text_a, *text_b;
  char *error_message;
  guint fit_id;                 /* tick callback on paned */
  guint fit_frames;
  gboolean align_markers;
  gboolean syncing;
};

G_DEFINE_FINAL_TYPE (CsCompare, cs_compare, G_TYPE_OBJECT)

static void update_actions (CsCompare *self);

/* Labels ----------------------------------------------------------------- */

static char *
describe (const char *which,
          GFile      *file,
          CsDocument *doc)
{
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : g_strdup (_("no recording"));
  g_autofree char *count = NULL;
  g_autofree char *duration = NULL;
  guint n_cpus;

  if (doc == NULL)
    return g_strdup_printf ("%s: %s", which, name);
  n_cpus = cs_document_get_n_cpus (doc);
  count = cs_format_count (cs_document_get_n_events (doc));
  duration = cs_format_duration (cs_document_get_last_ns (doc) - cs_document_get_first_ns (doc));
  /* TRANSLATORS: "A: before.dat — 4 CPUs · 1,154 events · 1.37 s" */
  return g_strdup_printf (ngettext ("%s: %s — %u CPU · %s events · %s", "%s: %s — %u CPUs · %s events · %s",
                                    n_cpus),
                          which, name, n_cpus, count, duration);
}

static void
set_label (GtkLabel    *label,
           char       **store,
           char        *text)
{
  g_free (*store);
  *store = text;
  if (label != NULL)
    gtk_label_set_label (label, text);
}

static void
update_label_a (CsCompare *self)
{
  if (self->window == NULL || self->model == NULL)
    return;
  set_label (self->label_a, &self->text_a,
             describe ("A", cs_view_model_get_file (self->model), cs_timeline_get_document (self->timeline_a)));
}

/* Alignment -------------------------------------------------------------- */

/**
 * cs_compare_get_origin_ns:
 * @self: a comparison
 * @b: %TRUE for recording B, %FALSE for the window's (A)
 *
 * The time of that recording the two timelines are aligned at: its
 * marker A when aligning at markers and it is placed, else its first
 * event.
 *
 * Returns: the origin, ns in that recording's trace clock; 0 without a
 *   recording
 */
gint64
cs_compare_get_origin_ns (CsCompare *self,
                          gboolean   b)
{
  CsTimeline *timeline;
  CsDocument *doc;

  g_return_val_if_fail (CS_IS_COMPARE (self), 0);

  timeline = b ? self->timeline_b : self->timeline_a;
  doc = timeline != NULL ? cs_timeline_get_document (timeline) : NULL;
  if (doc == NULL)
    return 0;
  if (self->align_markers)
    {
      gint64 marker_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);

      if (marker_ns != CS_MARKER_UNSET)
        return marker_ns;
    }
  return cs_document_get_first_ns (doc);
}

/* Shows in @to the span @from shows, relative to each origin. */
static void
sync_span (CsCompare  *self,
           CsTimeline *from,
           CsTimeline *to)
{
  gint64 delta;

  if (self->syncing || to == NULL || cs_timeline_get_document (from) == NULL ||
      cs_timeline_get_document (to) == NULL)
    return;

  delta = to == self->timeline_b ? cs_compare_get_origin_ns (self, TRUE) - cs_compare_get_origin_ns (self, FALSE)
                                 : cs_compare_get_origin_ns (self, FALSE) - cs_compare_get_origin_ns (self, TRUE);
  self->syncing = TRUE;
  cs_timeline_set_span (to, cs_timeline_get_begin_ns (from) + delta, cs_timeline_get_end_ns (from) + delta);
  self->syncing = FALSE;
}

static void
span_a_changed_cb (CsCompare *self)
{
  sync_span (self, self->timeline_a, self->timeline_b);
}

static void
span_b_changed_cb (CsCompare *self)
{
  if (self->timeline_b != NULL)
    sync_span (self, self->timeline_b, self->timeline_a);
}

static void
markers_changed_cb (CsCompare *self)
{
  if (self->align_markers)
    span_a_changed_cb (self);
}

static void fit_paned (CsCompare *self);

static void
document_a_changed_cb (CsCompare *self)
{
  update_label_a (self);
  span_a_changed_cb (self);
  if (self->document != NULL)
    fit_paned (self);
  update_actions (self);
}

/* Opening B -------------------------------------------------------------- */

static void
job_fraction_cb (CsCompare *self)
{
  if (self->job != NULL && self->progress_bar != NULL)
    gtk_progress_bar_set_fraction (self->progress_bar, cs_index_job_get_fraction (self->job));
}

/* Both timelines get the room their plots need, up to three quarters of
 * the paned; the event list the rest.  On two frames once the paned has
 * a height: the window splits it for timeline A alone on the first frame
 * it has one (cs-window.c), and B's room must win. */
static gboolean
fit_paned_cb (GtkWidget     *paned,
              GdkFrameClock *frame_clock,
              gpointer       user_data)
{
  CsCompare *self = user_data;
  int height = gtk_widget_get_height (paned);
  int natural = 0, rows = 0;

  if (self->box == NULL || gtk_paned_get_start_child (self->paned) != self->box)
    {
      self->fit_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (height <= 0)
    return G_SOURCE_CONTINUE;
  /* The scrolled windows ask for little: measure what they hold. */
  for (GtkWidget *child = gtk_widget_get_first_child (self->box); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *measured = GTK_IS_SCROLLED_WINDOW (child)
                            ? gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (child)) : child;

      gtk_widget_measure (measured, GTK_ORIENTATION_VERTICAL, -1, NULL, &natural, NULL, NULL);
      rows += natural + 2;
    }
  gtk_paned_set_position (self->paned, MIN (rows, height * 3 / 4));
  if (++self->fit_frames < 2)
    return G_SOURCE_CONTINUE;
  self->fit_id = 0;
  return G_SOURCE_REMOVE;
}

static void
fit_paned (CsCompare *self)
{
  if (self->paned == NULL || self->fit_id != 0)
    return;
  self->fit_frames = 0;
  self->fit_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->paned), fit_paned_cb, self, NULL);
}

static void
job_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(CsCompare) self = user_data;
  CsIndexJob *job = CS_INDEX_JOB (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = cs_index_job_run_finish (job, result, &error);

  if (job != self->job)
    return;     /* superseded, or closed */

  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  if (document == NULL)
    {
      g_autofree char *name = g_file_get_basename (cs_index_job_get_file (job));

      g_free (self->error_message);
      self->error_message = g_strdup_printf (_("Could not open “%s”: %s"), name, error->message);
      set_label (self->label_b, &self->text_b, g_strdup_printf ("B: %s", self->error_message));
      g_clear_object (&self->job);
      update_actions (self);
      return;
    }

  g_set_object (&self->document, document);
  set_label (self->label_b, &self->text_b, describe ("B", cs_index_job_get_file (job), document));
  g_clear_object (&self->job);
  /* B first shows all of itself: not a span for A to follow. */
  self->syncing = TRUE;
  cs_timeline_set_document (self->timeline_b, document);
  cs_analysis_document_changed (self->analysis_b);
  self->syncing = FALSE;
  span_a_changed_cb (self);
  fit_paned (self);
  update_actions (self);
}

/* The window's info bar tells what lies under the pointer on A; B's row
 * tells it for B. */
static void
hover_b_changed_cb (CsCompare *self)
{
  if (self->hover_b != NULL && self->timeline_b != NULL)
    gtk_label_set_label (self->hover_b, cs_timeline_get_hover_text (self->timeline_b));
}

/* B's context menu: its "win." actions change B's plots and filter. */

typedef struct {
  const char *name;
  CsFilterField field;
  gboolean only;
} FilterAction;

static const FilterAction filter_actions[] = {
  { "filter-task-only", CS_FILTER_PID, TRUE }, { "filter-task-hide", CS_FILTER_PID, FALSE },
  { "filter-event-only", CS_FILTER_TYPE, TRUE }, { "filter-event-hide", CS_FILTER_TYPE, FALSE },
  { "filter-cpu-only", CS_FILTER_CPU, TRUE }, { "filter-cpu-hide", CS_FILTER_CPU, FALSE },
};

static void
b_filter_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  CsCompare *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  gint64 value = g_variant_is_of_type (parameter, G_VARIANT_TYPE_INT32) ? (gint64) g_variant_get_int32 (parameter)
                                                                        : (gint64) g_variant_get_uint32 (parameter);

  for (guint i = 0; self->analysis_b != NULL && i < G_N_ELEMENTS (filter_actions); i++)
    if (g_str_equal (name, filter_actions[i].name))
      {
        if (filter_actions[i].only)
          cs_analysis_filter_show_only (self->analysis_b, filter_actions[i].field, value);
        else
          cs_analysis_filter_hide (self->analysis_b, filter_actions[i].field, value);
      }
}

static void
b_plot_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  CsCompare *self = user_data;
  const char *name = g_action_get_name (G_ACTION (action));
  gboolean add = g_str_has_prefix (name, "add-");

  if (self->document == NULL)
    return;
  if (g_str_has_suffix (name, "-task-plot"))
    {
      if (add)
        cs_analysis_add_task_plot (self->analysis_b, g_variant_get_int32 (parameter));
      else
        cs_analysis_remove_task_plot (self->analysis_b, g_variant_get_int32 (parameter));
    }
  else if (!add)
    cs_analysis_remove_cpu_plot (self->analysis_b, g_variant_get_uint32 (parameter));
  else if (g_variant_get_uint32 (parameter) < cs_document_get_n_cpus (self->document))
    cs_analysis_add_cpu_plot (self->analysis_b, g_variant_get_uint32 (parameter));
}

static void
b_filter_clear_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  CsCompare *self = user_data;

  if (self->analysis_b != NULL)
    cs_analysis_set_filter (self->analysis_b, NULL);
}

/* The "win" actions of cs-event-menu.c, for B: inserted on B's scrolled
 * window, they come before the window's for its timeline's menu. */
static GActionGroup *
b_actions_new (CsCompare *self)
{
  const GActionEntry entries[] = {
    { "add-task-plot", b_plot_action, "i" }, { "remove-task-plot", b_plot_action, "i" },
    { "add-cpu-plot", b_plot_action, "u" }, { "remove-cpu-plot", b_plot_action, "u" },
    { "filter-task-only", b_filter_action, "i" }, { "filter-task-hide", b_filter_action, "i" },
    { "filter-event-only", b_filter_action, "u" }, { "filter-event-hide", b_filter_action, "u" },
    { "filter-cpu-only", b_filter_action, "u" }, { "filter-cpu-hide", b_filter_action, "u" },
    { "filter-clear", b_filter_clear_action },
  };
  GSimpleActionGroup *group = g_simple_action_group_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
  return G_ACTION_GROUP (group);
}

/* Both timelines in one box, in the paned's start child's place: the box
 * is cs-compare.ui's, A's scrolled window goes after A's heading. */
static void
mount (CsCompare *self)
{
  g_autoptr(GtkBuilder) builder = NULL;
  GActionGroup *actions;

  g_type_ensure (CS_TYPE_TIMELINE);
  builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-compare.ui");
  self->paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (self->timeline_a), GTK_TYPE_PANED));
  self->scrolled_a = g_object_ref (gtk_paned_get_start_child (self->paned));
  self->box = g_object_ref (GTK_WIDGET (gtk_builder_get_object (builder, "compare_box")));
  self->label_a = GTK_LABEL (gtk_builder_get_object (builder, "label_a"));
  self->label_b = GTK_LABEL (gtk_builder_get_object (builder, "label_b"));
  self->hover_b = GTK_LABEL (gtk_builder_get_object (builder, "hover_b"));
  self->progress_bar = GTK_PROGRESS_BAR (gtk_builder_get_object (builder, "progress_bar"));
  self->timeline_b = CS_TIMELINE (gtk_builder_get_object (builder, "timeline_b"));
  self->analysis_b = cs_analysis_new (self->timeline_b, NULL);
  actions = b_actions_new (self);
  gtk_widget_insert_action_group (GTK_WIDGET (gtk_builder_get_object (builder, "scrolled_b")), "win",
                                  actions);
  g_object_unref (actions);

  gtk_paned_set_start_child (self->paned, NULL);
  gtk_box_insert_child_after (GTK_BOX (self->box), self->scrolled_a,
                              GTK_WIDGET (gtk_builder_get_object (builder, "row_a")));
  gtk_paned_set_start_child (self->paned, self->box);

  g_signal_connect_object (self->timeline_b, "notify::begin-ns", G_CALLBACK (span_b_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline_b, "notify::end-ns", G_CALLBACK (span_b_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline_b, "notify::marker-a-ns", G_CALLBACK (markers_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->timeline_b, "notify::hover-text", G_CALLBACK (hover_b_changed_cb), self,
                           G_CONNECT_SWAPPED);
  update_label_a (self);
}

/**
 * cs_compare_open:
 * @self: the comparison of a window
 * @file: recording B
 *
 * Indexes @file (or reuses its index), showing the progress under the
 * window's timeline, then shows it there on a second timeline.  A
 * comparison already shown is replaced.  A failure shows in B's label
 * and cs_compare_get_error_message().
 */
void
cs_compare_open (CsCompare *self,
                 GFile     *file)
{
  g_autofree char *name = NULL;

  g_return_if_fail (CS_IS_COMPARE (self));
  g_return_if_fail (G_IS_FILE (file));

  cs_compare_close (self);
  if (self->window == NULL)
    return;
  mount (self);
  name = g_file_get_basename (file);
  set_label (self->label_b, &self->text_b, g_strdup_printf (_("B: Opening “%s”…"), name));
  self->job = cs_index_job_new (file);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (self->job, "notify::fraction", G_CALLBACK (job_fraction_cb), self, G_CONNECT_SWAPPED);
  cs_index_job_run_async (self->job, self->cancellable, job_done_cb, g_object_ref (self));
  update_actions (self);
}

/**
 * cs_compare_close:
 * @self: the comparison of a window
 *
 * Stops indexing B, closes the statistics table and puts the window back
 * to its one recording.  Does nothing when not comparing.
 */
void
cs_compare_close (CsCompare *self)
{
  g_return_if_fail (CS_IS_COMPARE (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job);
  if (self->stats_window != NULL)
    gtk_window_destroy (self->stats_window);
  if (self->fit_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->paned), self->fit_id);
  self->fit_id = 0;
  if (self->box != NULL)
    {
      gtk_paned_set_start_child (self->paned, NULL);
      gtk_box_remove (GTK_BOX (self->box), self->scrolled_a);
      gtk_paned_set_start_child (self->paned, self->scrolled_a);
      g_clear_object (&self->scrolled_a);
      g_clear_object (&self->box);
    }
  self->label_a = self->label_b = self->hover_b = NULL;
  self->progress_bar = NULL;
  self->timeline_b = NULL;
  g_clear_object (&self->analysis_b);
  g_clear_object (&self->document);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->text_b, g_free);
  update_actions (self);
}

/* Actions ---------------------------------------------------------------- */

static void
update_actions (CsCompare *self)
{
  GAction *action;

  if (self->window == NULL)
    return;
  /* Compare with… once the window shows a recording (A). */
  action = g_action_map_lookup_action (G_ACTION_MAP (self->window), "compare");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), cs_timeline_get_document (self->timeline_a) != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self->window), "compare-close");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->box != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self->window), "compare-stats");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->document != NULL);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     CsCompare       *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  if (file != NULL)
    cs_compare_open (self, file);
}

static void
compare_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  CsCompare *self = user_data;
  GtkFileChooserNative *chooser;

  if (self->window == NULL)
    return;
  chooser = gtk_file_chooser_native_new (_("Compare with Recording"), GTK_WINDOW (self->window),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  cs_recording_filters_add (GTK_FILE_CHOOSER (chooser));
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
close_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  cs_compare_close (user_data);
}

static void
stats_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  cs_compare_show_stats (user_data);
}

static void
align_action (GSimpleAction *action,
              GVariant      *value,
              gpointer       user_data)
{
  cs_compare_set_align_markers (user_data, g_variant_get_boolean (value));
}

/**
 * cs_compare_install:
 * @window: a main window, once its template is built
 * @timeline_a: its timeline, which shows recording A
 * @model: its view model, which names recording A's file
 *
 * Gives @window its comparison: the actions win.compare (choose B),
 * win.compare-close, win.compare-stats and the boolean state
 * win.compare-align-markers.
 */
void
cs_compare_install (GtkApplicationWindow *window,
                    CsTimeline           *timeline_a,
                    CsViewModel          *model)
{
  const GActionEntry entries[] = {
    { "compare", compare_action },
    { "compare-close", close_action },
    { "compare-stats", stats_action },
    { "compare-align-markers", NULL, NULL, "false", align_action },
  };
  CsCompare *self = g_object_new (CS_TYPE_COMPARE, NULL);

  g_set_weak_pointer (&self->window, window);
  g_set_weak_pointer (&self->model, model);
  self->timeline_a = timeline_a;
  g_object_set_data_full (G_OBJECT (window), COMPARE_KEY, self, g_object_unref);
  g_action_map_add_action_entries (G_ACTION_MAP (window), entries, G_N_ELEMENTS (entries), self);
  for (guint i = 0; i < 3; i++)
    {
      const char *signals[] = { "notify::begin-ns", "notify::end-ns", "notify::marker-a-ns" };
      GCallback callbacks[] = { G_CALLBACK (span_a_changed_cb), G_CALLBACK (span_a_changed_cb),
                                G_CALLBACK (markers_changed_cb) };

      g_signal_connect_object (self->timeline_a, signals[i], callbacks[i], self, G_CONNECT_SWAPPED);
    }
  g_signal_connect_object (self->timeline_a, "notify::document", G_CALLBACK (document_a_changed_cb), self,
                           G_CONNECT_SWAPPED);
  update_actions (self);
}

/**
 * cs_compare_get_for:
 * @window: a main window
 *
 * Returns: (transfer none): the comparison of @window
 */
CsCompare *
cs_compare_get_for (GtkApplicationWindow *window)
{
  g_return_val_if_fail (GTK_IS_APPLICATION_WINDOW (window), NULL);
  return g_object_get_data (G_OBJECT (window), COMPARE_KEY);
}

/* Accessors -------------------------------------------------------------- */

/** cs_compare_is_active: Returns: whether a second recording is shown or opening */
gboolean
cs_compare_is_active (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), FALSE);
  return self->box != NULL;
}

/** cs_compare_is_loading: Returns: whether recording B is being indexed */
gboolean
cs_compare_is_loading (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), FALSE);
  return self->job != NULL;
}

/**
 * cs_compare_get_timeline:
 * @self: a comparison
 *
 * Returns: (transfer none) (nullable): the timeline of recording B, %NULL
 *   when not comparing
 */
CsTimeline *
cs_compare_get_timeline (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);
  return self->timeline_b;
}

/**
 * cs_compare_get_analysis:
 * @self: a comparison
 *
 * Returns: (transfer none) (nullable): the plots and filter of timeline
 *   B (its context menu changes them), %NULL when not comparing
 */
CsAnalysis *
cs_compare_get_analysis (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);
  return self->analysis_b;
}

/**
 * cs_compare_get_document:
 * @self: a comparison
 *
 * Returns: (transfer none) (nullable): recording B, once indexed
 */
CsDocument *
cs_compare_get_document (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);
  return self->document;
}

/**
 * cs_compare_get_label:
 * @self: a comparison
 * @b: %TRUE for B's label, %FALSE for A's
 *
 * Returns: (transfer none) (nullable): the label over that timeline, as
 *   "A: before.dat — 4 CPUs · 1,154 events · 1.37 s"; %NULL when not
 *   comparing
 */
const char *
cs_compare_get_label (CsCompare *self,
                      gboolean   b)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);
  if (self->box == NULL)
    return NULL;
  return b ? self->text_b : self->text_a;
}

/**
 * cs_compare_get_error_message:
 * @self: a comparison
 *
 * Returns: (transfer none) (nullable): why recording B could not be
 *   opened, naming it, or %NULL
 */
const char *
cs_compare_get_error_message (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);
  return self->error_message;
}

/**
 * cs_compare_set_align_markers:
 * @self: a comparison
 * @align_markers: %TRUE to align the timelines at marker A of each (a
 *   recording without marker A aligns at its first event), %FALSE at
 *   their first events
 *
 * Realigns timeline B on timeline A's span at once.
 */
void
cs_compare_set_align_markers (CsCompare *self,
                              gboolean   align_markers)
{
  GAction *action;

  g_return_if_fail (CS_IS_COMPARE (self));

  self->align_markers = !!align_markers;
  if (self->window != NULL)
    {
      action = g_action_map_lookup_action (G_ACTION_MAP (self->window), "compare-align-markers");
      g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (self->align_markers));
    }
  span_a_changed_cb (self);
}

/** cs_compare_get_align_markers: Returns: whether the timelines align at markers A */
gboolean
cs_compare_get_align_markers (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), FALSE);
  return self->align_markers;
}

/**
 * cs_compare_show_stats:
 * @self: a comparison with recording B shown
 *
 * Presents the window of both recordings' statistics, one per
 * comparison; it closes with the comparison.
 *
 * Returns: (transfer none) (nullable): that window, %NULL before B is
 *   shown
 */
GtkWindow *
cs_compare_show_stats (CsCompare *self)
{
  g_return_val_if_fail (CS_IS_COMPARE (self), NULL);

  if (self->document == NULL || self->window == NULL)
    return NULL;
  if (self->stats_window == NULL)
    g_set_weak_pointer (&self->stats_window,
                        GTK_WINDOW (cs_compare_stats_window_new (GTK_WINDOW (self->window), self->timeline_a,
                                                                 self->timeline_b)));
  gtk_window_present (self->stats_window);
  return self->stats_window;
}

/* GObject ---------------------------------------------------------------- */

static void
cs_compare_dispose (GObject *object)
{
  CsCompare *self = CS_COMPARE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job);
  g_clear_weak_pointer (&self->stats_window);
  g_clear_object (&self->scrolled_a);
  g_clear_object (&self->box);
  g_clear_object (&self->analysis_b);
  g_clear_object (&self->document);
  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->model);
  G_OBJECT_CLASS (cs_compare_parent_class)->dispose (object);
}

static void
cs_compare_finalize (GObject *object)
{
  CsCompare *self = CS_COMPARE (object);

  g_free (self->text_a);
  g_free (self->text_b);
  g_free (self->error_message);
  G_OBJECT_CLASS (cs_compare_parent_class)->finalize (object);
}

static void
cs_compare_class_init (CsCompareClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_compare_dispose;
  object_class->finalize = cs_compare_finalize;
}

static void
cs_compare_init (CsCompare *self)
{
}
