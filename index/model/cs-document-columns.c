/* cs-document-columns.c: cs_document_get_cpu_columns(), a CPU plot's
 * pixel columns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Zoomed out, from the summaries' buckets; zoomed in, from the slices and
 * events of the span (cs-document-queries.c reads them).
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>

#include "cs-document-private.h"

typedef struct {
  gint64 begin_ns;
  double ns_per_col;
  guint n_columns;
  CsColumn *columns;
  CsDominant *dominant;
} Columns;

/* a - b in ns as a double, without the signed overflow of a - b when a
 * damaged recording spans more than 2^63 ns. */
static inline double
diff_ns (gint64 a,
         gint64 b)
{
  return a >= b ? (double) ((guint64) a - (guint64) b) : -(double) ((guint64) b - (guint64) a);
}

/* @base_ns + @offset (>= 0 ns), saturated at G_MAXINT64. */
static gint64
offset_ns (gint64 base_ns,
           double offset)
{
  gint64 sum;

  if (offset < 4611686018427387904.0)   /* 2^62: exact in integers */
    return __builtin_add_overflow (base_ns, (gint64) offset, &sum) ? G_MAXINT64 : sum;
  offset += (double) base_ns;
  return offset >= 9223372036854775807.0 ? G_MAXINT64 : (gint64) offset;
}

static inline gint64
column_of (const Columns *c,
           gint64         ts_ns)
{
  double col = floor (diff_ns (ts_ns, c->begin_ns) / c->ns_per_col);
  return (gint64) CLAMP (col, 0, c->n_columns - 1);
}

/* Spreads [begin, end) of a task's run over the columns it covers. */
static void
add_busy (Columns *c,
          gint32   pid,
          gint64   begin_ns,
          gint64   end_ns)
{
  gint64 view_end = offset_ns (c->begin_ns, ceil (c->ns_per_col * c->n_columns));

  begin_ns = MAX (begin_ns, c->begin_ns);
  end_ns = MIN (end_ns, view_end);
  for (gint64 col = column_of (c, begin_ns); begin_ns < end_ns && col < c->n_columns; col++)
    {
      gint64 col_end = offset_ns (c->begin_ns, ceil (c->ns_per_col * (col + 1)));
      gint64 part = _cs_span_ns (begin_ns, MIN (end_ns, col_end));

      if (part <= 0)
        continue;
      c->columns[col].busy_ns += part;
      _cs_dominant_add (&c->dominant[col], pid, part);
      begin_ns += part;
    }
}

static gboolean
column_slice (const CsSlice *slice,
              gpointer       user_data)
{
  add_busy (user_data, slice->pid, slice->begin_ns, slice->end_ns);
  return TRUE;
}

static gboolean
column_event (const CsEvent *ev,
              gpointer       user_data)
{
  Columns *c = user_data;
  gint64 col = column_of (c, ev->ts_ns);

  c->columns[col].n_events++;
  /* Events only decide the dominant task where nothing ran: a weight of
   * one event is far below one ns of a running task... */
  if (c->columns[col].busy_ns == 0)
    _cs_dominant_add (&c->dominant[col], ev->pid, 1);
  return TRUE;
}

static gboolean
columns_from_summaries (CsDocument  *self,
                        guint        cpu,
                        Columns     *c,
                        GError     **error)
{
  guint level = 0;
  gint64 end_ns = offset_ns (c->begin_ns, ceil (c->ns_per_col * c->n_columns));
  guint shift;
  gint64 width, first_idx, last_idx;
  g_autofree gint64 *mem = g_new (gint64, (gsize) SU_N_COLUMNS * CS_SUMMARY_BLOCK_BUCKETS);
  gint64 *cols[SU_N_COLUMNS] = { mem, mem + CS_SUMMARY_BLOCK_BUCKETS, mem + 2 * CS_SUMMARY_BLOCK_BUCKETS };
  sqlite3_stmt *s = self->summary;
  int rc;

  /* The coarsest level whose buckets are at most a column wide. */
  while (level + 1 < self->summary_levels &&
         (double) (G_GINT64_CONSTANT (1) << (self->summary_shift + CS_SUMMARY_LEVEL_BITS * (level + 1)))
           <= c->ns_per_col)
    level++;
  shift = self->summary_shift + CS_SUMMARY_LEVEL_BITS * level;
  width = G_GINT64_CONSTANT (1) << shift;
  first_idx = c->begin_ns <= self->summary_origin_ns
    ? 0 : _cs_span_ns (self->summary_origin_ns, c->begin_ns) >> shift;
  last_idx = end_ns <= self->summary_origin_ns
    ? -1 : _cs_span_ns (self->summary_origin_ns, end_ns - 1) >> shift;
  if (last_idx < first_idx)
    return TRUE;

  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int (s, 2, level);
  sqlite3_bind_int64 (s, 3, first_idx / CS_SUMMARY_BLOCK_BUCKETS);
  sqlite3_bind_int64 (s, 4, last_idx / CS_SUMMARY_BLOCK_BUCKETS);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 block = sqlite3_column_int64 (s, 0);

      if (!cs_chunk_decode (sqlite3_column_blob (s, 1), sqlite3_column_bytes (s, 1),
                            CS_SUMMARY_BLOCK_BUCKETS, SU_N_COLUMNS, _cs_summary_modes,
                            cols, error))
        {
          sqlite3_reset (s);
          return FALSE;
        }
      for (guint i = 0; i < CS_SUMMARY_BLOCK_BUCKETS; i++)
        {
          gint64 idx = block * CS_SUMMARY_BLOCK_BUCKETS + i;
          gint64 t0 = self->summary_origin_ns + idx * width;
          gint32 pid = (gint32) cols[SU_DOMINANT][i] - 1;

          if (idx < first_idx || idx > last_idx || (cols[SU_EVENTS][i] == 0 && cols[SU_BUSY][i] == 0))
            continue;
          /* Events go to the column of the bucket's middle. */
          c->columns[column_of (c, t0 + width / 2)].n_events += cols[SU_EVENTS][i];
          if (cols[SU_BUSY][i] > 0)
            {
              /* The busy time is spread evenly over the bucket: exact at
               * this zoom, as a bucket is at most one column wide. */
              gint64 busy = cols[SU_BUSY][i];
              /* Nothing runs outside the recording: a bucket straddling its
               * end holds its busy time in the part inside. */
              gint64 ext0 = MAX (t0, self->first_ns), ext1 = MIN (t0 + width, self->last_ns + 1);
              gint64 a = MAX (ext0, c->begin_ns), b = MIN (ext1, end_ns);
              if (b > a)
                add_busy (c, pid, a, a + (gint64) ((double) busy * (b - a) / (ext1 - ext0) + 0.5));
            }
          else if (pid >= 0)
            _cs_dominant_add (&c->dominant[column_of (c, t0 + width / 2)], pid,
                              cols[SU_EVENTS][i]);
        }
    }
  sqlite3_reset (s);
  if (!_cs_sqlite_check (self->db, rc, _("reading summaries"), error))
    return FALSE;

  /* Long runs of one task are kept out of the buckets (see
   * cs-summary-builder.c): they add their exact span.  A CPU's runs do
   * not overlap, so those ending after the view's start come in time
   * order and the first one starting after its end is the last read. */
  s = self->summary_runs;
  sqlite3_bind_int (s, 1, cpu);
  sqlite3_bind_int64 (s, 2, c->begin_ns);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 run_begin = sqlite3_column_int64 (s, 0);

      if (run_begin >= end_ns)
        break;
      add_busy (c, sqlite3_column_int (s, 2), run_begin, sqlite3_column_int64 (s, 1));
    }
  sqlite3_reset (s);
  return _cs_sqlite_check (self->db, rc, _("reading summary runs"), error);
}

/**
 * cs_document_get_cpu_columns:
 * @self: a document
 * @cpu: a CPU
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive), > @begin_ns
 * @n_columns: pixel columns, >= 1
 * @columns: (array length=n_columns) (out caller-allocates): one entry per
 *   column; column i covers [begin + i * w, begin + (i + 1) * w) with
 *   w = (end - begin) / n_columns
 * @error: %CS_INDEX_ERROR_SQLITE or %CS_INDEX_ERROR_CORRUPT
 *
 * What a CPU plot shows per pixel column: events, busy time and the
 * dominant task.  When a column is at least as wide as the finest summary
 * bucket (cs_document_get_summary_resolution_ns()) this reads about one
 * summary bucket per column (up to four); below, it reads the slices and
 * events of the span.  Either way the cost follows @n_columns, not the
 * number of events in the span.
 *
 * Returns: %TRUE on success
 */
gboolean
cs_document_get_cpu_columns (CsDocument  *self,
                             guint        cpu,
                             gint64       begin_ns,
                             gint64       end_ns,
                             guint        n_columns,
                             CsColumn    *columns,
                             GError     **error)
{
  g_autofree CsDominant *dominant = NULL;
  Columns c;
  gboolean ok;

  g_return_val_if_fail (CS_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (n_columns > 0 && end_ns > begin_ns, FALSE);

  memset (columns, 0, sizeof (CsColumn) * n_columns);
  for (guint i = 0; i < n_columns; i++)
    columns[i].dominant_pid = -1;
  if (cpu >= self->n_cpus || self->cpus[cpu].n_events == 0)
    return TRUE;

  dominant = g_new0 (CsDominant, n_columns);
  c.begin_ns = begin_ns;
  c.ns_per_col = (double) ((guint64) end_ns - (guint64) begin_ns) / n_columns;
  c.n_columns = n_columns;
  c.columns = columns;
  c.dominant = dominant;

  if (c.ns_per_col >= (double) cs_document_get_summary_resolution_ns (self))
    ok = columns_from_summaries (self, cpu, &c, error);
  else
    ok = _cs_document_scan_slices (self, cpu, begin_ns, end_ns, column_slice, &c, error) &&
         _cs_document_scan_events (self, cpu, begin_ns, end_ns, NULL, 0, column_event, &c, error);
  if (!ok)
    return FALSE;

  for (guint i = 0; i < n_columns; i++)
    columns[i].dominant_pid = _cs_dominant_get (&dominant[i]);
  return TRUE;
}

