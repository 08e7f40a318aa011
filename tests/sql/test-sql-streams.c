/* test-sql-streams.c: SQL over several recordings
 * (cs_sql_session_new_streams(), index/sql/cs-sql-streams.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Two recordings of tests/data: each stream's rows are its own document's,
 * and recordings of the same clock line up as recorded.  The real KVM pair
 * of ../shared/testdata/kvm (skipped without it): the guest's ts_aligned
 * is its TIME_SHIFT conversion, within the 1 ns the session documents,
 * and the streams table shows the offset and scaling of the option,
 * computed here from the option's bytes as trace-cmd computes them; a
 * guest without its host is not aligned and says why.
 */
#include <inttypes.h>
#include <string.h>

#include "cs-document.h"
#include "cs-sql-session.h"
#include "cs-stream-set.h"
#include "cs-test-data.h"
#include "index-test-util.h"
#include "cs-tracedat-clock.h"
#include "sql-test-util.h"


static CsSqlSession *
streams (CsDocument *a, CsDocument *b)
{
  CsDocument *docs[2] = { a, b };
  g_autoptr(GError) error = NULL;
  CsSqlSession *session = cs_sql_session_new_streams (docs, 2, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (cs_sql_session_get_n_streams (session), ==, 2);
  return session;
}

static gboolean
has_table (CsSqlSession *session, const char *name)
{
  return g_strv_contains ((const char * const *) cs_sql_session_get_tables (session), name);
}

/* Two local recordings: rows by stream, the same clock lined up. */
static void
test_local_pair (void)
{
  g_autofree char *pa = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *pb = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autoptr(CsDocument) a = cs_test_load_path (pa);
  g_autoptr(CsDocument) b = cs_test_load_path (pb);
  g_autoptr(CsSqlSession) one = NULL;
  g_autoptr(CsSqlSession) two = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *schema = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *want = NULL;
  gboolean same_clock = g_strcmp0 (cs_document_get_clock (a), cs_document_get_clock (b)) == 0;

  /* One document: as before, no stream column and no streams table. */
  one = cs_sql_session_new (a, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_sql_session_get_n_streams (one), ==, 1);
  g_assert_false (has_table (one, "streams"));
  schema = cs_sql_session_dup_schema (one, "events", &error);
  g_assert_no_error (error);
  g_assert_null (strstr (schema, "stream"));
  g_clear_pointer (&schema, g_free);

  two = streams (a, b);
  g_assert_true (has_table (two, "streams"));
  schema = cs_sql_session_dup_schema (two, "events", &error);
  g_assert_no_error (error);
  g_test_message ("%s", schema);
  g_assert_true (g_str_has_prefix (schema, "CREATE TABLE \"events\"(stream INTEGER, \"ts\""));
  g_assert_nonnull (strstr (schema, "ts_aligned INTEGER)"));

  rows = cs_test_query_rows (two, "SELECT stream, count(*) FROM events GROUP BY stream");
  want = g_strdup_printf ("0|%" G_GUINT64_FORMAT "\n1|%" G_GUINT64_FORMAT "\n",
                          cs_document_get_n_events (a), cs_document_get_n_events (b));
  g_assert_cmpstr (rows, ==, want);
  g_clear_pointer (&rows, g_free);
  g_clear_pointer (&want, g_free);

  /* A type table: each stream's rows are those of its own session. */
  g_assert_cmpint (cs_test_query_int (two, "SELECT count(*) FROM sched_sched_switch WHERE stream = 0"),
                   ==, cs_test_query_int (one, "SELECT count(*) FROM sched_sched_switch"));
  g_assert_cmpint (cs_test_query_int (two, "SELECT sum(prev_pid + next_pid) FROM sched_sched_switch "
                                           "WHERE stream = 0"),
                   ==, cs_test_query_int (one, "SELECT sum(prev_pid + next_pid) FROM sched_sched_switch"));
  g_assert_cmpint (cs_test_query_int (two, "SELECT count(*) FROM \"sched:sched_switch\""),
                   ==, cs_test_query_int (two, "SELECT count(*) FROM sched_sched_switch"));
  g_assert_cmpint (cs_test_query_int (two, "SELECT count(*) FROM tasks WHERE stream = 0"),
                   ==, cs_test_query_int (one, "SELECT count(*) FROM tasks"));

  /* The same clock lines up as recorded; another is left unaligned. */
  g_test_message ("clocks %s and %s", cs_document_get_clock (a), cs_document_get_clock (b));
  g_assert_cmpint (cs_test_query_int (two, "SELECT count(*) FROM events WHERE stream = 0 AND "
                                           "ts_aligned IS NOT ts"), ==, 0);
  g_assert_cmpint (cs_test_query_int (two, "SELECT count(*) FROM events WHERE stream = 1 AND "
                                           "ts_aligned IS NOT ts"),
                   ==, same_clock ? 0 : (gint64) cs_document_get_n_events (b));
  g_assert_cmpint (cs_test_query_int (two, "SELECT aligned FROM streams WHERE id = 1"), ==, same_clock);
  rows = cs_test_query_rows (two, "SELECT id, file, role, peer, offset_ns, aligned FROM streams");
  want = g_strdup_printf ("0|%s|NULL|NULL|0|1\n1|%s|NULL|NULL|%s|%d\n", pa, pb,
                          same_clock ? "0" : "NULL", same_clock);
  g_assert_cmpstr (rows, ==, want);

  /* Said, since nothing checks that the two come from one machine. */
  g_clear_pointer (&rows, g_free);
  rows = cs_test_query_rows (two, "SELECT note FROM streams WHERE id = 1");
  g_test_message ("%s", rows);
  g_assert_true (!same_clock || strstr (rows, "as recorded") != NULL);

  /* Still read-only. */
  g_assert_null (cs_sql_session_prepare (two, "DELETE FROM streams", &error));
  g_assert_error (error, CS_SQL_ERROR, CS_SQL_ERROR_REFUSED);
}

/* A window's set: its reference and manual offsets are the session's. */
static void
test_window_set (void)
{
  g_autofree char *pa = cs_test_own_path ("sched-irq-v7.dat");
  g_autofree char *pb = cs_test_own_path ("sched-prio-migrate-v7.dat");
  g_autoptr(CsDocument) a = cs_test_load_path (pa);
  g_autoptr(CsDocument) b = cs_test_load_path (pb);
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsSqlSession) s = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  CsStream *sa = cs_stream_set_add (set, a, NULL);
  CsStream *sb = cs_stream_set_add (set, b, NULL);
  gint64 first_b = cs_document_get_first_ns (b);

  /* the second recording is the axis, the first shifted by hand */
  cs_stream_set_set_reference (set, sb);
  cs_stream_set_offset_ns (sa, -12345);
  s = cs_sql_session_new_for_streams (set, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_sql_session_get_n_streams (s), ==, 2);
  g_test_message ("%s: %s", cs_stream_get_name (sa), cs_stream_get_note (sa));
  rows = cs_test_query_rows (s, "SELECT id, aligned, manual_offset_ns, host IS NOT NULL FROM streams");
  g_assert_cmpstr (rows, ==, "0|1|-12345|1\n1|1|0|1\n");
  /* Every row's ts_aligned is the set's axis time of its stream. */
  g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE stream = 1 AND "
                                         "ts_aligned IS NOT ts"), ==, 0);
  if (cs_stream_get_alignment (sa) == CS_STREAM_ALIGNMENT_AS_RECORDED)
    g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE stream = 0 AND "
                                           "ts_aligned IS NOT ts - 12345"), ==, 0);
  g_assert_cmpint (cs_test_query_int (s, "SELECT min(ts_aligned) FROM events WHERE stream = 0"),
                   ==, cs_stream_to_axis_ns (sa, 0, cs_document_get_first_ns (a)));
  g_assert_cmpint (cs_test_query_int (s, "SELECT min(ts_aligned) FROM events WHERE stream = 1"),
                   ==, first_b);
  /* Both rest on something: no NULL. */
  g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE ts_aligned IS NULL"),
                   ==, 0);
}

/* trace-cmd's conversion of an offset in ticks to ns: TSC2NSEC's
 * mul_u64_u32_shr() of its magnitude. */
static gint64
offset_ns (CsTracedatReader *r, gint64 ticks)
{
  guint32 mult = 0, shift = 0;
  guint64 mag = ticks < 0 ? (guint64) 0 - (guint64) ticks : (guint64) ticks;
  gint64 ns;

  g_assert_true (cs_tracedat_reader_get_tsc2nsec (r, &mult, &shift));
  ns = (gint64) (((unsigned __int128) mag * mult) >> shift);
  return ticks < 0 ? -ns : ns;
}

static void
test_kvm_pair (void)
{
  g_autofree char *hpath = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *gpath = hpath != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  g_autoptr(CsDocument) host = NULL;
  g_autoptr(CsDocument) guest = NULL;
  g_autoptr(CsSqlSession) s = NULL;
  g_autoptr(CsSqlSession) rev = NULL;
  g_autoptr(CsTracedatReader) hr = NULL;
  g_autoptr(CsTracedatReader) gr = NULL;
  g_autoptr(CsTimeRelation) rel = NULL;
  g_autoptr(CsTimeShift) shift = NULL;
  g_autoptr(CsStreamSet) set = NULL;
  g_autoptr(CsSqlQuery) q = NULL;
  g_autoptr(CsTracedatCpu) cpu0 = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *want = NULL;
  CsTracedatRecord rec;
  guint64 n = 0, n_off_by_one = 0;

  if (gpath == NULL)
    return;
  host = cs_test_load_path (hpath);
  guest = cs_test_load_path (gpath);
  hr = cs_tracedat_reader_open (hpath, &error);
  g_assert_no_error (error);
  gr = cs_tracedat_reader_open (gpath, &error);
  g_assert_no_error (error);
  shift = cs_tracedat_reader_dup_time_shift (gr, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (shift->n_vcpus, ==, 1);

  s = streams (host, guest);
  /* The option's first sample: offset and scaling as trace-cmd applies
   * them (no interpolation flag: the earlier sample's); the note is the
   * window's, from a CsStreamSet of the same two. */
  set = cs_stream_set_new ();
  cs_stream_set_add (set, host, NULL);
  cs_stream_set_add (set, guest, NULL);
  g_assert_cmpint (cs_stream_get_alignment (cs_stream_set_get_stream (set, 1)), ==,
                   CS_STREAM_ALIGNMENT_GUEST);
  rows = cs_test_query_rows (s, "SELECT id, role, peer, offset_ns, scaling, fraction_bits, aligned, "
                                "note FROM streams");
  want = g_strdup_printf ("0|host|NULL|0|1|0|1|NULL\n1|guest|0|%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT
                          "|%" G_GINT64_FORMAT "|1|%s\n",
                          offset_ns (gr, shift->samples[0][0].offset), shift->samples[0][0].scaling,
                          shift->samples[0][0].fraction,
                          cs_stream_get_note (cs_stream_set_get_stream (set, 1)));
  g_assert_cmpstr (rows, ==, want);
  g_assert_nonnull (strstr (rows, "TIME_SHIFT"));
  g_clear_pointer (&rows, g_free);

  /* Host and kernel: the UNAME options' node name and release. */
  rows = cs_test_query_rows (s, "SELECT host || ' ' || kernel FROM streams ORDER BY id");
  g_test_message ("%s", rows);
  {
    g_auto(GStrv) hw = g_strsplit (cs_tracedat_reader_get_uname (hr), " ", 4);
    g_auto(GStrv) gw = g_strsplit (cs_tracedat_reader_get_uname (gr), " ", 4);

    g_free (want);
    want = g_strdup_printf ("%s %s\n%s %s\n", hw[1], hw[2], gw[1], gw[2]);
    g_assert_cmpstr (rows, ==, want);
  }
  g_clear_pointer (&rows, g_free);

  /* The host's kvm events are the host's, the guest's sched_switch the
   * guest's. */
  rows = cs_test_query_rows (s, "SELECT DISTINCT stream FROM kvm_kvm_exit");
  g_assert_cmpstr (rows, ==, "0\n");
  g_clear_pointer (&rows, g_free);
  rows = cs_test_query_rows (s, "SELECT DISTINCT stream FROM sched_sched_switch");
  g_assert_cmpstr (rows, ==, "1\n");
  g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE stream = 0 AND "
                                         "ts_aligned IS NOT ts"), ==, 0);

  /* Every guest event: its ts_aligned against the relation's conversion
   * of the record's own ticks. */
  rel = cs_time_relation_new (hr, gr, &error);
  g_assert_no_error (error);
  q = cs_sql_session_prepare (s, "SELECT ts, ts_aligned FROM events WHERE stream = 1 AND cpu = 0 "
                                 "ORDER BY ts", &error);
  g_assert_no_error (error);
  cpu0 = cs_tracedat_reader_open_cpu (gr, 0, &error);
  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    {
      gint64 host_ns;

      g_assert_true (cs_tracedat_cpu_next (cpu0, &rec, &error));
      g_assert_cmpint (cs_sql_query_get_int64 (q, 0), ==, rec.ts_ns);
      g_assert_true (cs_time_relation_guest_to_host (rel, 0, rec.raw_ts, &host_ns));
      g_assert_cmpint (ABS (cs_sql_query_get_int64 (q, 1) - host_ns), <=, 1);
      n_off_by_one += cs_sql_query_get_int64 (q, 1) != host_ns;
      n++;
    }
  g_assert_no_error (error);
  g_assert_false (cs_tracedat_cpu_next (cpu0, &rec, &error));
  g_test_message ("%" G_GUINT64_FORMAT " guest events aligned, %" G_GUINT64_FORMAT " of them 1 ns "
                  "from the conversion of their own ticks", n, n_off_by_one);
  g_assert_cmpuint (n, ==, cs_document_get_n_events (guest));

  /* Guest first: the host is still the axis. */
  rev = streams (guest, host);
  g_clear_pointer (&rows, g_free);
  rows = cs_test_query_rows (rev, "SELECT id, role, peer, aligned FROM streams");
  g_assert_cmpstr (rows, ==, "0|guest|1|1\n1|host|NULL|1\n");
  g_assert_cmpint (cs_test_query_int (rev, "SELECT min(ts_aligned) FROM events WHERE stream = 0"),
                   ==, cs_test_query_int (s, "SELECT min(ts_aligned) FROM events WHERE stream = 1"));
}

/* A guest whose host is not among the streams: not aligned, and why. */
static void
test_guest_alone (void)
{
  g_autofree char *gpath = cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat");
  g_autofree char *lpath = cs_test_own_path ("sched-irq-v7.dat");
  g_autoptr(CsDocument) guest = NULL;
  g_autoptr(CsDocument) local = NULL;
  g_autoptr(CsSqlSession) s = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsSqlQuery) q = NULL;

  if (gpath == NULL)
    return;
  guest = cs_test_load_path (gpath);
  local = cs_test_load_path (lpath);
  s = streams (guest, local);
  g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE stream = 0 AND "
                                         "ts_aligned IS NOT NULL"), ==, 0);
  g_assert_cmpint (cs_test_query_int (s, "SELECT count(*) FROM events WHERE stream = 1 AND "
                                         "ts_aligned IS NOT ts"), ==, 0);
  q = cs_sql_session_prepare (s, "SELECT aligned, offset_ns, note FROM streams WHERE id = 0", &error);
  g_assert_no_error (error);
  g_assert_true (cs_sql_query_next (q, &error));
  g_assert_cmpint (cs_sql_query_get_int64 (q, 0), ==, 0);
  g_assert_cmpint (cs_sql_query_get_value_type (q, 1), ==, CS_SQL_NULL);
  {
    g_autofree char *note = cs_sql_query_dup_text (q, 2);

    g_test_message ("note: %s", note);
    g_assert_nonnull (strstr (note, "0x2C75FF89FDAF813C"));
  }

  /* Shifted by hand in a window, it is where the user put it. */
  {
    g_autoptr(CsStreamSet) set = cs_stream_set_new ();
    g_autoptr(CsSqlSession) shifted = NULL;
    CsStream *sg = cs_stream_set_add (set, guest, NULL);

    cs_stream_set_set_reference (set, cs_stream_set_add (set, local, NULL));
    g_assert_cmpint (cs_stream_get_alignment (sg), ==, CS_STREAM_ALIGNMENT_UNRELATED);
    cs_stream_set_offset_ns (sg, 1000);
    shifted = cs_sql_session_new_for_streams (set, &error);
    g_assert_no_error (error);
    g_assert_cmpint (cs_test_query_int (shifted, "SELECT aligned FROM streams WHERE id = 0"), ==, 1);
    g_assert_cmpint (cs_test_query_int (shifted, "SELECT min(ts_aligned) FROM events WHERE stream = 0"),
                     ==, cs_stream_to_axis_ns (sg, 0, cs_document_get_first_ns (guest)));
    g_assert_cmpint (cs_test_query_int (shifted, "SELECT min(ts_aligned) FROM events WHERE stream = 0"),
                     ==, cs_document_get_first_ns (local) + 1000);
  }
}

typedef struct {
  gint64 begin_ns, end_ns;
} Span;

/* Of [@a, @b), the time inside the sorted, disjoint @spans. */
static gint64
overlap (GArray *spans, gint64 a, gint64 b)
{
  gint64 sum = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *sp = &g_array_index (spans, Span, i);
      gint64 lo = MAX (sp->begin_ns, a), hi = MIN (sp->end_ns, b);

      if (hi > lo)
        sum += hi - lo;
    }
  return sum;
}

/* A guest wakeup latency split: the time its vCPU was out of the guest,
 * against the host's kvm_entry -> kvm_exit spans of the vCPU's thread as
 * the host stream's own events table gives them. */
static void
test_wakeup_split (void)
{
  g_autofree char *hpath = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *gpath = hpath != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  g_autoptr(CsDocument) host = NULL;
  g_autoptr(CsDocument) guest = NULL;
  g_autoptr(CsSqlSession) s = NULL;
  g_autoptr(CsSqlQuery) q = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  gint64 open = -1, first_kvm = -1, latency = 0, out = 0;
  guint n = 0, n_null = 0, n_out = 0;

  if (gpath == NULL)
    return;
  guest = cs_test_load_path (gpath);
  host = cs_test_load_path (hpath);
  s = streams (guest, host);

  /* vCPU 0's thread: the GUEST option's (483882 in MANIFEST.md). */
  q = cs_sql_session_prepare (s, "SELECT ts, name FROM events WHERE stream = 1 AND pid = 483882 "
                                 "AND name IN ('kvm_entry', 'kvm_exit') ORDER BY ts", &error);
  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    {
      gint64 ts = cs_sql_query_get_int64 (q, 0);
      g_autofree char *name = cs_sql_query_dup_text (q, 1);

      if (first_kvm < 0)
        first_kvm = ts;
      if (g_str_equal (name, "kvm_entry"))
        open = ts;
      else if (open >= 0)
        {
          Span sp = { open, ts };
          g_array_append_val (spans, sp);
          open = -1;
        }
    }
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, >, 5000);
  g_clear_pointer (&q, cs_sql_query_free);

  q = cs_sql_session_prepare (s, "SELECT ts_aligned, run_ts - ts, latency_ns, "
                                 "vcpu_out_ns(stream, cpu, ts, run_ts), "
                                 "vcpu_not_running_ns(stream, cpu, ts, run_ts) "
                                 "FROM wakeups WHERE stream = 0", &error);
  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    {
      gint64 a = cs_sql_query_get_int64 (q, 0), dur = cs_sql_query_get_int64 (q, 1);
      gint64 want = dur - overlap (spans, a, a + dur);

      n++;
      g_assert_cmpint (cs_sql_query_get_int64 (q, 2), ==, dur);
      /* The pair's host recorded no sched_switch: not running is unknown. */
      g_assert_cmpint (cs_sql_query_get_value_type (q, 4), ==, CS_SQL_NULL);
      if (cs_sql_query_get_value_type (q, 3) == CS_SQL_NULL)
        {
          /* only before the thread's first kvm event */
          g_assert_cmpint (a, <, first_kvm);
          n_null++;
          continue;
        }
      /* Each end is placed within 1 ns, and an interval's edge may fall
       * on either side. */
      g_assert_cmpint (ABS (cs_sql_query_get_int64 (q, 3) - want), <=, 2);
      g_assert_cmpint (cs_sql_query_get_int64 (q, 3), <=, dur + 2);
      latency += dur;
      out += cs_sql_query_get_int64 (q, 3);
      n_out += cs_sql_query_get_int64 (q, 3) > 0;
    }
  g_assert_no_error (error);
  g_test_message ("%u guest wakeups (%u before the host's view): %" G_GINT64_FORMAT " ns of latency, "
                  "%" G_GINT64_FORMAT " ns of it with the vCPU out of the guest, in %u wakeups",
                  n, n_null, latency, out, n_out);
  g_assert_cmpuint (n, >, 1000);
  g_assert_cmpuint (n_null, <, n / 100);
  g_assert_cmpuint (n_out, >, 0);
  g_assert_cmpint (out, <, latency);
  /* The host stream is no guest: unknown. */
  g_assert_cmpint (cs_test_query_int (s, "SELECT vcpu_out_ns(1, 0, 0, 1) IS NULL"), ==, 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/sql/SqlStreams/local-pair", test_local_pair);
  g_test_add_func ("/cs/sql/SqlStreams/window-set", test_window_set);
  g_test_add_func ("/cs/sql/SqlStreams/kvm-pair", test_kvm_pair);
  g_test_add_func ("/cs/sql/SqlStreams/guest-alone", test_guest_alone);
  g_test_add_func ("/cs/sql/SqlStreams/wakeup-split", test_wakeup_split);
  return g_test_run ();
}
