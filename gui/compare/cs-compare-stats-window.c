/* cs-compare-stats-window.c: the statistics of two recordings side by side.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The table `chronoscope stats A --compare B` prints (cs-compare-table.c),
 * for the whole recordings or for the span each timeline shows (the
 * aligned visible span); in the latter mode it follows the timelines after
 * a short pause.  Both recordings' statistics are computed in a worker
 * thread (GTask) on documents of its own, opened from the same indexes in
 * that thread, as the statistics window does for one: a document is used
 * from one thread at a time.  One computation runs at a time; a change
 * meanwhile runs the next when it ends.
 *
 * The layout is the template cs-compare-stats-window.ui.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-compare-stats-window.h"
#include "cs-compare-table.h"

#define FOLLOW_DELAY_MS 150
#define TOP_ROWS 40

struct _CsCompareStatsWindow
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkDropDown *mode;
  GtkTextView *text_view;
  GtkSpinner *spinner;

  /* weak */
  CsTimeline *timelines[2];

  /* owned */
  CsDocument *worker_docs[2];   /* touched in the worker thread only */
  GCancellable *cancellable;
  char *text;
  guint follow_id;
  gboolean running;
  gboolean again;
};

G_DEFINE_FINAL_TYPE (CsCompareStatsWindow, cs_compare_stats_window, GTK_TYPE_WINDOW)

typedef struct {
  char *trace_path;
  char *index_path;
  char *identity;
  gint64 begin_ns, end_ns;
} Side;

typedef struct {
  Side sides[2];
} Job;

static void
job_free (Job *job)
{
  for (guint i = 0; i < 2; i++)
    {
      g_free (job->sides[i].trace_path);
      g_free (job->sides[i].index_path);
      g_free (job->sides[i].identity);
    }
  g_free (job);
}

static void start (CsCompareStatsWindow *self);

/* Worker thread: both statistics, then the table as text. */
static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  CsCompareStatsWindow *self = source;
  Job *job = task_data;
  CsRangeStats *stats[2] = { NULL, NULL };
  g_autoptr(CsCompareTable) table = NULL;
  GError *error = NULL;

  for (guint i = 0; i < 2 && error == NULL; i++)
    {
      const Side *side = &job->sides[i];

      if (self->worker_docs[i] == NULL ||
          g_strcmp0 (cs_document_get_index_path (self->worker_docs[i]), side->index_path) != 0)
        {
          g_clear_object (&self->worker_docs[i]);
          self->worker_docs[i] = cs_document_open_as (side->trace_path, side->index_path, side->identity,
                                                      &error);
        }
      if (self->worker_docs[i] != NULL)
        stats[i] = cs_document_compute_range_stats (self->worker_docs[i], side->begin_ns, side->end_ns,
                                                    cancellable, &error);
    }
  if (error == NULL)
    {
      table = cs_compare_table_new (self->worker_docs[0], stats[0], self->worker_docs[1], stats[1]);
      g_task_return_pointer (task, cs_compare_table_to_text (table, TOP_ROWS), g_free);
    }
  else
    g_task_return_error (task, error);
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&stats[i], cs_range_stats_free);
}

static void
run_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  CsCompareStatsWindow *self = CS_COMPARE_STATS_WINDOW (source);
  g_autoptr(GError) error = NULL;
  char *text = g_task_propagate_pointer (G_TASK (result), &error);

  self->running = FALSE;
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      g_free (text);
      return;
    }
  g_free (self->text);
  self->text = text != NULL ? text : g_strdup_printf (_("The statistics could not be computed: %s"),
                                                      error->message);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), self->text, -1);
  gtk_spinner_stop (self->spinner);
  if (self->again)
    start (self);
}

static void
start (CsCompareStatsWindow *self)
{
  gboolean visible = gtk_drop_down_get_selected (self->mode) == 1;
  g_autoptr(GTask) task = NULL;
  Job *job;

  if (self->running)
    {
      self->again = TRUE;
      return;
    }
  self->again = FALSE;

  job = g_new0 (Job, 1);
  for (guint i = 0; i < 2; i++)
    {
      CsDocument *doc = self->timelines[i] != NULL ? cs_timeline_get_document (self->timelines[i]) : NULL;

      if (doc == NULL)
        {
          job_free (job);
          return;
        }
      job->sides[i].trace_path = g_strdup (cs_document_get_trace_path (doc));
      job->sides[i].index_path = g_strdup (cs_document_get_index_path (doc));
      job->sides[i].identity = g_strdup (cs_document_get_identity (doc));
      job->sides[i].begin_ns = visible ? cs_timeline_get_begin_ns (self->timelines[i]) : G_MININT64;
      job->sides[i].end_ns = visible ? cs_timeline_get_end_ns (self->timelines[i]) : G_MAXINT64;
    }
  task = g_task_new (self, self->cancellable, run_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  self->running = TRUE;
  gtk_spinner_start (self->spinner);
  g_task_run_in_thread (task, run_thread);
}

static gboolean
follow_timeout (gpointer user_data)
{
  CsCompareStatsWindow *self = user_data;

  self->follow_id = 0;
  start (self);
  return G_SOURCE_REMOVE;
}

/* A timeline moved: the visible span's figures change, after a pause. */
static void
span_changed_cb (CsCompareStatsWindow *self)
{
  if (gtk_drop_down_get_selected (self->mode) != 1)
    return;
  g_clear_handle_id (&self->follow_id, g_source_remove);
  self->follow_id = g_timeout_add (FOLLOW_DELAY_MS, follow_timeout, self);
}

static void
mode_changed_cb (CsCompareStatsWindow *self)
{
  g_clear_handle_id (&self->follow_id, g_source_remove);
  start (self);
}

static void
cs_compare_stats_window_dispose (GObject *object)
{
  CsCompareStatsWindow *self = CS_COMPARE_STATS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->follow_id, g_source_remove);
  for (guint i = 0; i < 2; i++)
    g_clear_weak_pointer (&self->timelines[i]);
  G_OBJECT_CLASS (cs_compare_stats_window_parent_class)->dispose (object);
}

static void
cs_compare_stats_window_finalize (GObject *object)
{
  CsCompareStatsWindow *self = CS_COMPARE_STATS_WINDOW (object);

  /* A running GTask holds a reference: the worker is done with them. */
  for (guint i = 0; i < 2; i++)
    g_clear_object (&self->worker_docs[i]);
  g_clear_object (&self->cancellable);
  g_free (self->text);
  G_OBJECT_CLASS (cs_compare_stats_window_parent_class)->finalize (object);
}

static void
cs_compare_stats_window_class_init (CsCompareStatsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_compare_stats_window_dispose;
  object_class->finalize = cs_compare_stats_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-compare-stats-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CsCompareStatsWindow, mode);
  gtk_widget_class_bind_template_child (widget_class, CsCompareStatsWindow, text_view);
  gtk_widget_class_bind_template_child (widget_class, CsCompareStatsWindow, spinner);
}

static void
cs_compare_stats_window_init (CsCompareStatsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
}

/**
 * cs_compare_stats_window_new:
 * @parent: the main window; this one closes with it
 * @timeline_a: (transfer none): the timeline of recording A
 * @timeline_b: (transfer none): the timeline of recording B
 *
 * Shows the comparison of the whole recordings, and starts computing it.
 *
 * Returns: (transfer none): a new window, owned by GTK's window list
 */
CsCompareStatsWindow *
cs_compare_stats_window_new (GtkWindow  *parent,
                             CsTimeline *timeline_a,
                             CsTimeline *timeline_b)
{
  CsCompareStatsWindow *self = g_object_new (CS_TYPE_COMPARE_STATS_WINDOW, "transient-for", parent, NULL);
  CsTimeline *timelines[2] = { timeline_a, timeline_b };

  for (guint i = 0; i < 2; i++)
    {
      g_set_weak_pointer (&self->timelines[i], timelines[i]);
      g_signal_connect_object (timelines[i], "notify::begin-ns", G_CALLBACK (span_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (timelines[i], "notify::end-ns", G_CALLBACK (span_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (timelines[i], "notify::document", G_CALLBACK (mode_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  g_signal_connect_object (self->mode, "notify::selected", G_CALLBACK (mode_changed_cb), self,
                           G_CONNECT_SWAPPED);
  start (self);
  return self;
}

/**
 * cs_compare_stats_window_set_visible_span:
 * @self: a comparison window
 * @visible_span: %TRUE for the span each timeline shows, %FALSE for the
 *   whole recordings
 *
 * Chooses what the figures describe, as the window's drop-down does, and
 * recomputes them.
 */
void
cs_compare_stats_window_set_visible_span (CsCompareStatsWindow *self,
                                          gboolean              visible_span)
{
  g_return_if_fail (CS_IS_COMPARE_STATS_WINDOW (self));
  gtk_drop_down_set_selected (self->mode, visible_span ? 1 : 0);
}

/**
 * cs_compare_stats_window_get_text:
 * @self: a comparison window
 *
 * Returns: (transfer none) (nullable): the table shown, %NULL before the
 *   first computation ends
 */
const char *
cs_compare_stats_window_get_text (CsCompareStatsWindow *self)
{
  g_return_val_if_fail (CS_IS_COMPARE_STATS_WINDOW (self), NULL);
  return self->text;
}

/** cs_compare_stats_window_is_busy: Returns: whether a computation runs or waits */
gboolean
cs_compare_stats_window_is_busy (CsCompareStatsWindow *self)
{
  g_return_val_if_fail (CS_IS_COMPARE_STATS_WINDOW (self), FALSE);
  return self->running || self->again || self->follow_id != 0;
}
