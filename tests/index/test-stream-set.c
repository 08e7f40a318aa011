/* test-stream-set.c: several recordings on one time axis (CsStream and
 * CsStreamSet, index/model/cs-stream-set.h; issue 25 items 1, 2 and 5).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The real KVM pair of ../shared/testdata/kvm (skipped with a message when
 * it is absent) must line up through the guest's TIME_SHIFT option exactly
 * as CsTimeRelation converts each record; recordings of tests/data give
 * the same-clock and unrelated cases, and pairs made from
 * tests/data/sched-irq-v7.dat with options added (tracedat-rewrite.c) give
 * a related pair and the bad inputs without ../shared.
 */
#include "config.h"

#include <string.h>

#include "cs-test-data.h"
#include "index-test-util.h"
#include "cs-stream-private.h"
#include "cs-stream-set.h"
#include "cs-vcpu-timeline.h"
#include "cs-tracedat-clock.h"
#include "tracedat-rewrite.h"

static void
assert_note (CsStream *s, const char *part)
{
  g_test_message ("%s: %s", cs_stream_get_name (s), cs_stream_get_note (s));
  g_assert_nonnull (strstr (cs_stream_get_note (s), part));
}

/* Each record of the guest at @path with its host time by @rel:
 * (own ns, host ns) pairs, CPU by CPU. */
typedef struct {
  guint cpu;
  gint64 ts_ns;
  gint64 host_ns;
} GuestTime;

static GArray *
guest_times (CsTimeRelation *rel, const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) reader = cs_tracedat_reader_open (path, &error);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (GuestTime));

  g_assert_no_error (error);
  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (reader); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      CsTracedatRecord rec;

      if (cs_tracedat_reader_get_cpu_data_size (reader, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (reader, cpu, &error);
      g_assert_no_error (error);
      while (cs_tracedat_cpu_next (stream, &rec, &error))
        {
          GuestTime t = { cpu, rec.ts_ns, 0 };

          g_assert_true (cs_time_relation_guest_to_host (rel, cpu, rec.raw_ts, &t.host_ns));
          g_array_append_val (times, t);
        }
      g_assert_no_error (error);
    }
  return times;
}

/* Every record of @guest's file, through the stream, lands where
 * CsTimeRelation puts it (the stream starts from the document's ns, not the
 * ring-buffer ticks: a nanosecond of rounding at most), and back. */
static guint64
check_guest_times (CsStream *guest, CsTimeRelation *rel, const char *path, gint64 host_offset)
{
  g_autoptr(GArray) times = guest_times (rel, path);
  gint64 max_err = 0, max_back = 0;

  for (guint i = 0; i < times->len; i++)
    {
      const GuestTime *t = &g_array_index (times, GuestTime, i);
      gint64 got = cs_stream_to_axis_ns (guest, t->cpu, t->ts_ns);

      max_err = MAX (max_err, ABS (got - (t->host_ns + host_offset)));
      max_back = MAX (max_back, ABS (cs_stream_from_axis_ns (guest, t->cpu, got) - t->ts_ns));
    }
  g_test_message ("%u guest records: axis error at most %" G_GINT64_FORMAT
                  " ns, round trip at most %" G_GINT64_FORMAT " ns", times->len, max_err, max_back);
  g_assert_cmpint (max_err, <=, 1);
  g_assert_cmpint (max_back, <=, 2);
  return times->len;
}

/* With the guest as reference, every guest record's host time lands back
 * on the guest's own time through the host stream. */
static void
check_host_on_guest_clock (CsStream *host, CsTimeRelation *rel, const char *path)
{
  g_autoptr(GArray) times = guest_times (rel, path);
  gint64 max_err = 0;

  for (guint i = 0; i < times->len; i++)
    {
      const GuestTime *t = &g_array_index (times, GuestTime, i);

      max_err = MAX (max_err, ABS (cs_stream_to_axis_ns (host, 0, t->host_ns) - t->ts_ns));
    }
  g_test_message ("host on the guest's clock: %u records, error at most %" G_GINT64_FORMAT
                  " ns", times->len, max_err);
  g_assert_cmpint (max_err, <=, 2);
}

static void
test_kvm_pair (void)
{
  g_autofree char *host_path = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *guest_path = host_path != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;
  g_autoptr(CsDocument) host_doc = NULL;
  g_autoptr(CsDocument) guest_doc = NULL;
  g_autoptr(CsStreamSet) set = NULL;
  g_autoptr(CsTracedatReader) hr = NULL;
  g_autoptr(CsTracedatReader) gr = NULL;
  g_autoptr(CsTimeRelation) rel = NULL;
  g_autoptr(GError) error = NULL;
  CsStream *guest, *host;
  gint64 begin = 0, end = 0;

  if (guest_path == NULL)
    return;
  host_doc = cs_test_load_path (host_path);
  guest_doc = cs_test_load_path (guest_path);
  set = cs_stream_set_new ();

  /* The guest alone: its own reference, and it says its host is missing. */
  guest = cs_stream_set_add (set, guest_doc, NULL);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_REFERENCE);
  assert_note (guest, "is not open");
  g_assert_cmpstr (cs_stream_get_kernel (guest), ==, "5.15.94");
  g_assert_cmpstr (cs_stream_get_host_name (guest), ==, "sigmatek-core2");
  g_assert_true (g_str_has_prefix (cs_stream_get_clock_description (guest),
                                   "x86-tsc, converted to ns by TSC2NSEC"));

  /* Its host added second becomes the reference; the guest is its guest. */
  host = cs_stream_set_add (set, host_doc, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (set)), ==, 2);
  g_assert_true (cs_stream_set_get_reference (set) == host);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_true (cs_stream_get_host (guest) == host);
  g_assert_cmpint (cs_stream_get_vcpu_tid (guest, 0), ==, 483882);
  assert_note (guest, "TIME_SHIFT");
  g_assert_cmpstr (cs_stream_get_host_name (host), ==, "pamhal");
  g_assert_cmpstr (cs_stream_get_kernel (host), ==, "6.5.0-21-generic");

  hr = cs_tracedat_reader_open (host_path, &error);
  g_assert_no_error (error);
  gr = cs_tracedat_reader_open (guest_path, &error);
  g_assert_no_error (error);
  rel = cs_time_relation_new (hr, gr, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (check_guest_times (guest, rel, guest_path, 0), ==, 90029);

  /* The axis spans both; the guest's 22,150 s of its own clock are gone. */
  g_assert_true (cs_stream_set_get_span (set, &begin, &end));
  g_assert_cmpint (begin, <=, cs_document_get_first_ns (host_doc));
  g_assert_cmpint (end, >=, cs_document_get_last_ns (host_doc));
  g_assert_cmpint (end - begin, <, 2 * (cs_document_get_last_ns (host_doc) -
                                        cs_document_get_first_ns (host_doc)) + 1000000000);

  /* A manual shift of the host moves its guest with it. */
  cs_stream_set_offset_ns (host, 12345);
  check_guest_times (guest, rel, guest_path, 12345);

  /* The guest as the reference (a window that opened it first): the host
   * goes onto its clock through the inverse conversion. */
  cs_stream_set_offset_ns (host, 0);
  cs_stream_set_set_reference (set, guest);
  g_assert_true (cs_stream_set_get_reference (set) == guest);
  g_assert_cmpint (cs_stream_get_alignment (host), ==, CS_STREAM_ALIGNMENT_HOST);
  g_assert_true (cs_stream_get_reference_guest (host) == guest);
  assert_note (host, "inverse");
  assert_note (guest, "inverted");
  g_assert_cmpint (cs_stream_get_vcpu_tid (guest, 0), ==, 483882);
  check_host_on_guest_clock (host, rel, guest_path);
  cs_stream_set_set_reference (set, NULL);
  g_assert_true (cs_stream_set_get_reference (set) == host);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);

  /* Closing the host leaves the guest alone again, and saying so. */
  cs_stream_set_remove (set, host);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_REFERENCE);
  assert_note (guest, "is not open");
  g_assert_cmpint (cs_stream_to_axis_ns (guest, 0, 1000), ==, 1000);
}

/* The real guest next to a recording of this machine that has a TRACEID of
 * its own: not its host, and told. */
static void
test_kvm_guest_wrong_host (void)
{
  g_autofree char *guest_path = cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat");
  g_autoptr(CsDocument) guest_doc = NULL;
  g_autoptr(CsDocument) other_doc = NULL;
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *other, *guest;

  if (guest_path == NULL)
    return;
  guest_doc = cs_test_load_path (guest_path);
  other_doc = cs_test_load ("sched-irq-v7.dat");
  other = cs_stream_set_add (set, other_doc, NULL);
  guest = cs_stream_set_add (set, guest_doc, NULL);
  g_assert_true (cs_stream_set_get_reference (set) == other);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_UNRELATED);
  assert_note (guest, "not recorded together");
  assert_note (guest, "start is placed");
  /* placed start to start, not at its own 22,150 s */
  g_assert_cmpint (cs_stream_to_axis_ns (guest, 0, cs_document_get_first_ns (guest_doc)), ==,
                   cs_document_get_first_ns (other_doc));
}

/* Two recordings of this machine with the same clock line up as recorded;
 * manual offsets and marker alignment move one. */
static void
test_same_clock (void)
{
  g_autoptr(CsDocument) a_doc = cs_test_load ("sched-irq-v7.dat");
  g_autoptr(CsDocument) b_doc = cs_test_load ("sched-prio-migrate-v7.dat");
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *a = cs_stream_set_add (set, a_doc, NULL);
  CsStream *b = cs_stream_set_add (set, b_doc, "second");
  gint64 ta = cs_document_get_first_ns (a_doc), tb = cs_document_get_first_ns (b_doc);

  g_assert_cmpstr (cs_stream_get_host_name (a), ==, cs_stream_get_host_name (b));
  g_assert_cmpstr (cs_stream_get_clock (a), ==, cs_stream_get_clock (b));
  g_assert_cmpint (cs_stream_get_alignment (a), ==, CS_STREAM_ALIGNMENT_REFERENCE);
  g_assert_cmpint (cs_stream_get_alignment (b), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
  g_assert_cmpstr (cs_stream_get_name (b), ==, "second");
  assert_note (b, "as recorded");
  for (guint cpu = 0; cpu < 2; cpu++)
    {
      g_assert_cmpint (cs_stream_to_axis_ns (b, cpu, tb), ==, tb);
      g_assert_cmpint (cs_stream_to_axis_ns (a, cpu, ta), ==, ta);
    }

  cs_stream_set_offset_ns (b, -5000);
  g_assert_cmpint (cs_stream_to_axis_ns (b, 0, tb), ==, tb - 5000);
  g_assert_cmpint (cs_stream_from_axis_ns (b, 0, tb - 5000), ==, tb);

  /* marker A of b at its first event onto marker A of a at a's last */
  cs_stream_align_times (b, tb, a, cs_document_get_last_ns (a_doc));
  g_assert_cmpint (cs_stream_to_axis_ns (b, 0, tb), ==, cs_document_get_last_ns (a_doc));

  /* reordering makes b the reference */
  cs_stream_set_move (set, b, 0);
  g_assert_true (cs_stream_set_get_stream (set, 0) == b);
  g_assert_cmpint (cs_stream_get_alignment (b), ==, CS_STREAM_ALIGNMENT_REFERENCE);
  g_assert_cmpint (cs_stream_get_alignment (a), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
}

/* A recording of another machine (a QEMU guest without a host name, i686)
 * is unrelated: placed start to start, with a note. */
static void
test_unrelated (void)
{
  g_autoptr(CsDocument) a_doc = cs_test_load ("sched-irq-v7.dat");
  g_autoptr(CsDocument) b_doc = cs_test_load ("sched-i686-v6.dat");
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *a = cs_stream_set_add (set, a_doc, NULL);
  CsStream *b = cs_stream_set_add (set, b_doc, NULL);
  gint64 tb = cs_document_get_first_ns (b_doc);

  g_assert_cmpint (cs_stream_get_alignment (a), ==, CS_STREAM_ALIGNMENT_REFERENCE);
  g_assert_cmpstr (cs_stream_get_note (a), ==, "");
  g_assert_cmpint (cs_stream_get_alignment (b), ==, CS_STREAM_ALIGNMENT_UNRELATED);
  assert_note (b, "Not aligned");
  assert_note (b, "shift it by hand");
  g_assert_cmpint (cs_stream_to_axis_ns (b, 0, tb), ==, cs_document_get_first_ns (a_doc));
  g_assert_cmpint (cs_stream_from_axis_ns (b, 0, cs_document_get_first_ns (a_doc)), ==, tb);
  cs_stream_set_offset_ns (b, 777);
  g_assert_cmpint (cs_stream_to_axis_ns (b, 0, tb), ==, cs_document_get_first_ns (a_doc) + 777);
}

static CsDocument *
load_made (const char *name, guint64 id, GBytes *shift)
{
  g_autofree char *path = cs_test_make_peer_recording (name, id, shift, FALSE);

  return cs_test_load_path (path);
}

/* A pair made here relates and converts by its option; a guest whose
 * TIME_SHIFT names another host, or whose offsets are absurd, stays
 * unrelated with the reason in its note. */
static void
test_made_pairs (void)
{
  gint64 first_raw = 0;
  guint n_cpus = cs_test_sample_cpus (&first_raw);
  gint64 times[2] = { first_raw, first_raw + 1000000000 };
  gint64 small[2] = { 1000, 1000 };
  gint64 absurd[2] = { G_GINT64_CONSTANT (1) << 60, G_GINT64_CONSTANT (1) << 60 };
  g_autoptr(GBytes) good = cs_test_time_shift (0x1111, 0, n_cpus, 2, times, small, 1);
  g_autoptr(GBytes) other = cs_test_time_shift (0x3333, 0, n_cpus, 2, times, small, 1);
  g_autoptr(GBytes) far = cs_test_time_shift (0x1111, 0, n_cpus, 2, times, absurd, 1);
  g_autoptr(CsDocument) host_doc = load_made ("streams-host.dat", 0x1111, NULL);
  g_autoptr(CsDocument) guest_doc = load_made ("streams-guest.dat", 0x2222, good);
  g_autoptr(CsDocument) other_doc = load_made ("streams-other.dat", 0x2222, other);
  g_autoptr(CsDocument) far_doc = load_made ("streams-far.dat", 0x2222, far);
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (CsEvent));
  g_autoptr(GError) error = NULL;
  CsStream *host = cs_stream_set_add (set, host_doc, NULL);
  CsStream *guest = cs_stream_set_add (set, guest_doc, NULL);
  CsStream *wrong = cs_stream_set_add (set, other_doc, NULL);
  CsStream *absurd_guest = cs_stream_set_add (set, far_doc, NULL);
  guint n = 0;

  g_assert_true (cs_stream_set_get_reference (set) == host);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  /* no TSC2NSEC: ticks are ns, and the offset is 1000 ticks */
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      g_array_set_size (events, 0);
      g_assert_true (cs_document_get_events (guest_doc, cpu, G_MININT64, G_MAXINT64, 200,
                                             events, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < events->len; i++, n++)
        {
          gint64 ts = g_array_index (events, CsEvent, i).ts_ns;

          g_assert_cmpint (cs_stream_to_axis_ns (guest, cpu, ts), ==, ts + 1000);
          g_assert_cmpint (cs_stream_from_axis_ns (guest, cpu, ts + 1000), ==, ts);
        }
    }
  g_assert_cmpuint (n, >, 0);

  g_assert_cmpint (cs_stream_get_alignment (wrong), ==, CS_STREAM_ALIGNMENT_UNRELATED);
  assert_note (wrong, "not recorded together");
  g_assert_cmpint (cs_stream_get_alignment (absurd_guest), ==, CS_STREAM_ALIGNMENT_UNRELATED);
  assert_note (absurd_guest, "TIME_SHIFT");
  assert_note (absurd_guest, "shift it by hand");
}

static void
count_update (CsStreamSet *set, CsStream *stream, gpointer data)
{
  guint *n = data;

  (*n)++;
}

/* The window draws a guest's vCPU strips from the host's view, built in a
 * worker thread: a first peek starts it and gives NULL, the set says
 * "stream-updated" when it is there, and it is the view a blocking read
 * gives.  Relating again (a stream added, the reference changed) keeps the
 * guest's relation and that view while its host stays: nothing is read
 * twice.  The project's own pair (tests/data/pair). */
static void
test_vcpu_timeline_background (void)
{
  g_autoptr(CsDocument) host_doc = cs_test_load ("pair/pair-host-v6.dat");
  g_autoptr(CsDocument) guest_doc = cs_test_load ("pair/pair-guest-v6.dat");
  g_autoptr(CsDocument) other_doc = cs_test_load ("sched-i686-v6.dat");
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *host = cs_stream_set_add (set, host_doc, NULL);
  CsStream *guest = cs_stream_set_add (set, guest_doc, NULL);
  CsVcpuTimeline *peeked;
  CsTimeRelation *relation;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint n_updates = 0;
  gint64 first = 0, last = 0, sync_first = 0, sync_last = 0;

  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_null (cs_stream_peek_vcpu_timeline (host));  /* not a guest: nothing to build */
  g_signal_connect (set, "stream-updated", G_CALLBACK (count_update), &n_updates);
  g_assert_null (cs_stream_peek_vcpu_timeline (guest));
  while (n_updates == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_updates, ==, 1);
  peeked = cs_stream_peek_vcpu_timeline (guest);
  g_assert_nonnull (peeked);
  g_assert_true (cs_stream_get_vcpu_timeline (guest) == peeked);
  g_assert_cmpuint (cs_vcpu_timeline_get_n_threads (peeked), >, 0);

  /* the view a blocking read of a fresh set gives */
  {
    g_autoptr(CsStreamSet) fresh = cs_stream_set_new ();
    CsStream *g;
    CsVcpuTimeline *sync;

    cs_stream_set_add (fresh, host_doc, NULL);
    g = cs_stream_set_add (fresh, guest_doc, NULL);
    sync = cs_stream_get_vcpu_timeline (g);
    g_assert_nonnull (sync);
    g_assert_cmpuint (cs_vcpu_timeline_get_n_threads (sync), ==,
                      cs_vcpu_timeline_get_n_threads (peeked));
    cs_vcpu_timeline_get_span (sync, &sync_first, &sync_last);
    cs_vcpu_timeline_get_span (peeked, &first, &last);
    g_assert_cmpint (first, ==, sync_first);
    g_assert_cmpint (last, ==, sync_last);
  }

  relation = _cs_stream_get_relation (guest);
  cs_stream_set_add (set, other_doc, NULL);
  cs_stream_set_move (set, guest, 0);
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_true (_cs_stream_get_relation (guest) == relation);
  g_assert_true (cs_stream_peek_vcpu_timeline (guest) == peeked);

  /* without its host the guest is unrelated: no view to draw */
  cs_stream_set_remove (set, host);
  g_assert_cmpint (cs_stream_get_alignment (guest), !=, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_null (cs_stream_peek_vcpu_timeline (guest));
  g_assert_cmpuint (n_updates, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/StreamSet/kvm-pair", test_kvm_pair);
  g_test_add_func ("/cs/index/StreamSet/kvm-guest-wrong-host", test_kvm_guest_wrong_host);
  g_test_add_func ("/cs/index/StreamSet/same-clock", test_same_clock);
  g_test_add_func ("/cs/index/StreamSet/unrelated", test_unrelated);
  g_test_add_func ("/cs/index/StreamSet/made-pairs", test_made_pairs);
  g_test_add_func ("/cs/index/StreamSet/vcpu-timeline-background",
                   test_vcpu_timeline_background);
  return g_test_run ();
}
