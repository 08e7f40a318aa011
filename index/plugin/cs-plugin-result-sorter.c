/* cs-plugin-result-sorter.c: sorts fixed-size records in bounded memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * An external sort for the sorted orders of result tables
 * (cs-plugin-result-table.c; the latency pass's worst first, and by task
 * then worst first).  The order is always ascending by the
 * records' first number, then their second and so on: a caller wanting
 * a number descending stores it negated.  Records are gathered in a
 * buffer of run_records; a full buffer is sorted and written to an
 * unnamed temporary file as one run; at the end the runs (and the last
 * buffer, sorted in memory) are merged through a small heap, each run
 * read a block at a time.
 *
 * A run is sorted by radix on its first numbers (n_radix_fields: the
 * durations, whose values span few bits), then each group of records
 * equal in those by a merge sort comparing the numbers in place; over
 * the large benchmark recording's wakeups this took the whole pass from
 * 8.9 to 7.7 s of CPU time against a merge sort of the runs alone
 * (`perf stat`), and sorting here costs a tenth of SQLite's CREATE
 * INDEX for the same order.  A full buffer is sorted and
 * written by a thread of its own while records go on into a second
 * buffer (the caller waits only when a run comes full before the
 * previous one is written): sorting a run takes long enough to stall
 * the pass that feeds the sorter.
 *
 * A run goes to the file in blocks of BLOCK_RECORDS records, each number
 * the zigzag varint of its difference to the same number of the record
 * before it in the block (cs_chunk_encode_records()): sorted records differ
 * little from the one before (the first numbers are sorted, the next
 * ones often among equal first ones), so the large benchmark
 * recording's wakeups write 76 MB instead of 264 MB of plain gint64s
 * (both sorters), and writing the file, mostly the kernel's copy into
 * the page cache, had been a tenth of the pass's CPU time.
 *
 * Memory is two buffers and a spare as large (the sort's), plus one
 * block per run, whatever the number of records: a run of 2^20 records
 * of 5 numbers is 40 MiB, and 80 M records make 80 runs of 256 KiB
 * blocks.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "cs-plugin-result-sorter.h"
#include "cs-chunk-codec.h"

#define BLOCK_RECORDS 4096

/* A run being merged: a span of the file, read a block at a time; the
 * in-memory run has no file span and a block that is the whole buffer. */
typedef struct {
  guint64 next_record;          /* in the file: the next to read */
  guint64 end_record;           /* past the run's last */
  guint next_block;             /* in block_offsets: the next to read */
  gint64 *block;
  gsize n, pos;                 /* records in @block, the current one */
  gboolean in_memory;
} Run;

#define MAX_FIELDS 8
#define INSERTION_RECORDS 8
#define DIGIT_BITS 11

struct _CsResultSorter
{
  guint n_fields;
  guint n_radix_fields;
  gsize record_bytes;
  gsize run_records;
  gint64 *buffer;
  gsize n_buffered;
  GArray *run_ends;             /* guint64: the record after each run in the file */
  GArray *run_blocks;           /* guint: each run's first block in block_offsets */
  GArray *block_offsets;        /* guint64: where each block starts in the file */
  guint64 file_bytes;           /* written to the file */
  guint8 *bytes;                /* a block encoded: the spill thread's, then the merge's */
  FILE *file;
  guint64 n_records;

  /* The run being spilled by @spill_thread, which owns @spilling,
   * @run_ends and @file until it is joined; its failure. */
  GThread *spill_thread;
  gint64 *spilling;
  gsize n_spilling;
  GError *spill_error;
  gint64 *sort_spare;           /* as large as a buffer: the merge sort's */
};

static gboolean spill_join (CsResultSorter *self, GError **error);

static void
file_failed (GError     **error,
             int          saved_errno,
             const char  *what)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               _("Cannot sort a result table in a temporary file (%s): %s"), what,
               g_strerror (saved_errno));
}

/**
 * _cs_result_sorter_new:
 * @n_fields: numbers per record, 1 to 8; records are sorted ascending
 *   by their first number, then by their second, and so on
 * @n_radix_fields: how many of the first numbers to sort by radix (0 ..
 *   @n_fields): best for numbers whose values span few bits and have
 *   few ties, as durations; the records equal in them are then sorted
 *   by comparisons
 * @run_records: records held in memory before a run goes to a temporary
 *   file (the memory bound: twice @run_records × @n_fields × 8 bytes, one
 *   buffer being filled while the other is sorted and written)
 *
 * Returns: (transfer full): an empty sorter; free it with
 *   _cs_result_sorter_free()
 */
CsResultSorter *
_cs_result_sorter_new (guint n_fields,
                       guint n_radix_fields,
                       gsize run_records)
{
  CsResultSorter *self;

  g_return_val_if_fail (n_fields > 0 && n_fields <= MAX_FIELDS && n_radix_fields <= n_fields &&
                        run_records > 0, NULL);

  self = g_new0 (CsResultSorter, 1);
  self->n_fields = n_fields;
  self->n_radix_fields = n_radix_fields;
  self->record_bytes = n_fields * sizeof (gint64);
  self->run_records = run_records;
  self->run_ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->run_blocks = g_array_new (FALSE, FALSE, sizeof (guint));
  self->block_offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  return self;
}

/**
 * _cs_result_sorter_free:
 * @sorter: (nullable): a sorter
 *
 * Frees it and its temporary file.
 */
void
_cs_result_sorter_free (CsResultSorter *self)
{
  if (self == NULL)
    return;
  spill_join (self, NULL);
  if (self->file != NULL)
    fclose (self->file);
  g_array_unref (self->run_ends);
  g_array_unref (self->run_blocks);
  g_array_unref (self->block_offsets);
  g_free (self->bytes);
  g_free (self->buffer);
  g_free (self->spilling);
  g_free (self->sort_spare);
  g_free (self);
}

/**
 * _cs_result_sorter_get_n_records:
 * @sorter: a sorter
 *
 * Returns: how many records were added
 */
guint64
_cs_result_sorter_get_n_records (CsResultSorter *self)
{
  return self->n_records;
}

static inline int
compare_records (const gint64 *a,
                 const gint64 *b,
                 guint         n_fields)
{
  for (guint f = 0; f < n_fields; f++)
    if (a[f] != b[f])
      return a[f] < b[f] ? -1 : 1;
  return 0;
}

static inline void
copy_record (gint64       *to,
             const gint64 *from,
             guint         n_fields)
{
  for (guint f = 0; f < n_fields; f++)
    to[f] = from[f];
}

/* Sorts the @n records of @records (a stable merge sort, insertion sort
 * on short runs first), with @spare as large; returns which of the two
 * holds the result. */
static gint64 *
sort_records (gint64  *records,
              gint64  *spare,
              gsize    n,
              guint    nf)
{
  gint64 *from = records, *to = spare;

  for (gsize lo = 0; lo < n; lo += INSERTION_RECORDS)
    {
      gsize hi = MIN (lo + INSERTION_RECORDS, n);

      for (gsize i = lo + 1; i < hi; i++)
        {
          gint64 x[MAX_FIELDS];
          gsize j = i;

          copy_record (x, records + i * nf, nf);
          for (; j > lo && compare_records (x, records + (j - 1) * nf, nf) < 0; j--)
            copy_record (records + j * nf, records + (j - 1) * nf, nf);
          copy_record (records + j * nf, x, nf);
        }
    }
  for (gsize width = INSERTION_RECORDS; width < n; width *= 2)
    {
      gint64 *t;

      for (gsize lo = 0; lo < n; lo += 2 * width)
        {
          gsize mid = MIN (lo + width, n), hi = MIN (lo + 2 * width, n);
          gsize i = lo, j = mid, k = lo;

          for (; i < mid && j < hi; k++)
            if (compare_records (from + j * nf, from + i * nf, nf) < 0)
              copy_record (to + k * nf, from + nf * j++, nf);
            else
              copy_record (to + k * nf, from + nf * i++, nf);
          if (i < mid)
            memcpy (to + k * nf, from + i * nf, (mid - i) * nf * sizeof (gint64));
          else if (j < hi)
            memcpy (to + k * nf, from + j * nf, (hi - j) * nf * sizeof (gint64));
        }
      t = from;
      from = to;
      to = t;
    }
  return from;
}

/* Sorts the @n records of @records by their first @k numbers, stably
 * (a least significant digit radix sort, DIGIT_BITS at a time over the
 * bits where each number's values differ from its smallest), with
 * @spare as large; returns which of the two holds the result. */
static gint64 *
radix_sort (gint64  *records,
            gint64  *spare,
            gsize    n,
            guint    nf,
            guint    k)
{
  gint64 *from = records, *to = spare;
  g_autofree gsize *count = g_new (gsize, 1u << DIGIT_BITS);

  for (guint f = k; f-- > 0;)
    {
      gint64 lo = G_MAXINT64, hi = G_MININT64;
      guint bits = 0;

      for (gsize i = 0; i < n; i++)
        {
          lo = MIN (lo, from[i * nf + f]);
          hi = MAX (hi, from[i * nf + f]);
        }
      while (bits < 64 && ((guint64) hi - (guint64) lo) >> bits != 0)
        bits++;
      for (guint shift = 0; shift < bits; shift += DIGIT_BITS)
        {
          gsize at = 0;
          gint64 *t;

          memset (count, 0, sizeof (gsize) << DIGIT_BITS);
          for (gsize i = 0; i < n; i++)
            count[(((guint64) from[i * nf + f] - (guint64) lo) >> shift) &
                  ((1u << DIGIT_BITS) - 1)]++;
          for (guint d = 0; d < 1u << DIGIT_BITS; d++)
            {
              gsize c = count[d];

              count[d] = at;
              at += c;
            }
          for (gsize i = 0; i < n; i++)
            {
              guint d = (((guint64) from[i * nf + f] - (guint64) lo) >> shift) &
                        ((1u << DIGIT_BITS) - 1);

              copy_record (to + count[d]++ * nf, from + i * nf, nf);
            }
          t = from;
          from = to;
          to = t;
        }
    }
  return from;
}

/* Sorts the @n records of *@records, which may end up in *@spare: the
 * two are swapped then.  *@spare is allocated when %NULL.  With radix
 * fields, sorts by those first, then each group of records equal in
 * them by all the numbers. */
static void
sort_buffer (CsResultSorter  *self,
             gint64          **records,
             gint64          **spare,
             gsize             n)
{
  guint nf = self->n_fields, k = self->n_radix_fields;
  gint64 *t;

  if (*spare == NULL)
    *spare = g_malloc (MAX (n, 1) * self->record_bytes);
  if (k == 0)
    {
      if (sort_records (*records, *spare, n, nf) != *spare)
        return;
    }
  else
    {
      gint64 *sorted = radix_sort (*records, *spare, n, nf, k);
      gint64 *other = sorted == *records ? *spare : *records;

      if (k < nf)
        for (gsize lo = 0, hi; lo < n; lo = hi)
          {
            for (hi = lo + 1; hi < n && compare_records (sorted + lo * nf, sorted + hi * nf, k) == 0;
                 hi++)
              ;
            if (hi - lo > 1 &&
                sort_records (sorted + lo * nf, other + lo * nf, hi - lo, nf) != sorted + lo * nf)
              memcpy (sorted + lo * nf, other + lo * nf, (hi - lo) * self->record_bytes);
          }
      if (sorted != *spare)
        return;
    }
  t = *records;
  *records = *spare;
  *spare = t;
}

static gboolean
write_all (FILE          *file,
           const guint8  *bytes,
           gsize          left,
           GError       **error)
{
  while (left > 0)
    {
      ssize_t n = write (fileno (file), bytes, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          file_failed (error, n < 0 ? errno : ENOSPC, "write");
          return FALSE;
        }
      bytes += n;
      left -= (gsize) n;
    }
  return TRUE;
}

/* Sorts @spilling and appends it to the file as a run, block by block;
 * in the spill thread. */
static gpointer
spill_thread (gpointer data)
{
  CsResultSorter *self = data;
  guint first_block = self->block_offsets->len;
  guint64 end;

  if (self->file == NULL)
    {
      self->file = tmpfile ();
      if (self->file == NULL)
        {
          file_failed (&self->spill_error, errno, "tmpfile");
          return NULL;
        }
    }
  sort_buffer (self, &self->spilling, &self->sort_spare, self->n_spilling);
  if (self->bytes == NULL)
    self->bytes = g_malloc (BLOCK_RECORDS * self->n_fields * CS_CHUNK_VARINT_MAX_BYTES);
  for (gsize r = 0; r < self->n_spilling; r += BLOCK_RECORDS)
    {
      gsize len = cs_chunk_encode_records (self->spilling + r * self->n_fields,
                                             MIN (BLOCK_RECORDS, self->n_spilling - r),
                                             self->n_fields, self->bytes);

      if (!write_all (self->file, self->bytes, len, &self->spill_error))
        return NULL;
      g_array_append_val (self->block_offsets, self->file_bytes);
      self->file_bytes += len;
    }
  g_array_append_val (self->run_blocks, first_block);
  end = (self->run_ends->len > 0 ? g_array_index (self->run_ends, guint64, self->run_ends->len - 1)
                                  : 0) + self->n_spilling;
  g_array_append_val (self->run_ends, end);
  return NULL;
}

/* Waits for the run being spilled, if any; FALSE with @error set (or
 * the failure dropped when @error is NULL) when spilling it failed. */
static gboolean
spill_join (CsResultSorter  *self,
            GError          **error)
{
  if (self->spill_thread != NULL)
    g_thread_join (g_steal_pointer (&self->spill_thread));
  self->n_spilling = 0;
  if (self->spill_error == NULL)
    return TRUE;
  if (error != NULL)
    g_propagate_error (error, g_steal_pointer (&self->spill_error));
  else
    g_clear_error (&self->spill_error);
  return FALSE;
}

/* Hands the full buffer to the spill thread, once the previous run is
 * written, and takes the other buffer. */
static gboolean
spill (CsResultSorter  *self,
       GError          **error)
{
  gint64 *full = self->buffer;

  if (!spill_join (self, error))
    return FALSE;
  self->buffer = self->spilling != NULL ? self->spilling
                                        : g_malloc (self->run_records * self->record_bytes);
  self->spilling = full;
  self->n_spilling = self->n_buffered;
  self->n_buffered = 0;
  self->spill_thread = g_thread_new ("cs-result-sort", spill_thread, self);
  return TRUE;
}

/**
 * _cs_result_sorter_add:
 * @sorter: a sorter, not finished
 * @record: n_fields numbers, copied
 * @error: a #G_FILE_ERROR when the temporary file cannot be written
 *
 * Adds a record.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_result_sorter_add (CsResultSorter  *self,
                       const gint64     *record,
                       GError          **error)
{
  if (self->buffer == NULL)
    self->buffer = g_malloc (self->run_records * self->record_bytes);
  else if (self->n_buffered == self->run_records && !spill (self, error))
    return FALSE;
  memcpy (self->buffer + self->n_buffered * self->n_fields, record, self->record_bytes);
  self->n_buffered++;
  self->n_records++;
  return TRUE;
}

/* Reads the run's next block; FALSE at its end or on error. */
static gboolean
run_fill (CsResultSorter  *self,
          Run              *run,
          GError          **error)
{
  gsize want = (gsize) MIN ((guint64) BLOCK_RECORDS, run->end_record - run->next_record);
  guint64 from, to;
  gsize bytes, done = 0;

  run->n = run->pos = 0;
  if (run->in_memory || want == 0)
    return FALSE;
  from = g_array_index (self->block_offsets, guint64, run->next_block);
  to = run->next_block + 1 < self->block_offsets->len
       ? g_array_index (self->block_offsets, guint64, run->next_block + 1) : self->file_bytes;
  bytes = (gsize) (to - from);
  if (to < from || bytes > BLOCK_RECORDS * self->n_fields * CS_CHUNK_VARINT_MAX_BYTES)
    {
      file_failed (error, EIO, "read");
      return FALSE;
    }
  while (done < bytes)
    {
      ssize_t n = pread (fileno (self->file), (char *) self->bytes + done, bytes - done,
                         (off_t) (from + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          file_failed (error, n < 0 ? errno : EIO, "read");
          return FALSE;
        }
      done += (gsize) n;
    }
  if (cs_chunk_decode_records (self->bytes, bytes, want, self->n_fields, run->block) !=
      (gssize) want)
    {
      file_failed (error, EIO, "read");
      return FALSE;
    }
  run->next_block++;
  run->next_record += want;
  run->n = want;
  return TRUE;
}

static const gint64 *
run_current (CsResultSorter *self,
             const Run       *run)
{
  return run->block + run->pos * self->n_fields;
}

static void
sift_down (CsResultSorter *self,
           Run             *runs,
           guint           *heap,
           guint            len,
           guint            i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, best = i, t;

      if (l < len && compare_records (run_current (self, &runs[heap[l]]),
                                      run_current (self, &runs[heap[best]]), self->n_fields) < 0)
        best = l;
      if (r < len && compare_records (run_current (self, &runs[heap[r]]),
                                      run_current (self, &runs[heap[best]]), self->n_fields) < 0)
        best = r;
      if (best == i)
        return;
      t = heap[i];
      heap[i] = heap[best];
      heap[best] = t;
      i = best;
    }
}

/**
 * _cs_result_sorter_finish:
 * @sorter: a sorter
 * @func: called with each record in order
 * @user_data: its closure
 * @error: a #G_FILE_ERROR when the temporary file cannot be read, or
 *   what @func sets
 *
 * Hands the records to @func in ascending order (_cs_result_sorter_new();
 * records that tie are equal).  Call it once.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
_cs_result_sorter_finish (CsResultSorter      *self,
                          CsResultSorterFunc   func,
                          gpointer              user_data,
                          GError              **error)
{
  guint n_runs;
  g_autofree Run *runs = NULL;
  g_autofree guint *heap = NULL;
  guint heap_len = 0;
  gboolean ok = TRUE;

  if (!spill_join (self, error))
    return FALSE;
  g_clear_pointer (&self->spilling, g_free);
  n_runs = self->run_ends->len + (self->n_buffered > 0 ? 1 : 0);
  runs = g_new0 (Run, MAX (n_runs, 1));
  heap = g_new0 (guint, MAX (n_runs, 1));

  if (self->n_buffered > 0)
    sort_buffer (self, &self->buffer, &self->sort_spare, self->n_buffered);
  g_clear_pointer (&self->sort_spare, g_free);
  for (guint i = 0; i < n_runs; i++)
    {
      Run *run = &runs[i];

      if (i == self->run_ends->len)
        {
          run->in_memory = TRUE;
          run->block = self->buffer;
          run->n = self->n_buffered;
        }
      else
        {
          run->next_record = i == 0 ? 0 : g_array_index (self->run_ends, guint64, i - 1);
          run->end_record = g_array_index (self->run_ends, guint64, i);
          run->next_block = g_array_index (self->run_blocks, guint, i);
          run->block = g_malloc (BLOCK_RECORDS * self->record_bytes);
          if (ok && !run_fill (self, run, error))
            ok = FALSE;
        }
      if (ok && run->n > 0)
        heap[heap_len++] = i;
    }
  for (guint i = heap_len / 2; ok && i-- > 0;)
    sift_down (self, runs, heap, heap_len, i);
  while (ok && heap_len > 0)
    {
      Run *run = &runs[heap[0]];

      if (!func (run_current (self, run), user_data, error))
        {
          ok = FALSE;
          break;
        }
      if (++run->pos == run->n)
        {
          GError *local_error = NULL;

          if (!run_fill (self, run, &local_error))
            {
              if (local_error != NULL)
                {
                  g_propagate_error (error, local_error);
                  ok = FALSE;
                  break;
                }
              heap[0] = heap[--heap_len];
            }
        }
      sift_down (self, runs, heap, heap_len, 0);
    }
  for (guint i = 0; i < n_runs; i++)
    if (!runs[i].in_memory)
      g_free (runs[i].block);
  return ok;
}
