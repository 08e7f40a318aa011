/* test-kmod-pass.c: the kmod plugin's pass against `trace-cmd report`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/kmod-sections-v7.dat was recorded in the QEMU guest of the
 * kmod test (tests/data/README.md): a 20 ms irqs-off section on CPU 1, then
 * a sleeper delayed behind a 300 ms preempt-off section there.  What the
 * plugin's pass pairs and reads into its tables, and what its `info
 * --json` member lists, is compared with tests/oracle/kmod-events.py,
 * which lists the module's events as `trace-cmd report -t` prints them.
 * (These are the assertions tests/index/test-kmod-sections.c made of the
 * analysis when it lived in index/.)
 */
#include "config.h"

#include <string.h>

#include "cs-document-private.h"
#include "index-test-util.h"
#include "builtin-test-host.h"
#include "kmod-test-util.h"

static const CsTestRecording kmod = { "kmod-sections-v7.dat" };
static const CsTestRecording sched_v7 = { "sched-irq-v7.dat" };

/* The plugin enabled on the recording; each test runs its pass. */
static void
fixture_set_up (CsBuiltinFixture *fixture,
                gconstpointer     data)
{
  cs_builtin_fixture_set_up (fixture, "kmod", data);
}

static void
fixture_tear_down (CsBuiltinFixture *fixture,
                   gconstpointer     data)
{
  cs_builtin_fixture_tear_down (fixture);
}

static void
assert_section_matches_report (const KmodTestSection *s,
                               JsonArray             *events,
                               const char            *begin_name,
                               const char            *end_name)
{
  JsonObject *begin = cs_test_oracle_event (events, begin_name, 0);
  JsonObject *end = cs_test_oracle_event (events, end_name, 0);

  g_assert_nonnull (begin);
  g_assert_nonnull (end);
  g_assert_null (cs_test_oracle_event (events, begin_name, 1));
  g_assert_cmpint (s->begin_ns, ==, json_object_get_int_member (begin, "ts_ns"));
  g_assert_cmpint (s->end_ns, ==, json_object_get_int_member (end, "ts_ns"));
  g_assert_cmpuint (s->cpu, ==, json_object_get_int_member (begin, "cpu"));
  g_assert_cmpuint (s->cpu, ==, json_object_get_int_member (end, "cpu"));
  g_assert_cmpuint (s->requested_ns, ==, cs_test_oracle_field (begin, "requested_ns"));
  g_assert_cmpuint (s->requested_ns, ==, cs_test_oracle_field (end, "requested_ns"));
  g_assert_cmpuint (s->measured_ns, ==, cs_test_oracle_field (end, "measured_ns"));
}

static void
test_sections_match_report (CsBuiltinFixture *fixture,
                           gconstpointer     data)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  g_autoptr(GArray) all = NULL;
  const KmodTestSection *irqs, *preempt;

  kmod_test_run_pass (fixture->plugins, fixture->plugin);
  all = kmod_test_get_sections (fixture->plugins, fixture->plugin);

  g_assert_cmpuint (all->len, ==, 2);

  irqs = kmod_test_only_section (all, KMOD_TEST_IRQS_OFF);
  assert_section_matches_report (irqs, events, "irqs_off_begin", "irqs_off_end");
  /* The scenario asked for 20 ms on CPU 1; the trace clock agrees. */
  g_assert_cmpuint (irqs->cpu, ==, 1);
  g_assert_cmpuint (irqs->requested_ns, ==, 20000000);
  g_assert_cmpint (irqs->end_ns - irqs->begin_ns, >=, 18000000);
  g_assert_cmpint (irqs->end_ns - irqs->begin_ns, <=, 40000000);

  preempt = kmod_test_only_section (all, KMOD_TEST_PREEMPT_OFF);
  assert_section_matches_report (preempt, events, "preempt_off_begin", "preempt_off_end");
  g_assert_cmpint (preempt->begin_ns, >, irqs->end_ns);
}

static void
test_wakeup_latency_names_sleeper (CsBuiltinFixture *fixture,
                                  gconstpointer     data)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  g_autoptr(GArray) all = NULL;
  JsonObject *want = cs_test_oracle_event (events, "wakeup_latency", 0);
  JsonObject *mark = cs_test_oracle_event (events, "mark", 1);
  const KmodTestLatency *l;
  const char *text;
  gint64 sleeper;

  g_assert_nonnull (want);
  g_assert_null (cs_test_oracle_event (events, "wakeup_latency", 1));
  /* The scenario names its sleeper in the second mark: "... sleeper PID". */
  g_assert_nonnull (mark);
  text = json_object_get_string_member (json_object_get_object_member (mark, "fields"), "text");
  g_assert_nonnull (strstr (text, "sleeper "));
  sleeper = g_ascii_strtoll (strstr (text, "sleeper ") + 8, NULL, 10);

  kmod_test_run_pass (fixture->plugins, fixture->plugin);
  all = kmod_test_get_latencies (fixture->plugins, fixture->plugin);
  g_assert_cmpuint (all->len, ==, 1);
  l = &g_array_index (all, KmodTestLatency, 0);
  g_assert_cmpint (l->pid, ==, sleeper);
  g_assert_cmpint (l->pid, ==, cs_test_oracle_field (want, "pid"));
  g_assert_cmpstr (l->comm, ==, "sleep");
  g_assert_cmpint (l->time_ns, ==, json_object_get_int_member (want, "ts_ns"));
  g_assert_cmpuint (l->cpu, ==, json_object_get_int_member (want, "cpu"));
  g_assert_cmpint (l->target_cpu, ==, cs_test_oracle_field (want, "target_cpu"));
  g_assert_cmpuint (l->latency_ns, ==, cs_test_oracle_field (want, "latency_ns"));
  g_assert_cmpuint (l->threshold_ns, ==, cs_test_oracle_field (want, "threshold_ns"));
  g_assert_cmpuint (l->latency_ns, >, l->threshold_ns);
}

/* The "kmod" member of `info --json` lists what the pass wrote, in the
 * shape tests/kmod/check-demos.py reads. */
static void
test_json_lists_results (CsBuiltinFixture *fixture,
                        gconstpointer     data)
{
  g_autoptr(GArray) sections = NULL;
  g_autoptr(GArray) latencies = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *member;
  JsonArray *json_sections, *json_latencies;

  kmod_test_run_pass (fixture->plugins, fixture->plugin);
  sections = kmod_test_get_sections (fixture->plugins, fixture->plugin);
  latencies = kmod_test_get_latencies (fixture->plugins, fixture->plugin);
  root = kmod_test_build_json (fixture->plugins, fixture->plugin);
  member = json_object_get_object_member (json_node_get_object (root), "kmod");
  json_sections = json_object_get_array_member (member, "sections");
  json_latencies = json_object_get_array_member (member, "wakeup_latencies");

  g_assert_cmpuint (json_array_get_length (json_sections), ==, sections->len);
  for (guint i = 0; i < sections->len; i++)
    {
      const KmodTestSection *s = &g_array_index (sections, KmodTestSection, i);
      JsonObject *o = json_array_get_object_element (json_sections, i);

      g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==,
                       s->kind == KMOD_TEST_IRQS_OFF ? "irqs-off" : "preempt-off");
      g_assert_cmpint (json_object_get_int_member (o, "cpu"), ==, s->cpu);
      g_assert_cmpint (json_object_get_int_member (o, "begin_ns"), ==, s->begin_ns);
      g_assert_cmpint (json_object_get_int_member (o, "end_ns"), ==, s->end_ns);
      g_assert_cmpint (json_object_get_int_member (o, "requested_ns"), ==, s->requested_ns);
      g_assert_cmpint (json_object_get_int_member (o, "measured_ns"), ==, s->measured_ns);
    }
  /* Sorted by begin. */
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (json_sections, 0), "begin_ns"),
                   <, json_object_get_int_member (json_array_get_object_element (json_sections, 1), "begin_ns"));

  g_assert_cmpuint (json_array_get_length (json_latencies), ==, latencies->len);
  for (guint i = 0; i < latencies->len; i++)
    {
      const KmodTestLatency *l = &g_array_index (latencies, KmodTestLatency, i);
      JsonObject *o = json_array_get_object_element (json_latencies, i);

      g_assert_cmpint (json_object_get_int_member (o, "time_ns"), ==, l->time_ns);
      g_assert_cmpint (json_object_get_int_member (o, "cpu"), ==, l->cpu);
      g_assert_cmpint (json_object_get_int_member (o, "pid"), ==, l->pid);
      g_assert_cmpstr (json_object_get_string_member (o, "comm"), ==, l->comm);
      g_assert_cmpint (json_object_get_int_member (o, "target_cpu"), ==, l->target_cpu);
      g_assert_cmpint (json_object_get_int_member (o, "latency_ns"), ==, l->latency_ns);
      g_assert_cmpint (json_object_get_int_member (o, "threshold_ns"), ==, l->threshold_ns);
    }
}

/* Opening the recording again reuses the pass's results: no record is
 * read a second time. */
static void
test_results_reused (CsBuiltinFixture *fixture,
                    gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sections = NULL;
  g_autoptr(CsDocument) again = NULL;
  g_autoptr(CsPluginDocument) second = NULL;
  g_autoptr(GArray) reused = NULL;
  guint64 records_before;

  kmod_test_run_pass (fixture->plugins, fixture->plugin);
  sections = kmod_test_get_sections (fixture->plugins, fixture->plugin);
  again = cs_test_load ("kmod-sections-v7.dat");
  records_before = cs_trace_file_get_n_records_read ();
  second = _cs_plugin_document_new (again);
  g_assert_true (_cs_plugin_document_enable (second, fixture->plugin, &error));
  g_assert_no_error (error);
  kmod_test_run_pass (second, fixture->plugin);
  reused = kmod_test_get_sections (second, fixture->plugin);
  _cs_plugin_document_close (second);

  g_assert_cmpuint (cs_trace_file_get_n_records_read (), ==, records_before);
  g_assert_cmpuint (reused->len, ==, sections->len);
  g_assert_cmpmem (reused->data, reused->len * sizeof (KmodTestSection),
                   sections->data, sections->len * sizeof (KmodTestSection));
}

/* A recording without the module's events: the plugin runs no pass at
 * all (no database is written, no worker would be started), its member
 * is empty, and not one event chunk is decoded nor one record read. */
static void
test_without_module_costs_nothing (CsBuiltinFixture *fixture,
                                   gconstpointer     data)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  CsDocument *doc = fixture->base.document;
  guint64 records_before = cs_trace_file_get_n_records_read ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *member;

  g_assert_cmpuint (json_array_get_length (events), ==, 0);
  g_assert_null (cs_plugin_document_get_pass_db (fixture->plugins, fixture->plugin, "events",
                                                 NULL, &error));
  g_assert_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY);

  root = kmod_test_build_json (fixture->plugins, fixture->plugin);
  member = json_object_get_object_member (json_node_get_object (root), "kmod");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (member, "sections")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (member, "wakeup_latencies")), ==, 0);
  g_assert_false (_cs_plugin_document_pass_is_ready (fixture->plugins, fixture->plugin, "events", NULL));

  g_assert_cmpuint (cs_trace_file_get_n_records_read (), ==, records_before);
  for (guint cpu = 0; doc->chunk_caches != NULL && cpu < doc->n_cpus; cpu++)
    g_assert_null (doc->chunk_caches[cpu]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, recording, func) \
  g_test_add ("/cs/plugins/KmodPass/" path, CsBuiltinFixture, recording, \
              fixture_set_up, func, fixture_tear_down)

  ADD ("sections-match-report", &kmod, test_sections_match_report);
  ADD ("wakeup-latency-names-sleeper", &kmod, test_wakeup_latency_names_sleeper);
  ADD ("json-lists-results", &kmod, test_json_lists_results);
  ADD ("results-reused", &kmod, test_results_reused);
  ADD ("without-module-costs-nothing", &sched_v7, test_without_module_costs_nothing);

#undef ADD
  return g_test_run ();
}
