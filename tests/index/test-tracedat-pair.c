/* test-tracedat-pair.c: the project's own host/guest pair and pairs gone
 * wrong (issue 25, items 4 and 5), without ../shared.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/pair/pair-host-v6.dat and pair-guest-v6.dat were recorded
 * together on this kind of machine, the guest under QEMU TCG, by
 * tests/data/make-host-guest-pair.sh: both hold the markers of the same
 * clock exchanges ("cs-pair: send N" and "recv N" on the host, "cs-pair:
 * guest N" in the guest), and the guest's TIME_SHIFT option was measured
 * from them.  Checked here: the pair relates (CsTimeRelation); once
 * shifted, every guest marker falls between the host markers of its
 * exchange, and unshifted it does not (the shift matters); trace-cmd
 * report puts each at the same nanosecond; the GUEST
 * option's vCPU threads ran on the host during the recording;
 * `chronoscope info --peer --json` names the peer and the offsets.  Then
 * pairs made wrong by Chronoscope's writer (cs_test_rewrite_v6_peer(): a
 * guest without TIME_SHIFT, one naming another host, absurd offsets, a
 * host without the TRACEID its guest names) must fail to relate with the
 * right error, and `info --peer` must say so.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event-parse.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cs-test-data.h"
#include "tracedat-pair.h"

typedef struct {
  char *host_path;
  char *guest_path;
  CsTracedatReader *host;
  CsTracedatReader *guest;
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->host_path = cs_test_own_path ("pair/pair-host-v6.dat");
  f->guest_path = cs_test_own_path ("pair/pair-guest-v6.dat");
  f->host = cs_tracedat_reader_open (f->host_path, &error);
  g_assert_no_error (error);
  f->guest = cs_tracedat_reader_open (f->guest_path, &error);
  g_assert_no_error (error);
  f->dir = g_dir_make_tmp ("cs-pair-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  /* The files the tests write there (make_bad()). */
  g_autofree char *bad_guest = g_build_filename (f->dir, "bad-guest.dat", NULL);
  g_autofree char *bad_host = g_build_filename (f->dir, "bad-host.dat", NULL);

  g_unlink (bad_guest);
  g_unlink (bad_host);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_clear_object (&f->host);
  g_clear_object (&f->guest);
  g_free (f->host_path);
  g_free (f->guest_path);
}

/* ------------------------------------------------------------------------ */

static gint
compare_first (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
test_relates (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeRelation) relation = cs_time_relation_new (f->host, f->guest, &error);
  const CsTimeShift *shift;
  const CsTracedatGuest *entry;
  guint32 hm = 0, hs = 0, gm = 0, gs = 0;
  guint64 host_id = 0, guest_id = 0;
  guint n_vcpus = cs_tracedat_reader_get_n_cpus (f->guest);
  g_autoptr(GHashTable) tids_seen = g_hash_table_new (NULL, NULL);

  g_assert_no_error (error);
  g_assert_nonnull (relation);
  g_assert_true (cs_tracedat_reader_get_trace_id (f->host, &host_id));
  g_assert_true (cs_tracedat_reader_get_trace_id (f->guest, &guest_id));
  g_assert_cmpuint (host_id, !=, guest_id);
  g_assert_cmpstr (cs_tracedat_reader_get_clock (f->host), ==, "x86-tsc");
  g_assert_cmpstr (cs_tracedat_reader_get_clock (f->guest), ==, "x86-tsc");
  g_assert_true (cs_tracedat_reader_get_tsc2nsec (f->host, &hm, &hs));
  g_assert_true (cs_tracedat_reader_get_tsc2nsec (f->guest, &gm, &gs));
  g_assert_cmpuint (hm, ==, gm);
  g_assert_cmpuint (hs, ==, gs);

  shift = cs_time_relation_get_time_shift (relation);
  g_assert_cmpuint (shift->peer_trace_id, ==, host_id);
  g_assert_cmpuint (shift->flags & CS_TIME_SHIFT_FLAG_INTERPOLATE, !=, 0);
  g_assert_cmpuint (n_vcpus, ==, 2);
  g_assert_cmpuint (shift->n_vcpus, ==, n_vcpus);
  for (guint v = 0; v < n_vcpus; v++)
    {
      /* Samples over time, as trace-cmd's time sync takes them. */
      g_assert_cmpuint (shift->n_samples[v], >=, 2);
      g_assert_cmpint (shift->samples[v][0].time, <, shift->samples[v][shift->n_samples[v] - 1].time);
    }

  /* GUEST: each vCPU has its own host thread (multi-threaded TCG), and
   * that thread ran on the host's CPUs while it recorded. */
  entry = cs_time_relation_get_guest (relation);
  g_assert_nonnull (entry);
  g_assert_cmpuint (entry->trace_id, ==, guest_id);
  g_assert_cmpuint (entry->n_vcpus, ==, n_vcpus);
  g_assert_cmpint (entry->vcpu_tids[0], >, 0);
  g_assert_cmpint (entry->vcpu_tids[1], >, 0);
  g_assert_cmpint (entry->vcpu_tids[0], !=, entry->vcpu_tids[1]);
  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (f->host); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (f->host, cpu, &error);
      struct tep_handle *tep;
      CsTracedatRecord rec;

      g_assert_no_error (error);
      tep = cs_tracedat_cpu_get_tep (stream, &error);
      g_assert_no_error (error);
      while (cs_tracedat_cpu_next (stream, &rec, &error))
        g_hash_table_add (tids_seen, GINT_TO_POINTER (tep_data_pid (tep, rec.tep_record)));
      g_assert_no_error (error);
    }
  for (guint v = 0; v < n_vcpus; v++)
    g_assert_true (g_hash_table_contains (tids_seen, GINT_TO_POINTER (entry->vcpu_tids[v])));
}

static void
test_markers_line_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeRelation) relation = cs_time_relation_new (f->host, f->guest, &error);
  g_autoptr(GArray) send = cs_test_pair_read_marks (f->host, "send", &error);
  g_autoptr(GArray) recv = cs_test_pair_read_marks (f->host, "recv", &error);
  g_autoptr(GArray) got = cs_test_pair_read_marks (f->guest, "guest", &error);
  guint n = 0, per_vcpu[2] = { 0, 0 }, n_unshifted_inside = 0;

  g_assert_no_error (error);
  g_assert_nonnull (relation);
  for (guint i = 0; i < MIN (send->len, MIN (recv->len, got->len)); i++)
    {
      const CsTestPairMark *s, *r, *g;
      gint64 host_ns;

      if (!cs_test_pair_get_exchange (send, recv, got, i, &s, &r, &g))
        continue;
      g_assert_true (cs_time_relation_guest_to_host (relation, g->cpu, g->raw_ts, &host_ns));
      if (host_ns < s->ts_ns || host_ns > r->ts_ns)
        g_error ("exchange %u: the guest's marker on vCPU %u maps to %" G_GINT64_FORMAT
                 " ns, outside the host's send %" G_GINT64_FORMAT " and recv %" G_GINT64_FORMAT,
                 i, g->cpu, host_ns, s->ts_ns, r->ts_ns);
      if (g->ts_ns >= s->ts_ns && g->ts_ns <= r->ts_ns)
        n_unshifted_inside++;
      g_assert_cmpuint (g->cpu, <, 2);
      per_vcpu[g->cpu]++;
      n++;
    }
  g_test_message ("%u exchanges (vCPU 0: %u, vCPU 1: %u) line up", n, per_vcpu[0], per_vcpu[1]);
  g_assert_cmpuint (n, >=, 100);
  g_assert_cmpuint (per_vcpu[0], >=, 16);
  g_assert_cmpuint (per_vcpu[1], >=, 16);
  /* The guest's clock started at its boot: unshifted, nothing lines up. */
  g_assert_cmpuint (n_unshifted_inside, ==, 0);
}

/* When, on the host, the thread of @tid ran: sorted [begin, end) pairs of
 * host ns from the host's sched_switch events (the recording keeps only
 * those of the vCPU threads), open at the recording's ends. */
static GArray *
thread_runs (CsTracedatReader *host, gint32 tid, gint64 first_ns, gint64 last_ns)
{
  g_autoptr(GArray) edges = g_array_new (FALSE, FALSE, sizeof (gint64) * 2);
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (gint64) * 2);
  g_autoptr(GError) error = NULL;
  gint64 begin = G_MININT64;

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (host); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (host, cpu, &error);
      struct tep_handle *tep = cs_tracedat_cpu_get_tep (stream, &error);
      struct tep_event *sw;
      CsTracedatRecord rec;

      g_assert_no_error (error);
      sw = tep_find_event_by_name (tep, "sched", "sched_switch");
      g_assert_nonnull (sw);
      while (cs_tracedat_cpu_next (stream, &rec, &error))
        {
          unsigned long long prev = 0, next = 0;

          if (tep_data_type (tep, rec.tep_record) != sw->id)
            continue;
          tep_get_field_val (NULL, sw, "prev_pid", rec.tep_record, &prev, 0);
          tep_get_field_val (NULL, sw, "next_pid", rec.tep_record, &next, 0);
          /* (time, +1 in / -1 out) */
          if ((gint32) next == tid)
            g_array_append_vals (edges, (gint64[2]) { rec.ts_ns, 1 }, 1);
          if ((gint32) prev == tid)
            g_array_append_vals (edges, (gint64[2]) { rec.ts_ns, -1 }, 1);
        }
      g_assert_no_error (error);
    }
  g_array_sort (edges, compare_first);
  for (guint i = 0; i < edges->len; i++)
    {
      const gint64 *e = &g_array_index (edges, gint64, 2 * i);

      if (e[1] > 0)
        begin = e[0];
      else
        {
          g_array_append_vals (runs, (gint64[2]) { begin == G_MININT64 ? first_ns : begin, e[0] }, 1);
          begin = G_MAXINT64;
        }
    }
  if (begin != G_MAXINT64)
    g_array_append_vals (runs, (gint64[2]) { begin == G_MININT64 ? first_ns : begin, last_ns }, 1);
  return runs;
}

/* Under TCG a guest vCPU runs only while its host thread runs: every guest
 * event within the host's recording, shifted, falls in a run of its vCPU's
 * thread, give or take half the range of offsets the exchanges allow (the
 * option's offset is its middle; the true one is inside it). */
static void
test_events_in_vcpu_runs (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeRelation) relation = cs_time_relation_new (f->host, f->guest, &error);
  g_autoptr(GArray) send = cs_test_pair_read_marks (f->host, "send", &error);
  g_autoptr(GArray) recv = cs_test_pair_read_marks (f->host, "recv", &error);
  g_autoptr(GArray) got = cs_test_pair_read_marks (f->guest, "guest", &error);
  gint64 host_first = G_MAXINT64, host_last = G_MININT64;

  g_assert_no_error (error);
  for (guint i = 0; i < send->len; i++)
    if (g_array_index (send, CsTestPairMark, i).seen)
      host_first = MIN (host_first, g_array_index (send, CsTestPairMark, i).ts_ns);
  for (guint i = 0; i < recv->len; i++)
    if (g_array_index (recv, CsTestPairMark, i).seen)
      host_last = MAX (host_last, g_array_index (recv, CsTestPairMark, i).ts_ns);

  for (guint v = 0; v < cs_tracedat_reader_get_n_cpus (f->guest); v++)
    {
      g_autoptr(GArray) runs = thread_runs (f->host, cs_time_relation_get_vcpu_tid (relation, v),
                                            host_first, host_last);
      g_autoptr(CsTracedatCpu) stream = cs_tracedat_reader_open_cpu (f->guest, v, &error);
      gint64 lo = G_MININT64, hi = G_MAXINT64, slack_ns, worst = 0;
      guint n = 0, n_inside = 0, r = 0;
      CsTracedatRecord rec;

      g_assert_no_error (error);
      g_assert_cmpuint (runs->len, >, 0);
      /* The offsets the exchanges on this vCPU allow (ticks). */
      for (guint i = 0; i < got->len; i++)
        {
          const CsTestPairMark *s, *rv, *g;

          if (cs_test_pair_get_exchange (send, recv, got, i, &s, &rv, &g) && g->cpu == v)
            {
              lo = MAX (lo, (gint64) (s->raw_ts - g->raw_ts));
              hi = MIN (hi, (gint64) (rv->raw_ts - g->raw_ts));
            }
        }
      g_assert_cmpint (lo, <=, hi);
      slack_ns = (gint64) cs_tracedat_reader_ticks_to_ns (f->host, (guint64) (hi - lo));

      while (cs_tracedat_cpu_next (stream, &rec, &error))
        {
          gint64 t, gap = 0;

          g_assert_true (cs_time_relation_guest_to_host (relation, v, rec.raw_ts, &t));
          if (t < host_first || t > host_last)
            continue;
          while (r + 1 < runs->len && g_array_index (runs, gint64, 2 * r + 1) < t)
            r++;
          if (t < g_array_index (runs, gint64, 2 * r))
            gap = g_array_index (runs, gint64, 2 * r) - t;
          else if (t > g_array_index (runs, gint64, 2 * r + 1))
            gap = t - g_array_index (runs, gint64, 2 * r + 1);
          if (r > 0 && gap > 0)
            gap = MIN (gap, t - g_array_index (runs, gint64, 2 * r - 1));
          worst = MAX (worst, gap);
          n_inside += gap == 0;
          n++;
        }
      g_assert_no_error (error);
      g_test_message ("vCPU %u: %u of %u guest events inside a run of host thread %d, "
                      "the others at most %" G_GINT64_FORMAT " ns off (offset known to %"
                      G_GINT64_FORMAT " ns)", v, n_inside, n,
                      cs_time_relation_get_vcpu_tid (relation, v), worst, slack_ns);
      g_assert_cmpuint (n, >=, 50);
      /* The true offset is within the range, the option's in its middle. */
      g_assert_cmpint (worst, <=, slack_ns / 2 + 2);
    }
}

/* libtracecmd (trace-cmd report, which applies a guest file's TIME_SHIFT
 * and TSC2NSEC) puts every guest marker at the nanosecond where
 * CsTimeRelation puts it. */
static void
test_trace_cmd_agrees (Fixture *f, gconstpointer data)
{
  const char *trace_cmd = g_getenv ("TRACE_CMD");
  const char *argv[] = { trace_cmd != NULL ? trace_cmd : "trace-cmd", "report", "-t",
                         f->guest_path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeRelation) relation = cs_time_relation_new (f->host, f->guest, &error);
  g_autoptr(GArray) got = cs_test_pair_read_marks (f->guest, "guest", &error);
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int status = -1;
  guint n = 0;

  g_assert_no_error (error);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      /* "  pair-probe-116   [000] 34542.736470460: print: …: cs-pair: guest 0" */
      const char *mark = strstr (lines[i], "cs-pair: guest ");
      const char *bracket = strstr (lines[i], "] ");
      guint64 secs = 0, nsecs = 0, seq = 0;
      const CsTestPairMark *g;
      gint64 ns;

      if (mark == NULL || bracket == NULL ||
          sscanf (bracket + 2, "%" G_GUINT64_FORMAT ".%9" G_GUINT64_FORMAT ":", &secs, &nsecs) != 2 ||
          !g_ascii_string_to_unsigned (mark + strlen ("cs-pair: guest "), 10, 0, got->len - 1, &seq, NULL))
        continue;
      g = &g_array_index (got, CsTestPairMark, seq);
      g_assert_true (g->seen);
      g_assert_true (cs_time_relation_guest_to_host (relation, g->cpu, g->raw_ts, &ns));
      g_assert_cmpint (ns, ==, (gint64) (secs * G_GUINT64_CONSTANT (1000000000) + nsecs));
      n++;
    }
  g_assert_cmpuint (n, ==, got->len);
}

/* The writer's peer options read back as they were: each file of the pair
 * rewritten with the options the reader found in it is the same file,
 * byte for byte. */
static void
test_rewrite_same (Fixture *f, gconstpointer data)
{
  CsTracedatReader *readers[] = { f->host, f->guest };
  const char *paths[] = { f->host_path, f->guest_path };

  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CsTimeShift) shift = cs_tracedat_reader_dup_time_shift (readers[i], NULL);
      g_autoptr(GPtrArray) guests = cs_tracedat_reader_dup_guests (readers[i], NULL);
      g_autofree char *out = g_build_filename (f->dir, i == 0 ? "bad-host.dat" : "bad-guest.dat", NULL);
      g_autofree char *a = NULL, *b = NULL;
      gsize na = 0, nb = 0;
      CsTestPeerOptions peer = { 0 };

      peer.has_trace_id = cs_tracedat_reader_get_trace_id (readers[i], &peer.trace_id);
      peer.time_shift = shift;
      peer.guest = guests->len > 0 ? g_ptr_array_index (guests, 0) : NULL;
      cs_tracedat_reader_get_tsc2nsec (readers[i], &peer.tsc2nsec_mult, &peer.tsc2nsec_shift);
      g_assert_true ((shift != NULL) == (i == 1) && (peer.guest != NULL) == (i == 0));
      g_assert_true (cs_test_rewrite_v6_peer (paths[i], out, &peer, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (paths[i], &a, &na, NULL));
      g_assert_true (g_file_get_contents (out, &b, &nb, NULL));
      g_assert_cmpmem (a, na, b, nb);
    }
}

/* ------------------------------------------------------------------------ */
/* `chronoscope info --peer` */

static char *
run_info (const char *path, const char *peer, gboolean json)
{
  const char *exe = g_getenv ("CHRONOSCOPE");
  const char *argv[8] = { exe, "-q", "info", path, NULL };
  guint argc = 4;
  g_auto(GStrv) envp = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_nonnull (exe);
  if (peer != NULL)
    {
      argv[argc++] = "--peer";
      argv[argc++] = peer;
    }
  if (json)
    argv[argc++] = "--json";
  /* The messages in English, as the assertions read them. */
  envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("chronoscope info %s --peer %s failed: %s%s", path, peer ? peer : "(none)", out, err);
  return out;
}

/* Alone, the guest says that its times are its own: its TIME_SHIFT names a
 * host it does not apply. */
static void
test_info_alone (Fixture *f, gconstpointer data)
{
  g_autofree char *out = run_info (f->guest_path, NULL, FALSE);
  guint64 host_id = 0;
  g_autofree char *line = NULL;

  g_assert_true (cs_tracedat_reader_get_trace_id (f->host, &host_id));
  line = g_strdup_printf ("Host:          trace ID 0x%016" PRIX64 " (this recording is its guest; "
                          "its TIME_SHIFT is not applied to the times below)", host_id);
  g_assert_nonnull (strstr (out, line));
  g_assert_null (strstr (out, "Aligned with:"));
}

static void
test_info_peer_json (Fixture *f, gconstpointer data)
{
  g_autofree char *out = run_info (f->guest_path, f->host_path, TRUE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeShift) shift = cs_tracedat_reader_dup_time_shift (f->guest, &error);
  JsonObject *root, *peer, *ts;
  JsonArray *vcpus;
  guint64 host_id = 0;
  g_autofree char *host_id_text = NULL;

  g_assert_no_error (error);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (cs_tracedat_reader_get_trace_id (f->host, &host_id));
  host_id_text = g_strdup_printf ("0x%016" PRIX64, host_id);

  peer = json_object_get_object_member (root, "peer");
  g_assert_nonnull (peer);
  g_assert_cmpstr (json_object_get_string_member (peer, "file"), ==, f->host_path);
  g_assert_cmpstr (json_object_get_string_member (peer, "role"), ==, "host");
  g_assert_true (json_object_get_boolean_member (peer, "related"));
  g_assert_true (json_object_get_null_member (peer, "error"));

  /* The offsets are the option's, sample by sample. */
  ts = json_object_get_object_member (root, "time_shift");
  g_assert_nonnull (ts);
  g_assert_cmpstr (json_object_get_string_member (ts, "peer_trace_id"), ==, host_id_text);
  vcpus = json_object_get_array_member (ts, "vcpus");
  g_assert_cmpuint (json_array_get_length (vcpus), ==, shift->n_vcpus);
  for (guint v = 0; v < shift->n_vcpus; v++)
    {
      JsonArray *samples = json_object_get_array_member (json_array_get_object_element (vcpus, v),
                                                         "samples");

      g_assert_cmpuint (json_array_get_length (samples), ==, shift->n_samples[v]);
      for (guint i = 0; i < shift->n_samples[v]; i++)
        {
          JsonObject *s = json_array_get_object_element (samples, i);
          guint32 mult = 0, sh = 0;

          g_assert_true (cs_tracedat_reader_get_tsc2nsec (f->guest, &mult, &sh));
          g_assert_cmpint (json_object_get_int_member (s, "time"), ==, shift->samples[v][i].time);
          g_assert_cmpint (json_object_get_int_member (s, "offset"), ==, shift->samples[v][i].offset);
          g_assert_cmpint (json_object_get_int_member (s, "offset_ns"), ==,
                           (gint64) (((unsigned __int128) shift->samples[v][i].offset * mult) >> sh));
          g_assert_cmpint (json_object_get_int_member (s, "scaling"), ==, 1);
          g_assert_cmpint (json_object_get_int_member (s, "fraction_bits"), ==, 0);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Pairs gone wrong, made by the writer */

typedef enum {
  BAD_NO_PEER,
  BAD_OTHER_HOST,
  BAD_ABSURD_OFFSET,
  BAD_HOST_WITHOUT_ID,
} Bad;

/* Rewrites the guest (or for BAD_HOST_WITHOUT_ID the host, without its
 * TRACEID and GUEST options) as @bad asks; returns the new file's path. */
static char *
make_bad (Fixture *f, Bad bad, guint64 *named_host)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTimeShift) shift = cs_tracedat_reader_dup_time_shift (f->guest, &error);
  char *path = g_build_filename (f->dir, bad == BAD_HOST_WITHOUT_ID ? "bad-host.dat"
                                                                     : "bad-guest.dat", NULL);
  CsTestPeerOptions peer = { 0 };

  g_assert_no_error (error);
  *named_host = shift->peer_trace_id;
  if (bad == BAD_HOST_WITHOUT_ID)
    {
      cs_tracedat_reader_get_tsc2nsec (f->host, &peer.tsc2nsec_mult, &peer.tsc2nsec_shift);
      g_assert_true (cs_test_rewrite_v6_peer (f->host_path, path, &peer, &error));
      g_assert_no_error (error);
      return path;
    }
  peer.has_trace_id = cs_tracedat_reader_get_trace_id (f->guest, &peer.trace_id);
  cs_tracedat_reader_get_tsc2nsec (f->guest, &peer.tsc2nsec_mult, &peer.tsc2nsec_shift);
  peer.time_shift = shift;
  if (bad == BAD_NO_PEER)
    peer.time_shift = NULL;
  else if (bad == BAD_OTHER_HOST)
    shift->peer_trace_id ^= G_GUINT64_CONSTANT (0x0123456789ABCDEF);
  else
    /* Ten days of ticks added: the guest's samples land far past the
     * host's recording. */
    for (guint v = 0; v < shift->n_vcpus; v++)
      for (guint i = 0; i < shift->n_samples[v]; i++)
        shift->samples[v][i].offset += G_GINT64_CONSTANT (2600000000) * 86400 * 10;
  *named_host = shift->peer_trace_id;
  g_assert_true (cs_test_rewrite_v6_peer (f->guest_path, path, &peer, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_bad (Fixture *f, gconstpointer data)
{
  Bad bad = GPOINTER_TO_INT (data);
  static const int codes[] = {
    [BAD_NO_PEER] = CS_TRACEDAT_CLOCK_ERROR_NO_PEER,
    [BAD_OTHER_HOST] = CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER,
    [BAD_ABSURD_OFFSET] = CS_TRACEDAT_CLOCK_ERROR_ABSURD_OFFSET,
    [BAD_HOST_WITHOUT_ID] = CS_TRACEDAT_CLOCK_ERROR_WRONG_PEER,
  };
  gboolean bad_host = bad == BAD_HOST_WITHOUT_ID;
  guint64 named = 0, host_id = 0;
  g_autofree char *path = make_bad (f, bad, &named);
  const char *guest_path = bad_host ? f->guest_path : path;
  const char *host_path = bad_host ? path : f->host_path;
  g_autoptr(GError) error = NULL;
  g_autoptr(CsTracedatReader) bad_reader = cs_tracedat_reader_open (path, &error);
  CsTracedatReader *original = bad_host ? f->host : f->guest;
  g_autoptr(CsTimeRelation) relation = NULL;
  g_autofree char *text = NULL, *json = NULL;
  g_autofree char *named_text = g_strdup_printf ("0x%016" PRIX64, named);
  g_autofree char *host_text = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) json_error = NULL;
  JsonObject *peer;

  g_assert_no_error (error);
  g_assert_true (cs_tracedat_reader_get_trace_id (f->host, &host_id));
  host_text = g_strdup_printf ("0x%016" PRIX64, host_id);

  /* The rest of the file is as it was. */
  g_assert_cmpuint (cs_tracedat_reader_get_n_cpus (bad_reader), ==, cs_tracedat_reader_get_n_cpus (original));
  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (bad_reader); cpu++)
    g_assert_cmpuint (cs_tracedat_reader_get_cpu_data_size (bad_reader, cpu), ==,
                      cs_tracedat_reader_get_cpu_data_size (original, cpu));

  relation = bad_host ? cs_time_relation_new (bad_reader, f->guest, &error)
                      : cs_time_relation_new (f->host, bad_reader, &error);
  g_assert_null (relation);
  g_assert_error (error, CS_TRACEDAT_CLOCK_ERROR, codes[bad]);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, base));

  /* `info --peer` says why it is not aligned. */
  text = run_info (guest_path, host_path, FALSE);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Not aligned:"));
  g_assert_nonnull (strstr (text, error->message));
  g_assert_null (strstr (text, "Aligned with:"));
  json = run_info (guest_path, host_path, TRUE);
  json_parser_load_from_data (parser, json, -1, &json_error);
  g_assert_no_error (json_error);
  peer = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "peer");
  g_assert_false (json_object_get_boolean_member (peer, "related"));
  g_assert_cmpstr (json_object_get_string_member (peer, "error"), ==, error->message);

  switch (bad)
    {
    case BAD_NO_PEER:
      g_assert_nonnull (strstr (error->message, "no TIME_SHIFT"));
      break;
    case BAD_OTHER_HOST:
      /* Both trace IDs, the named one and the host's. */
      g_assert_nonnull (strstr (error->message, named_text));
      g_assert_nonnull (strstr (error->message, host_text));
      break;
    case BAD_ABSURD_OFFSET:
      g_assert_nonnull (strstr (error->message, "TIME_SHIFT offsets"));
      break;
    case BAD_HOST_WITHOUT_ID:
      /* The host the guest names is not that file. */
      g_assert_nonnull (strstr (error->message, "no TRACEID"));
      g_assert_nonnull (strstr (error->message, named_text));
      break;
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/index/TimeRelation/own-pair/relates", Fixture, NULL,
              fixture_setup, test_relates, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/markers-line-up", Fixture, NULL,
              fixture_setup, test_markers_line_up, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/events-in-vcpu-runs", Fixture, NULL,
              fixture_setup, test_events_in_vcpu_runs, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/trace-cmd-agrees", Fixture, NULL,
              fixture_setup, test_trace_cmd_agrees, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/rewrite-same", Fixture, NULL,
              fixture_setup, test_rewrite_same, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/info-alone", Fixture, NULL,
              fixture_setup, test_info_alone, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/info-peer-json", Fixture, NULL,
              fixture_setup, test_info_peer_json, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/no-peer", Fixture, GINT_TO_POINTER (BAD_NO_PEER),
              fixture_setup, test_bad, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/other-host", Fixture, GINT_TO_POINTER (BAD_OTHER_HOST),
              fixture_setup, test_bad, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/absurd-offset", Fixture,
              GINT_TO_POINTER (BAD_ABSURD_OFFSET), fixture_setup, test_bad, fixture_teardown);
  g_test_add ("/cs/index/TimeRelation/own-pair/host-without-trace-id", Fixture,
              GINT_TO_POINTER (BAD_HOST_WITHOUT_ID), fixture_setup, test_bad, fixture_teardown);
  return g_test_run ();
}
