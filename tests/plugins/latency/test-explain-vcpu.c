/* test-explain-vcpu.c: a guest's wakeup latency split into the guest's
 * own wait and the time its vCPU was out of the guest (issue 25, item 3).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The guest is opened with its host on one axis (a CsStreamSet, as the
 * window and `chronoscope latency GUEST --add HOST` make it).  For its
 * longest wakeups (SQL's wakeups table of the guest stream):
 *   - cs_plugin_document_get_vcpu_out() gives, over [A, B) on B's CPU,
 *     exactly what SQL's vcpu_out_ns() / vcpu_not_running_ns() sum;
 *   - the breakdown (cs_explain_wakeup_pair()) still adds up to B − A,
 *     its slices tile [A, B), and its vCPU parts are the host's view of
 *     the slices' CPUs: for a pair that waited on B's CPU alone, within
 *     2 ns per slice edge of SQL's figure;
 *   - the guest alone gets no vCPU part;
 *   - `chronoscope latency GUEST --add HOST --explain N --json` prints
 *     the same kinds of parts, adding up to each pair's duration.
 * On the project's own pair (tests/data/pair, the guest under QEMU TCG:
 * its host recorded sched_switch but no kvm event) only the time not
 * running is known; on the real KVM pair (../shared/testdata/kvm, no
 * sched_switch on its host) the exits are, and the test is skipped with a
 * message where that pair is absent.
 */
#include "config.h"

#include <string.h>

#include "builtin-test-host.h"
#include "cs-explain.h"
#include "cs-sql-query.h"
#include "cs-sql-session.h"
#include "cs-test-data.h"

typedef struct {
  gint32 pid;
  gint64 a_ns;
  gint64 b_ns;
  gint cpu;
  gboolean known;
  gint64 sql_ns;
} Wakeup;

typedef struct {
  guint cpu;
  gboolean found;
  gint32 pid;
} FindWaking;

static gboolean
find_waking_cb (const CsPluginEvent *event,
                gpointer             user_data)
{
  FindWaking *f = user_data;
  gint64 pid = -1;

  if (cs_plugin_event_get_int (event, "pid", &pid) && pid == f->pid)
    {
      f->cpu = event->cpu;
      f->found = TRUE;
      return FALSE;
    }
  return TRUE;
}

/* The CPU that logged the wakeup of @pid at @ts_ns. */
static guint
waking_cpu (CsPluginDocument *doc, gint32 pid, gint64 ts_ns)
{
  static const char *const types[] = { "sched:sched_waking", "sched:sched_wakeup",
                                       "sched:sched_wakeup_new", NULL };
  FindWaking f = { 0, FALSE, pid };
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_plugin_document_foreach_event (doc, -1, ts_ns, ts_ns + 1, types,
                                                   find_waking_cb, &f, &error));
  g_assert_no_error (error);
  g_assert_true (f.found);
  return f.cpu;
}

static void
check_pair (const char *guest_path,
            const char *host_path,
            gboolean    exits)
{
  CsBuiltinFixture fixture = { 0 };
  g_autoptr(CsDocument) host = NULL;
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  g_autoptr(CsSqlSession) session = NULL;
  g_autoptr(CsSqlQuery) q = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) wakeups = g_array_new (FALSE, FALSE, sizeof (Wakeup));
  g_autofree char *sql = NULL;
  CsStream *guest;
  guint n_split = 0, n_compared = 0, n_exact = 0, n_known = 0;
  gint64 total_out = 0, total = 0;

  cs_builtin_fixture_set_up_path (&fixture, "latency", guest_path);
  host = cs_document_load (host_path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  guest = cs_stream_set_add (set, fixture.base.document, NULL);
  cs_stream_set_set_reference (set, guest);
  cs_stream_set_add (set, host, NULL);
  g_assert_true (cs_stream_is_aligned (cs_stream_set_get_stream (set, 1)));

  /* The guest's longest wakeups, with SQL's figure for each. */
  session = cs_sql_session_new_for_streams (set, &error);
  g_assert_no_error (error);
  sql = g_strdup_printf ("SELECT pid, ts, run_ts, cpu, %s(0, cpu, ts, run_ts) FROM wakeups "
                         "WHERE stream = 0 AND cpu IS NOT NULL ORDER BY latency_ns DESC LIMIT 60",
                         exits ? "vcpu_out_ns" : "vcpu_not_running_ns");
  q = cs_sql_session_prepare (session, sql, &error);
  g_assert_no_error (error);
  while (cs_sql_query_next (q, &error))
    {
      Wakeup w = { (gint32) cs_sql_query_get_int64 (q, 0), cs_sql_query_get_int64 (q, 1),
                   cs_sql_query_get_int64 (q, 2), (gint) cs_sql_query_get_int64 (q, 3),
                   cs_sql_query_get_value_type (q, 4) != CS_SQL_NULL,
                   cs_sql_query_get_int64 (q, 4) };

      g_array_append_val (wakeups, w);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (wakeups->len, >, 10);
  _cs_plugin_document_set_stream (fixture.plugins, guest, set);

  for (guint i = 0; i < wakeups->len; i++)
    {
      const Wakeup *w = &g_array_index (wakeups, Wakeup, i);
      g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (CsPluginVcpuInterval));
      g_autoptr(CsExplainBreakdown) b = NULL;
      gboolean exits_known = FALSE, known;
      gint64 api_ns = 0, sum = 0, vcpu_ns = 0, at;
      g_autoptr(GError) local = NULL;

      /* The API's intervals are SQL's figure, to the nanosecond. */
      known = cs_plugin_document_get_vcpu_out (fixture.plugins, (guint) w->cpu, w->a_ns, w->b_ns,
                                               out, &exits_known, &local);
      g_assert_true (known || g_error_matches (local, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY));
      at = w->a_ns;
      for (guint k = 0; k < out->len; k++)
        {
          const CsPluginVcpuInterval *iv = &g_array_index (out, CsPluginVcpuInterval, k);

          g_assert_cmpint (iv->begin_ns, >=, at);
          g_assert_cmpint (iv->end_ns, >, iv->begin_ns);
          g_assert_cmpint (iv->end_ns, <=, w->b_ns);
          at = iv->end_ns;
          if (exits || iv->state == CS_PLUGIN_VCPU_NOT_RUNNING)
            api_ns += iv->end_ns - iv->begin_ns;
        }
      g_assert_cmpint (known && (exits ? exits_known : TRUE), ==, w->known);
      if (w->known)
        {
          g_assert_cmpint (api_ns, ==, w->sql_ns);
          n_known++;
        }

      /* The breakdown with the host's view. */
      b = cs_explain_wakeup_pair (fixture.plugins, w->pid, w->a_ns,
                                  waking_cpu (fixture.plugins, w->pid, w->a_ns), w->b_ns,
                                  (guint) w->cpu, TRUE, &error);
      g_assert_no_error (error);
      g_assert_nonnull (b);
      for (guint k = 0; k < b->contributors->len; k++)
        {
          const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, k);

          g_assert_cmpint (c->ns, >, 0);
          sum += c->ns;
          if (c->kind == CS_EXPLAIN_VCPU_EXIT || c->kind == CS_EXPLAIN_VCPU_NOT_RUNNING)
            vcpu_ns += c->ns;
          if (!exits)
            g_assert_cmpint (c->kind, !=, CS_EXPLAIN_VCPU_EXIT);
        }
      g_assert_cmpint (sum, ==, w->b_ns - w->a_ns);
      g_assert_nonnull (b->slices);
      {
        g_autofree gint64 *per = g_new0 (gint64, b->contributors->len);
        gboolean one_cpu = TRUE;

        at = w->a_ns;
        for (guint k = 0; k < b->slices->len; k++)
          {
            const CsExplainSlice *s = &g_array_index (b->slices, CsExplainSlice, k);

            g_assert_cmpint (s->begin_ns, ==, at);
            g_assert_cmpint (s->end_ns, >, s->begin_ns);
            g_assert_cmpuint (s->contributor, <, b->contributors->len);
            per[s->contributor] += s->end_ns - s->begin_ns;
            one_cpu = one_cpu && s->cpu == (guint) w->cpu;
            at = s->end_ns;
          }
        g_assert_cmpint (at, ==, w->b_ns);
        for (guint k = 0; k < b->contributors->len; k++)
          g_assert_cmpint (per[k], ==, g_array_index (b->contributors, CsExplainContributor, k).ns);
        /* Waited on B's CPU alone: the split is SQL's figure, but for
         * the rounding of the inner edges at each slice's ends. */
        if (one_cpu && w->known)
          {
            g_assert_cmpint (ABS (vcpu_ns - w->sql_ns), <=, 2 * (gint64) b->slices->len);
            n_compared++;
            n_exact += vcpu_ns == w->sql_ns;
          }
      }
      n_split += vcpu_ns > 0;
      total_out += vcpu_ns;
      total += w->b_ns - w->a_ns;
    }
  g_test_message ("%u wakeups (%u with the host's view): %u split, %" G_GINT64_FORMAT " ns of %"
                  G_GINT64_FORMAT " ns with the vCPU %s; %u compared with SQL, %u to the ns",
                  wakeups->len, n_known, n_split, total_out, total,
                  exits ? "out of the guest" : "not running", n_compared, n_exact);
  g_assert_cmpuint (n_known, >, 0);
  g_assert_cmpuint (n_split, >, 0);
  g_assert_cmpuint (n_compared, >, 0);
  g_assert_cmpint (total_out, <, total);

  /* The guest alone: no host, no vCPU part. */
  _cs_plugin_document_set_stream (fixture.plugins, NULL, NULL);
  {
    const Wakeup *w = &g_array_index (wakeups, Wakeup, 0);
    g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (CsPluginVcpuInterval));
    g_autoptr(CsExplainBreakdown) b = NULL;

    g_assert_false (cs_plugin_document_get_vcpu_out (fixture.plugins, (guint) w->cpu, w->a_ns,
                                                     w->b_ns, out, NULL, &error));
    g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY);
    g_clear_error (&error);
    b = cs_explain_wakeup_pair (fixture.plugins, w->pid, w->a_ns,
                                waking_cpu (fixture.plugins, w->pid, w->a_ns), w->b_ns,
                                (guint) w->cpu, TRUE, &error);
    g_assert_no_error (error);
    for (guint k = 0; k < b->contributors->len; k++)
      g_assert_cmpint (g_array_index (b->contributors, CsExplainContributor, k).kind, <,
                       CS_EXPLAIN_VCPU_EXIT);
  }
  g_clear_pointer (&q, cs_sql_query_free);
  g_clear_object (&session);
  cs_builtin_fixture_tear_down (&fixture);
}

/* The command line: GUEST --add HOST splits its worst pairs too; without
 * --add, no vCPU part. */
static void
check_cli (const char *guest_path,
           const char *host_path,
           gboolean    exits)
{
  for (guint with_host = 0; with_host < 2; with_host++)
    {
      const char *args[] = { "latency", guest_path, "--preset", "wakeup", "--explain", "60",
                             "--depth", "1", "--json", with_host ? "--add" : NULL, host_path, NULL };
      g_autofree char *out = cs_builtin_run_chronoscope (args);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonArray *pairs;
      guint n_vcpu = 0;

      json_parser_load_from_data (parser, out, -1, &error);
      g_assert_no_error (error);
      pairs = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "pairs");
      g_assert_cmpuint (json_array_get_length (pairs), >, 10);
      for (guint i = 0; i < json_array_get_length (pairs); i++)
        {
          JsonObject *pair = json_array_get_object_element (pairs, i);
          JsonArray *parts = json_object_get_array_member (pair, "breakdown");
          gint64 sum = 0;

          for (guint k = 0; k < json_array_get_length (parts); k++)
            {
              JsonObject *c = json_array_get_object_element (parts, k);
              const char *kind = json_object_get_string_member (c, "kind");

              sum += json_object_get_int_member (c, "ns");
              if (g_str_has_prefix (kind, "vcpu_"))
                {
                  g_assert_true (with_host);
                  g_assert_true (exits || g_str_equal (kind, "vcpu_not_running"));
                  n_vcpu++;
                }
            }
          g_assert_cmpint (sum, ==, json_object_get_int_member (pair, "duration_ns"));
        }
      g_test_message ("latency --explain 60%s: %u vCPU parts", with_host ? " --add HOST" : "",
                      n_vcpu);
      if (with_host)
        g_assert_cmpuint (n_vcpu, >, 0);
    }
}

static void
test_own_pair (void)
{
  g_autofree char *host = cs_test_own_path ("pair/pair-host-v6.dat");
  g_autofree char *guest = cs_test_own_path ("pair/pair-guest-v6.dat");

  check_pair (guest, host, FALSE);
  check_cli (guest, host, FALSE);
}

static void
test_kvm_pair (void)
{
  g_autofree char *host = cs_test_kvm_path ("kvm-host-x86-v7-zlib.dat");
  g_autofree char *guest = host != NULL ? cs_test_kvm_path ("kvm-guest-x86-v7-zlib.dat") : NULL;

  if (guest == NULL)
    return;        /* skipped: cs_test_kvm_path() says why */
  check_pair (guest, host, TRUE);
  check_cli (guest, host, TRUE);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/plugins/latency/ExplainVcpu/own-pair", test_own_pair);
  g_test_add_func ("/cs/plugins/latency/ExplainVcpu/kvm-pair", test_kvm_pair);
  return g_test_run ();
}
