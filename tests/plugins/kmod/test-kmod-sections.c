/* test-kmod-sections.c: the kernel module's sections as the demos get
 * them, from the kmod plugin's pass, against `trace-cmd report`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The module's events are paired in one place, the kmod plugin's pass
 * (plugins/kmod/cs-kmod-pass.c); the demos and `chronoscope demo` read its
 * results through the plugin host (index/demo/cs-demo-kmod.c), with the
 * plugin enabled on nothing, as when the user switched it off in the
 * window.  On every recording of tests/data, what they read is compared
 * with tests/oracle/kmod-events.py, which lists the module's events as
 * `trace-cmd report -t` prints them; tests/data/kmod-sections-v7.dat was
 * recorded in the QEMU guest of the kmod test (a 20 ms irqs-off section on
 * CPU 1, then a sleeper delayed behind a 300 ms preempt-off section).
 */
#include "config.h"

#include <string.h>

#include "cs-demo.h"
#include "cs-document-private.h"
#include "cs-plugin-registry.h"
#include "index-test-util.h"

typedef struct {
  CsPluginRegistry *registry;
  CsPlugin *kmod;
  CsDocument *document;
  CsPluginDocument *plugins;    /* no plugin enabled on it */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->registry = cs_plugin_registry_new ();
  cs_plugin_registry_scan (fixture->registry);
  fixture->kmod = cs_plugin_registry_lookup (fixture->registry, CS_DEMO_KMOD_PLUGIN);
  g_assert_nonnull (fixture->kmod);
  /* The damaged recordings of tests/data are other tests' business. */
  fixture->document = cs_document_load (data, NULL, NULL, NULL, NULL, &error);
  if (fixture->document != NULL)
    fixture->plugins = _cs_plugin_document_new (fixture->document);
  else
    g_test_message ("%s: %s", (const char *) data, error->message);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->plugins != NULL)
    _cs_plugin_document_close (fixture->plugins);
  g_clear_pointer (&fixture->plugins, cs_plugin_document_unref);
  g_clear_object (&fixture->document);
  g_clear_object (&fixture->registry);
}

/* Whether the oracle's @event is a section's begin or end of @kind. */
static gboolean
is_section_event (JsonObject        *event,
                  CsKmodSectionKind  kind,
                  gboolean          *is_begin)
{
  const char *name = json_object_get_string_member (event, "name");
  const char *prefix = kind == CS_KMOD_SECTION_IRQS_OFF ? "irqs_off_" : "preempt_off_";

  if (!g_str_has_prefix (name, prefix))
    return FALSE;
  *is_begin = g_str_has_suffix (name, "_begin");
  return TRUE;
}

/* The sections of @kind on @cpu are the report's begin/end events of that
 * kind on that CPU, in order, one section per begin and its next end. */
static void
assert_sections_follow_report (GArray            *sections,
                               JsonArray         *events,
                               CsKmodSectionKind  kind,
                               guint              cpu)
{
  g_autoptr(GArray) mine = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  guint next = 0;

  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);

      if (s->kind == kind && s->cpu == cpu)
        g_array_append_val (mine, *s);
    }
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      gint64 ts_ns = json_object_get_int_member (event, "ts_ns");
      const CsKmodSection *s;
      gboolean is_begin;

      if ((guint) json_object_get_int_member (event, "cpu") != cpu ||
          !is_section_event (event, kind, &is_begin))
        continue;
      g_assert_cmpuint (next, <, mine->len);
      s = &g_array_index (mine, CsKmodSection, next);
      g_assert_cmpuint (s->requested_ns, ==, cs_test_oracle_field (event, "requested_ns"));
      if (is_begin)
        g_assert_cmpint (s->begin_ns, ==, ts_ns);
      else
        {
          g_assert_cmpint (s->end_ns, ==, ts_ns);
          g_assert_cmpuint (s->measured_ns, ==, cs_test_oracle_field (event, "measured_ns"));
          next++;
        }
    }
  g_assert_cmpuint (next, ==, mine->len);
}

static void
assert_latencies_match_report (GArray    *latencies,
                               JsonArray *events)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *want = json_array_get_object_element (events, i);
      const CsKmodWakeupLatency *l;

      if (g_strcmp0 (json_object_get_string_member (want, "name"), "wakeup_latency") != 0)
        continue;
      g_assert_cmpuint (n, <, latencies->len);
      l = &g_array_index (latencies, CsKmodWakeupLatency, n++);
      g_assert_cmpint (l->time_ns, ==, json_object_get_int_member (want, "ts_ns"));
      g_assert_cmpuint (l->cpu, ==, json_object_get_int_member (want, "cpu"));
      g_assert_cmpint (l->pid, ==, cs_test_oracle_field (want, "pid"));
      g_assert_cmpint (l->target_cpu, ==, cs_test_oracle_field (want, "target_cpu"));
      g_assert_cmpuint (l->latency_ns, ==, cs_test_oracle_field (want, "latency_ns"));
      g_assert_cmpuint (l->threshold_ns, ==, cs_test_oracle_field (want, "threshold_ns"));
    }
  g_assert_cmpuint (n, ==, latencies->len);
}

/* Every recording: the sections and latencies follow the report's events;
 * one without the module's events gets none, and no pass is run for it:
 * no database written, not one record read. */
static void
test_results_match_report (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  g_autoptr(GError) error = NULL;
  guint64 records_before = cs_trace_file_get_n_records_read ();
  JsonArray *events;

  if (fixture->document == NULL)
    {
      g_test_skip ("Chronoscope does not open this recording");
      return;
    }
  if ((root = cs_test_run_oracle ("CS_KMOD_ORACLE", data)) == NULL)
    {
      g_test_skip ("trace-cmd report does not read this recording");
      return;
    }
  events = json_object_get_array_member (json_node_get_object (root), "events");
  g_assert_true (cs_demo_read_kmod_results (fixture->plugins, fixture->kmod, sections,
                                            latencies, &error));
  g_assert_no_error (error);
  for (guint cpu = 0; cpu < cs_document_get_n_cpus (fixture->document); cpu++)
    {
      assert_sections_follow_report (sections, events, CS_KMOD_SECTION_IRQS_OFF, cpu);
      assert_sections_follow_report (sections, events, CS_KMOD_SECTION_PREEMPT_OFF, cpu);
    }
  assert_latencies_match_report (latencies, events);
  for (guint i = 1; i < sections->len; i++)
    g_assert_cmpint (g_array_index (sections, CsKmodSection, i - 1).begin_ns, <=,
                     g_array_index (sections, CsKmodSection, i).begin_ns);
  g_test_message ("%s: %u sections, %u wakeup latencies, %u module events",
                  (const char *) data, sections->len, latencies->len,
                  json_array_get_length (events));

  if (json_array_get_length (events) == 0)
    {
      g_assert_cmpuint (sections->len + latencies->len, ==, 0);
      g_assert_false (_cs_plugin_document_pass_is_ready (fixture->plugins, fixture->kmod,
                                                         CS_DEMO_KMOD_PASS, NULL));
      g_assert_cmpuint (cs_trace_file_get_n_records_read (), ==, records_before);
    }
  else
    g_assert_true (_cs_plugin_document_pass_is_ready (fixture->plugins, fixture->kmod,
                                                      CS_DEMO_KMOD_PASS, NULL));
}

/* The demos place A/B from the plugin's pass with the plugin enabled on
 * nothing: the irqs-off and preemption demos on the sections' begin and
 * end events. */
static void
test_demo_markers_without_plugin (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (data);
  JsonObject *begin = cs_test_oracle_event (events, "irqs_off_begin", 0);
  JsonObject *end = cs_test_oracle_event (events, "irqs_off_end", 0);
  g_autoptr(GError) error = NULL;
  CsDemoMarkers markers;

  g_assert_false (_cs_plugin_document_is_enabled (fixture->plugins, fixture->kmod));
  g_assert_true (cs_demo_find_markers (fixture->plugins, fixture->kmod, "irqs-off", &markers,
                                       &error));
  g_assert_no_error (error);
  g_assert_cmpint (markers.a_ns, ==, json_object_get_int_member (begin, "ts_ns"));
  g_assert_cmpint (markers.b_ns, ==, json_object_get_int_member (end, "ts_ns"));
  g_assert_cmpuint (markers.cpu, ==, json_object_get_int_member (begin, "cpu"));

  /* The preemption demo on the preempt-off section (the recording has no
   * spinner to narrow it to). */
  begin = cs_test_oracle_event (events, "preempt_off_begin", 0);
  end = cs_test_oracle_event (events, "preempt_off_end", 0);
  g_assert_true (cs_demo_find_markers (fixture->plugins, fixture->kmod, "preemption", &markers,
                                       &error));
  g_assert_no_error (error);
  g_assert_cmpint (markers.a_ns, ==, json_object_get_int_member (begin, "ts_ns"));
  g_assert_cmpint (markers.b_ns, ==, json_object_get_int_member (end, "ts_ns"));
  g_assert_cmpint (markers.pid, ==, -1);

  /* Its wakeup_latency event names `sleep`, not the demo's sleeper. */
  g_assert_false (cs_demo_find_markers (fixture->plugins, fixture->kmod, "wakeup-latency",
                                        &markers, &error));
  g_assert_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Without the plugin installed, the demo says so. */
  g_assert_false (cs_demo_find_markers (fixture->plugins, NULL, "irqs-off", &markers, &error));
  g_assert_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_FOUND);
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) paths = NULL;
  g_autofree char *kmod_path = NULL;
  const char *testdata;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  testdata = g_getenv ("CS_TESTDATA");
  g_assert_nonnull (testdata);
  paths = cs_test_list_recordings ();
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *name = g_path_get_basename (path);
      g_autofree char *test = NULL;

      /* The project's own recordings; the public ones are other suites'. */
      if (!g_str_has_prefix (path, testdata))
        continue;
      test = g_strdup_printf ("/cs/plugins/KmodSections/results-match-report/%s", name);
      g_test_add (test, Fixture, path, fixture_set_up, test_results_match_report,
                  fixture_tear_down);
    }
  kmod_path = cs_test_own_path ("kmod-sections-v7.dat");
  g_test_add ("/cs/plugins/KmodSections/demo-markers-without-plugin", Fixture, kmod_path,
              fixture_set_up, test_demo_markers_without_plugin, fixture_tear_down);
  return g_test_run ();
}
