/* cs-stats-window.c: statistics of the span the user looks at.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A window beside the main one (not modal) that shows, as `chronoscope
 * stats` prints them, the statistics of markers A..B when both are placed,
 * else of the timeline's visible span: per task CPU time and share, per
 * CPU busy time, events per type, wakeup latencies.  It follows the
 * markers and the span (after a short pause, so that a drag does not start
 * a computation per frame).
 *
 * cs_document_compute_range_stats() runs in a worker thread (GTask) on the
 * window's own CsDocument, opened from the same index in that thread: a
 * document is used from one thread at a time, and the timeline's stays on
 * the main thread.  One computation runs at a time; a change meanwhile
 * starts the next one when it ends, and a closed window cancels it.  While
 * one runs (a whole large recording takes seconds) a spinner and a Stop
 * button show; Stop cancels it and the window says so until the next
 * change of span.
 *
 * With several recordings on the window's axis (File → Add Recording…),
 * the span is converted into each recording's own clock through the
 * window's CsStreamSet (cs_stream_span_from_axis(), on the main thread)
 * and each gets the same figures under a heading with its name; the
 * worker opens each recording's document from its index, once.
 *
 * The layout is the template cs-stats-window.ui.
 *
 * CS_STATS_TEST_HANG (tests only): the computation waits until it is
 * cancelled, so that a test can see the spinner and press Stop.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-range-stats-text.h"
#include "cs-stats-window.h"
#include "cs-test-hook.h"

#define FOLLOW_DELAY_MS 150
#define TOP_TASKS 25

struct _CsStatsWindow
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkLabel *span_label;
  GtkTextView *text_view;
  GtkSpinner *spinner;
  GtkButton *stop_button;

  /* borrowed */
  CsAnalysis *analysis;
  CsTimeline *timeline;

  /* owned */
  GHashTable *worker_docs;      /* index path → CsDocument, used in the worker thread only */
  GCancellable *cancellable;    /* cancelled when the window closes */
  GCancellable *run_cancellable; /* the running computation's: Stop */
  char *text;
  gint64 begin_ns, end_ns;      /* the span shown (or being computed) */
  guint follow_id;
  gboolean running;
  gboolean again;
};

G_DEFINE_FINAL_TYPE (CsStatsWindow, cs_stats_window, GTK_TYPE_WINDOW)

/* One recording to describe, and its span in its own clock. */
typedef struct {
  char *name;                   /* NULL for the window's recording alone */
  char *trace_path;
  char *index_path;
  char *identity;
  gint64 begin_ns, end_ns;
} Source;

typedef struct {
  GPtrArray *sources;           /* Source */
  gboolean hang;                /* CS_STATS_TEST_HANG */
} Request;

static void
source_free (Source *src)
{
  g_free (src->name);
  g_free (src->trace_path);
  g_free (src->index_path);
  g_free (src->identity);
  g_free (src);
}

static void
request_free (Request *r)
{
  g_ptr_array_unref (r->sources);
  g_free (r);
}

static Source *
source_new (CsDocument *doc, const char *name, gint64 begin_ns, gint64 end_ns)
{
  Source *src = g_new0 (Source, 1);

  src->name = g_strdup (name);
  src->trace_path = g_strdup (cs_document_get_trace_path (doc));
  src->index_path = g_strdup (cs_document_get_index_path (doc));
  src->identity = g_strdup (cs_document_get_identity (doc));
  src->begin_ns = begin_ns;
  src->end_ns = end_ns;
  return src;
}

static void compute (CsStatsWindow *self);

/* The span the window describes now: A..B, else what the timeline shows. */
static void
current_span (CsStatsWindow *self,
              gint64        *begin_ns,
              gint64        *end_ns,
              gboolean      *markers)
{
  gint64 a = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_A);
  gint64 b = cs_timeline_get_marker_ns (self->timeline, CS_MARKER_B);

  *markers = a != CS_MARKER_UNSET && b != CS_MARKER_UNSET && a != b;
  if (*markers)
    {
      *begin_ns = MIN (a, b);
      *end_ns = MAX (a, b);
    }
  else
    {
      *begin_ns = cs_timeline_get_begin_ns (self->timeline);
      *end_ns = cs_timeline_get_end_ns (self->timeline);
    }
}

/* Worker thread: one recording's statistics as text, under its heading
 * when there are several. */
static gboolean
append_source (CsStatsWindow *self, const Source *src, GString *out, GCancellable *cancellable,
               GError **error)
{
  /* self->worker_docs is only touched here, and one task runs at a time. */
  CsDocument *doc = g_hash_table_lookup (self->worker_docs, src->index_path);
  g_autoptr(CsRangeStats) stats = NULL;
  g_autofree char *text = NULL;

  if (doc == NULL)
    {
      doc = cs_document_open_as (src->trace_path, src->index_path, src->identity, error);
      if (doc == NULL)
        return FALSE;
      g_hash_table_insert (self->worker_docs, g_strdup (src->index_path), doc);
    }
  stats = cs_document_compute_range_stats (doc, src->begin_ns, src->end_ns, cancellable, error);
  if (stats == NULL)
    return FALSE;
  text = cs_range_stats_to_text (doc, stats, TOP_TASKS);
  if (src->name != NULL)
    {
      /* TRANSLATORS: the heading of one recording's statistics when the
       * window shows several; %s is its name, then its file */
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, _("── Recording %s (%s) ──\n"), src->name, src->trace_path);
    }
  g_string_append (out, text);
  return TRUE;
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  CsStatsWindow *self = source;
  Request *r = task_data;
  g_autoptr(GString) out = g_string_new (NULL);
  GError *error = NULL;

  if (r->hang)
    cs_test_hook_hold_until_cancelled (cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  for (guint i = 0; i < r->sources->len; i++)
    if (!append_source (self, r->sources->pdata[i], out, cancellable, &error))
      {
        g_task_return_error (task, error);
        return;
      }
  g_task_return_pointer (task, g_string_free (g_steal_pointer (&out), FALSE), g_free);
}

/* The recordings the parent window shows on its axis, when several: the
 * timeline draws them (cs_timeline_set_streams()). */
static CsStreamSet *
several_streams (CsStatsWindow *self)
{
  CsStreamsRenderer *streams = cs_timeline_get_streams (self->timeline);
  CsStreamSet *set = streams != NULL ? cs_streams_renderer_get_stream_set (streams) : NULL;

  return set != NULL && cs_stream_set_get_n_streams (set) > 1 ? set : NULL;
}

static void
compute_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  CsStatsWindow *self = CS_STATS_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), &error);

  self->running = FALSE;
  g_clear_object (&self->run_cancellable);
  if (g_cancellable_is_cancelled (self->cancellable))
    return;     /* the window is closing */
  g_free (self->text);
  if (text != NULL)
    self->text = g_steal_pointer (&text);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    self->text = g_strdup (_("Stopped. Change the span or the markers to compute again."));
  else
    self->text = g_strdup_printf (_("The statistics could not be computed: %s"), error->message);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), self->text, -1);
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), FALSE);
  if (self->again)
    compute (self);
}

static void
compute (CsStatsWindow *self)
{
  CsDocument *doc = cs_analysis_get_document (self->analysis);
  g_autoptr(GTask) task = NULL;
  g_autofree char *span = NULL;
  g_autofree char *label = NULL;
  Request *r;
  CsStreamSet *set;
  gboolean markers;

  if (self->running)
    {
      self->again = TRUE;
      return;
    }
  self->again = FALSE;
  if (doc == NULL)
    return;

  current_span (self, &self->begin_ns, &self->end_ns, &markers);
  span = cs_format_duration (self->end_ns - self->begin_ns);
  label = markers ? g_strdup_printf (_("Between markers A and B (%s)"), span)
                  : g_strdup_printf (_("The visible span (%s); place markers A and B for another"), span);
  gtk_label_set_text (self->span_label, label);

  r = g_new0 (Request, 1);
  r->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) source_free);
  if ((set = several_streams (self)) == NULL)
    g_ptr_array_add (r->sources, source_new (doc, NULL, self->begin_ns, self->end_ns));
  for (guint i = 0; set != NULL && i < cs_stream_set_get_n_streams (set); i++)
    {
      CsStream *stream = cs_stream_set_get_stream (set, i);
      gint64 begin_ns, end_ns;

      /* The span in the recording's own clock, on the main thread that
       * owns the streams. */
      cs_stream_span_from_axis (stream, self->begin_ns, self->end_ns, &begin_ns, &end_ns);
      g_ptr_array_add (r->sources, source_new (cs_stream_get_document (stream),
                                                cs_stream_get_name (stream), begin_ns, end_ns));
    }
  r->hang = cs_test_hook_is_set ("CS_STATS_TEST_HANG");
  self->run_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->run_cancellable, compute_done, NULL);
  g_task_set_task_data (task, r, (GDestroyNotify) request_free);
  self->running = TRUE;
  gtk_spinner_start (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), TRUE);
  g_task_run_in_thread (task, compute_thread);
}

static gboolean
follow_timeout (gpointer user_data)
{
  CsStatsWindow *self = user_data;

  self->follow_id = 0;
  compute (self);
  return G_SOURCE_REMOVE;
}

static void
span_changed_cb (CsStatsWindow *self)
{
  g_clear_handle_id (&self->follow_id, g_source_remove);
  self->follow_id = g_timeout_add (FOLLOW_DELAY_MS, follow_timeout, self);
}

static void
stop_clicked_cb (CsStatsWindow *self)
{
  cs_stats_window_stop (self);
}

static void
cs_stats_window_dispose (GObject *object)
{
  CsStatsWindow *self = CS_STATS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->run_cancellable);
  g_clear_handle_id (&self->follow_id, g_source_remove);
  G_OBJECT_CLASS (cs_stats_window_parent_class)->dispose (object);
}

static void
cs_stats_window_finalize (GObject *object)
{
  CsStatsWindow *self = CS_STATS_WINDOW (object);

  /* The GTask holds a reference on the window: no computation is running. */
  g_clear_pointer (&self->worker_docs, g_hash_table_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_cancellable);
  g_free (self->text);
  G_OBJECT_CLASS (cs_stats_window_parent_class)->finalize (object);
}

static void
cs_stats_window_class_init (CsStatsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_stats_window_dispose;
  object_class->finalize = cs_stats_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-stats-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CsStatsWindow, span_label);
  gtk_widget_class_bind_template_child (widget_class, CsStatsWindow, text_view);
  gtk_widget_class_bind_template_child (widget_class, CsStatsWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CsStatsWindow, stop_button);
  gtk_widget_class_bind_template_callback (widget_class, stop_clicked_cb);
}

static void
cs_stats_window_init (CsStatsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->worker_docs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * cs_stats_window_new:
 * @parent: the main window
 * @analysis: what @parent looks at; the window follows its timeline's span
 *   and markers
 *
 * Returns: (transfer none): a new window, owned by GTK's window list
 */
CsStatsWindow *
cs_stats_window_new (GtkWindow  *parent,
                     CsAnalysis *analysis)
{
  CsStatsWindow *self = g_object_new (CS_TYPE_STATS_WINDOW, "transient-for", parent, NULL);

  self->analysis = analysis;
  self->timeline = cs_analysis_get_timeline (analysis);
  for (guint i = 0; i < 4; i++)
    {
      const char *signals[] = { "notify::begin-ns", "notify::end-ns", "notify::marker-a-ns",
                                "notify::marker-b-ns" };
      g_signal_connect_object (self->timeline, signals[i], G_CALLBACK (span_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
  compute (self);
  return self;
}

/**
 * cs_stats_window_get_text:
 * @self: a statistics window
 *
 * Returns: (transfer none) (nullable): the statistics shown, NULL before
 *   the first computation ends
 */
const char *
cs_stats_window_get_text (CsStatsWindow *self)
{
  return self->text;
}

/**
 * cs_stats_window_stop:
 * @self: a statistics window
 *
 * Cancels the computation that runs (the Stop button), and one that waits
 * to start after it; the window then says it stopped.  Main thread.
 */
void
cs_stats_window_stop (CsStatsWindow *self)
{
  g_return_if_fail (CS_IS_STATS_WINDOW (self));

  self->again = FALSE;
  g_clear_handle_id (&self->follow_id, g_source_remove);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
}

/**
 * cs_stats_window_get_stop_button:
 * @self: a statistics window
 *
 * Returns: (transfer none): the Stop button, visible while a computation
 *   runs (for tests)
 */
GtkWidget *
cs_stats_window_get_stop_button (CsStatsWindow *self)
{
  g_return_val_if_fail (CS_IS_STATS_WINDOW (self), NULL);
  return GTK_WIDGET (self->stop_button);
}

/** cs_stats_window_is_busy: Returns: whether a computation runs or waits */
gboolean
cs_stats_window_is_busy (CsStatsWindow *self)
{
  return self->running || self->again || self->follow_id != 0;
}

/**
 * cs_stats_window_get_span:
 * @self: a statistics window
 * @begin_ns: (out): start of the span shown (inclusive)
 * @end_ns: (out): its end (exclusive)
 */
void
cs_stats_window_get_span (CsStatsWindow *self,
                          gint64        *begin_ns,
                          gint64        *end_ns)
{
  *begin_ns = self->begin_ns;
  *end_ns = self->end_ns;
}
