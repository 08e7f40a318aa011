/* test-kmod-sections.c: the kernel module's sections and wakeup latencies
 * against `trace-cmd report`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data/kmod-sections-v7.dat was recorded in the QEMU guest of the
 * kmod test (tests/data/README.md): a 20 ms irqs-off section on CPU 1, then
 * a sleeper delayed behind a 300 ms preempt-off section there.  What the
 * index pairs and reads is compared with tests/oracle/kmod-events.py, which
 * lists the module's events as `trace-cmd report -t` prints them.
 */
#include "config.h"

#include "cs-document-private.h"
#include "cs-kmod-sections.h"
#include "index-test-util.h"

/* The one section of @kind in @sections; fails unless there is exactly one. */
static const CsKmodSection *
only_section (GArray            *sections,
              CsKmodSectionKind  kind)
{
  const CsKmodSection *found = NULL;

  for (guint i = 0; i < sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (sections, CsKmodSection, i);

      if (s->kind != kind)
        continue;
      g_assert_null (found);
      found = s;
    }
  g_assert_nonnull (found);
  return found;
}

static void
assert_section_matches_report (const CsKmodSection *s,
                               JsonArray           *events,
                               const char          *begin_name,
                               const char          *end_name)
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
test_sections_match_report (void)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  g_autoptr(CsDocument) doc = cs_test_load ("kmod-sections-v7.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  const CsKmodSection *irqs, *preempt;

  g_assert_true (cs_document_has_kmod_events (doc));
  all = cs_document_get_kmod_sections (doc, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 2);

  irqs = only_section (all, CS_KMOD_SECTION_IRQS_OFF);
  assert_section_matches_report (irqs, events, "irqs_off_begin", "irqs_off_end");
  /* The scenario asked for 20 ms on CPU 1; the trace clock agrees. */
  g_assert_cmpuint (irqs->cpu, ==, 1);
  g_assert_cmpuint (irqs->requested_ns, ==, 20000000);
  g_assert_cmpint (irqs->end_ns - irqs->begin_ns, >=, 18000000);
  g_assert_cmpint (irqs->end_ns - irqs->begin_ns, <=, 40000000);

  preempt = only_section (all, CS_KMOD_SECTION_PREEMPT_OFF);
  assert_section_matches_report (preempt, events, "preempt_off_begin", "preempt_off_end");
  g_assert_cmpint (preempt->begin_ns, >, irqs->end_ns);
  /* Sorted by begin. */
  g_assert_true (&g_array_index (all, CsKmodSection, 0) == irqs);
}

static void
test_sections_in_span (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("kmod-sections-v7.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = cs_document_get_kmod_sections (doc, G_MININT64, G_MAXINT64, &error);
  const CsKmodSection *irqs;
  gint64 mid;

  g_assert_no_error (error);
  irqs = only_section (all, CS_KMOD_SECTION_IRQS_OFF);
  mid = (irqs->begin_ns + irqs->end_ns) / 2;

  /* A span inside the section overlaps it. */
  {
    g_autoptr(GArray) in = cs_document_get_kmod_sections (doc, mid, mid + 1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (in->len, ==, 1);
    g_assert_cmpint (g_array_index (in, CsKmodSection, 0).begin_ns, ==, irqs->begin_ns);
  }
  /* Half-open: a span ending at the begin or starting at the end misses it. */
  {
    g_autoptr(GArray) before = cs_document_get_kmod_sections (doc, irqs->begin_ns - 1000,
                                                              irqs->begin_ns, &error);
    g_autoptr(GArray) after = cs_document_get_kmod_sections (doc, irqs->end_ns,
                                                             irqs->end_ns + 1000, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (before->len, ==, 0);
    g_assert_cmpuint (after->len, ==, 0);
  }
}

static void
test_wakeup_latency_names_sleeper (void)
{
  g_autofree char *path = cs_test_own_path ("kmod-sections-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  g_autoptr(CsDocument) doc = cs_test_load ("kmod-sections-v7.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  JsonObject *want = cs_test_oracle_event (events, "wakeup_latency", 0);
  JsonObject *mark = cs_test_oracle_event (events, "mark", 1);
  const char *text;
  const CsKmodWakeupLatency *l;
  gint64 sleeper;

  g_assert_nonnull (want);
  g_assert_null (cs_test_oracle_event (events, "wakeup_latency", 1));
  /* The scenario names its sleeper in the second mark: "... sleeper PID". */
  g_assert_nonnull (mark);
  text = json_object_get_string_member (json_object_get_object_member (mark, "fields"), "text");
  g_assert_nonnull (strstr (text, "sleeper "));
  sleeper = g_ascii_strtoll (strstr (text, "sleeper ") + 8, NULL, 10);

  all = cs_document_get_kmod_wakeup_latencies (doc, -1, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 1);
  l = &g_array_index (all, CsKmodWakeupLatency, 0);
  g_assert_cmpint (l->pid, ==, sleeper);
  g_assert_cmpint (l->pid, ==, cs_test_oracle_field (want, "pid"));
  g_assert_cmpstr (l->comm, ==, "sleep");
  g_assert_cmpint (l->time_ns, ==, json_object_get_int_member (want, "ts_ns"));
  g_assert_cmpuint (l->cpu, ==, json_object_get_int_member (want, "cpu"));
  g_assert_cmpint (l->target_cpu, ==, cs_test_oracle_field (want, "target_cpu"));
  g_assert_cmpuint (l->latency_ns, ==, cs_test_oracle_field (want, "latency_ns"));
  g_assert_cmpuint (l->threshold_ns, ==, cs_test_oracle_field (want, "threshold_ns"));
  g_assert_cmpuint (l->latency_ns, >, l->threshold_ns);

  /* By pid and by span. */
  {
    g_autoptr(GArray) mine = cs_document_get_kmod_wakeup_latencies (doc, (gint32) sleeper,
                                                                    l->time_ns, l->time_ns + 1, &error);
    g_autoptr(GArray) other = cs_document_get_kmod_wakeup_latencies (doc, (gint32) sleeper + 1,
                                                                     G_MININT64, G_MAXINT64, &error);
    g_autoptr(GArray) later = cs_document_get_kmod_wakeup_latencies (doc, -1, l->time_ns + 1,
                                                                     G_MAXINT64, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (mine->len, ==, 1);
    g_assert_cmpuint (other->len, ==, 0);
    g_assert_cmpuint (later->len, ==, 0);
  }
}

/* A recording without the module's events: empty answers, and not one
 * event chunk decoded nor one record read to give them. */
static void
test_without_module_costs_nothing (void)
{
  g_autofree char *path = cs_test_own_path ("sched-irq-v7.dat");
  g_autoptr(JsonArray) events = cs_test_kmod_oracle_events (path);
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v7.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sections = NULL;
  g_autoptr(GArray) latencies = NULL;
  guint64 records_before = cs_trace_file_get_n_records_read ();

  g_assert_cmpuint (json_array_get_length (events), ==, 0);
  g_assert_false (cs_document_has_kmod_events (doc));
  sections = cs_document_get_kmod_sections (doc, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  latencies = cs_document_get_kmod_wakeup_latencies (doc, -1, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sections->len, ==, 0);
  g_assert_cmpuint (latencies->len, ==, 0);

  g_assert_cmpuint (cs_trace_file_get_n_records_read (), ==, records_before);
  for (guint cpu = 0; doc->chunk_caches != NULL && cpu < doc->n_cpus; cpu++)
    g_assert_null (doc->chunk_caches[cpu]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/index/KmodSections/sections-match-report", test_sections_match_report);
  g_test_add_func ("/cs/index/KmodSections/sections-in-span", test_sections_in_span);
  g_test_add_func ("/cs/index/KmodSections/wakeup-latency-names-sleeper",
                   test_wakeup_latency_names_sleeper);
  g_test_add_func ("/cs/index/KmodSections/without-module-costs-nothing",
                   test_without_module_costs_nothing);
  return g_test_run ();
}
