/* cs-range-wakeups.c: the wakeup latency summary of a span
 * (cs-range-wakeups-private.h), from the task rows of the index by the
 * rule of cs-plugin-wakeup.h (cs_document_foreach_wakeup()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cs-document-private.h"
#include "cs-range-wakeups-private.h"
#include "cs-task-timeline-private.h"

/* The index of the nearest-rank percentile @p of @n values. */
static gsize
percentile_index (gsize  n,
                  double p)
{
  gsize rank = (gsize) ceil (p / 100.0 * n);

  return MAX (rank, 1) - 1;
}

/* Reorders @v[0..@n) so that @v[@k] is the value a sort would put there,
 * none after it smaller and none before it larger (Hoare's selection):
 * the percentiles of millions of latencies without sorting them, which
 * had been a fifth of the whole recording's statistics. */
static void
select_kth (gint64 *v,
            gsize   n,
            gsize   k)
{
  gsize lo = 0, hi = n - 1;

  while (lo < hi)
    {
      gint64 a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
      /* The median of three, against sorted and equal runs. */
      gint64 pivot = a < b ? (b < c ? b : MAX (a, c)) : (a < c ? a : MAX (b, c));
      gsize i = lo, j = hi;

      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 t = v[i];

              v[i] = v[j];
              v[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      /* [lo, j] <= pivot <= [i, hi], and i > j. */
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return;
    }
}

static void
collect_latency (gint64   wakeup_ns,
                 gint64   run_ns,
                 gint32   cpu,
                 gpointer user_data)
{
  gint64 latency = run_ns - wakeup_ns;

  g_array_append_val ((GArray *) user_data, latency);
}

/* About how many of a task's events a walk of its rows takes at once. */
#define WAKEUP_WINDOW_EVENTS 65536

/* A share of the tasks to walk, and the latencies found. */
typedef struct {
  GArray *tasks;                /* TaskWeight */
  guint64 weight;               /* their events in the span (a guess) */
  GArray *latencies;            /* gint64 */
  GError *error;
} Share;

typedef struct {
  gint32 pid;
  guint64 n_events;             /* in the span: a guess (compute_wakeups()) */
} TaskWeight;

/* What a second thread walks, in a document of its own. */
typedef struct {
  Share *share;
  const CsRangeStats *stats;
  /* The caller's document's: it lives, unchanged, until the thread is
   * joined. */
  const char *trace_path, *index_path, *identity;
  GCancellable *cancellable;
  gboolean opened;              /* FALSE: the caller walks the share itself */
} Helper;

/* Work worth the second thread: opening the recording again (under 20 ms
 * on the large benchmark recording) costs about what walking 3 M of its
 * events' task rows does (70 M in 0.5 s). */
guint64 _cs_range_wakeups_share_min_events = 1u << 22;
guint _cs_range_wakeups_n_helped;

/* Walks @share's tasks in @doc, over the span of @stats. */
static gboolean
walk_share (CsDocument         *doc,
            const CsRangeStats *stats,
            Share              *share,
            GCancellable       *cancellable)
{
  guint64 span_ns = (guint64) stats->end_ns - (guint64) stats->begin_ns;

  for (guint i = 0; i < share->tasks->len; i++)
    {
      const TaskWeight *task = &g_array_index (share->tasks, TaskWeight, i);
      guint64 n_windows, step;

      /* A walk holds its span's rows of the task, sorted: a busy task's
       * span is walked a window at a time (each wait counts in its
       * wakeup's window).  On the large benchmark recording (82 M events)
       * the whole recording's summary took 1.0 s and 114 MB of RSS this
       * way, against 2.0 s and 391 MB in one walk per task (windows of
       * 16 Ki events: 2.0 s, of 1 Mi: 1.6 s).  A short span is one
       * window (windows of the whole task's count had made the
       * statistics of a 1 ms span ten times slower). */
      n_windows = MAX (task->n_events / WAKEUP_WINDOW_EVENTS, 1);
      step = span_ns / n_windows + 1;
      for (gint64 b = stats->begin_ns, e; b < stats->end_ns; b = e)
        {
          e = (guint64) stats->end_ns - (guint64) b > step ? (gint64) ((guint64) b + step) : stats->end_ns;
          if (g_cancellable_set_error_if_cancelled (cancellable, &share->error) ||
              !cs_document_foreach_wakeup (doc, task->pid, b, e, collect_latency, share->latencies,
                                           &share->error))
            return FALSE;
        }
    }
  return TRUE;
}

static gpointer
helper_thread (gpointer data)
{
  Helper *h = data;
  g_autoptr(CsDocument) doc = NULL;
  g_autoptr(GError) error = NULL;

  /* A document is used by one thread: this one reads the same index
   * through its own (as the event list's search does). */
  doc = cs_document_open_as (h->trace_path, h->index_path, h->identity, &error);
  if (doc == NULL)
    {
      g_debug ("Summarising the wakeups on one thread: %s", error->message);
      return NULL;
    }
  h->opened = TRUE;
  walk_share (doc, h->stats, h->share, h->cancellable);
  g_atomic_int_inc (&_cs_range_wakeups_n_helped);
  return NULL;
}

static void
share_clear (Share *share)
{
  g_clear_pointer (&share->tasks, g_array_unref);
  g_clear_pointer (&share->latencies, g_array_unref);
  g_clear_error (&share->error);
}

/* The summary of @n latencies (reordered). */
static void
summarise (gint64           *v,
           gsize             n,
           CsLatencySummary *w)
{
  gsize k99 = percentile_index (n, 99), k90 = percentile_index (n, 90);
  gsize k50 = percentile_index (n, 50);

  memset (w, 0, sizeof *w);
  w->count = n;
  if (n == 0)
    return;
  /* Each selection leaves the smaller values before it: the next one
   * looks only there. */
  select_kth (v, n, k99);
  select_kth (v, k99 + 1, k90);
  select_kth (v, k90 + 1, k50);
  w->p99_ns = v[k99];
  w->p90_ns = v[k90];
  w->p50_ns = v[k50];
  w->min_ns = w->max_ns = v[0];
  for (gsize i = 0; i < n; i++)
    {
      w->min_ns = MIN (w->min_ns, v[i]);
      w->max_ns = MAX (w->max_ns, v[i]);
    }
}

/* The wakeup summary of the span, asking the tasks in @candidates (every
 * task when NULL).  Each task's waits are its own (the rule follows one
 * task's rows), so the tasks are shared between this thread and a second
 * one, by their events; the latencies are summarised together.  The whole
 * large benchmark recording's took 0.56 s on one thread. */
static gboolean
compute_wakeups (CsDocument    *doc,
                 CsRangeStats  *stats,
                 GHashTable    *candidates,
                 GCancellable  *cancellable,
                 GError       **error)
{
  Share shares[2] = { { 0 }, { 0 } };
  Helper helper = { 0 };
  GThread *thread = NULL;
  guint64 recording_ns = (guint64) cs_document_get_last_ns (doc) + 1 -
                         (guint64) cs_document_get_first_ns (doc);
  double span_share = (double) ((guint64) stats->end_ns - (guint64) stats->begin_ns) /
                      (double) MAX (recording_ns, 1);
  gboolean ok;

  for (guint s = 0; s < 2; s++)
    {
      shares[s].tasks = g_array_new (FALSE, FALSE, sizeof (TaskWeight));
      shares[s].latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
    }
  /* Each task to the lighter share, in the index's order, weighed by its
   * events in the span, guessed as spread evenly over the recording: the
   * walk's windows follow the guess too, and a short span's tasks are
   * light, whatever their events over the recording (weighed by those, a
   * 1 ms span of busy tasks started the second thread and took 10-11 ms
   * instead of 7, opening the recording again). */
  for (guint i = 0; i < cs_document_get_n_tasks (doc); i++)
    {
      const CsTask *task = cs_document_get_task (doc, i);
      TaskWeight t = { task->pid, (guint64) ((double) task->n_events * span_share) };
      Share *to = shares[1].weight < shares[0].weight ? &shares[1] : &shares[0];

      if (task->pid <= 0 ||
          (candidates != NULL && !g_hash_table_contains (candidates, GINT_TO_POINTER (task->pid))))
        continue;
      g_array_append_val (to->tasks, t);
      to->weight += t.n_events;
    }
  if (shares[1].tasks->len > 0 && shares[1].weight >= _cs_range_wakeups_share_min_events)
    {
      helper = (Helper) { &shares[1], stats, cs_document_get_trace_path (doc),
                          cs_document_get_index_path (doc), cs_document_get_identity (doc),
                          cancellable, FALSE };
      thread = g_thread_new ("cs-wakeups", helper_thread, &helper);
    }
  ok = walk_share (doc, stats, &shares[0], cancellable);
  if (thread != NULL)
    g_thread_join (thread);
  /* Without a second thread, or when it could not open the recording. */
  if (ok && !helper.opened)
    ok = walk_share (doc, stats, &shares[1], cancellable);
  else if (ok && shares[1].error != NULL)
    ok = FALSE;
  if (!ok)
    {
      GError **cause = shares[0].error != NULL ? &shares[0].error : &shares[1].error;

      g_propagate_error (error, g_steal_pointer (cause));
    }
  else
    {
      g_array_append_vals (shares[0].latencies, shares[1].latencies->data, shares[1].latencies->len);
      summarise ((gint64 *) (gpointer) shares[0].latencies->data, shares[0].latencies->len,
                 &stats->wakeups);
    }
  share_clear (&shares[0]);
  share_clear (&shares[1]);
  return ok;
}

/* The wakeup summary of the whole recording reads every task's rows
 * (seconds on a large recording), so it is kept beside the index once
 * computed, in INDEX.wakeups, checked against the recording's identity and
 * the index's schema version like the index itself.  Failing to write it
 * (a read-only cache) only costs computing it again. */
/* 2: the rule of cs-plugin-wakeup.h (a wakeup inside a run opens no wait,
 * a switch-in at the very time of its wakeup counts). */
#define WAKEUP_CACHE_VERSION 2

static char *
wakeup_cache_path (CsDocument *doc)
{
  return g_strconcat (cs_document_get_index_path (doc), ".wakeups", NULL);
}

static gboolean
load_wakeup_cache (CsDocument       *doc,
                   CsLatencySummary *w)
{
  g_autofree char *path = wakeup_cache_path (doc);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *identity = NULL;
  const char *keys[] = { "min", "p50", "p90", "p99", "max" };
  gint64 *values[] = { &w->min_ns, &w->p50_ns, &w->p90_ns, &w->p99_ns, &w->max_ns };
  GError *error = NULL;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    return FALSE;
  identity = g_key_file_get_string (kf, "wakeups", "identity", NULL);
  if (g_strcmp0 (identity, cs_document_get_identity (doc)) != 0 ||
      g_key_file_get_integer (kf, "wakeups", "schema", NULL) != CS_INDEX_SCHEMA_VERSION ||
      g_key_file_get_integer (kf, "wakeups", "version", NULL) != WAKEUP_CACHE_VERSION)
    return FALSE;
  w->count = g_key_file_get_uint64 (kf, "wakeups", "count", &error);
  for (guint i = 0; i < G_N_ELEMENTS (keys) && error == NULL; i++)
    *values[i] = g_key_file_get_int64 (kf, "wakeups", keys[i], &error);
  if (error != NULL)
    {
      g_debug ("Ignoring %s: %s", path, error->message);
      g_error_free (error);
      memset (w, 0, sizeof *w);
      return FALSE;
    }
  return TRUE;
}

static void
save_wakeup_cache (CsDocument             *doc,
                   const CsLatencySummary *w)
{
  g_autofree char *path = wakeup_cache_path (doc);
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;

  g_key_file_set_string (kf, "wakeups", "identity", cs_document_get_identity (doc));
  g_key_file_set_integer (kf, "wakeups", "schema", CS_INDEX_SCHEMA_VERSION);
  g_key_file_set_integer (kf, "wakeups", "version", WAKEUP_CACHE_VERSION);
  g_key_file_set_uint64 (kf, "wakeups", "count", w->count);
  g_key_file_set_int64 (kf, "wakeups", "min", w->min_ns);
  g_key_file_set_int64 (kf, "wakeups", "p50", w->p50_ns);
  g_key_file_set_int64 (kf, "wakeups", "p90", w->p90_ns);
  g_key_file_set_int64 (kf, "wakeups", "p99", w->p99_ns);
  g_key_file_set_int64 (kf, "wakeups", "max", w->max_ns);
  data = g_key_file_to_data (kf, NULL, NULL);
  if (!g_file_set_contents (path, data, -1, &error))
    g_debug ("Not keeping the wakeup summary: %s", error->message);
}

gboolean
_cs_range_stats_add_wakeups (CsDocument    *doc,
                             CsRangeStats  *stats,
                             GHashTable    *candidates,
                             GCancellable  *cancellable,
                             GError       **error)
{
  if (stats->whole && load_wakeup_cache (doc, &stats->wakeups))
    return TRUE;
  if (!compute_wakeups (doc, stats, candidates, cancellable, error))
    return FALSE;
  if (stats->whole)
    save_wakeup_cache (doc, &stats->wakeups);
  return TRUE;
}
