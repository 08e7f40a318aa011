/* test-explain-api.c: the plugin core API the explanation reads, and the
 * explanation's own API, in-process.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cs_plugin_document_foreach_event() must give exactly the events
 * `trace-cmd report` shows (tests/oracle/report-fields.py), of the types
 * asked, over all CPUs or one, in a span; cs_plugin_document_get_task_intervals()
 * must tile a task's life and put the worst wakeup where the oracle of the
 * latency pairs (tests/oracle/latency-pairs.py) puts it.  The explain API
 * (plugins/latency/explain/cs-explain.h, built into this test) must break
 * that wakeup down into parts adding up to it, start its chain with it,
 * in slices that tile it, start its chain with it, and give a critical
 * path that tiles the span asked for, the same whole or in two pieces.
 * (check-explain.py compares the values with an oracle.)  Fields read
 * through a CsPluginField must read as `trace-cmd report -R` prints them.
 * cs_plugin_document_foreach_interrupt() and
 * cs_plugin_document_foreach_migration() must give the interrupt and
 * sched_migrate_task events cs_plugin_document_foreach_event() gives,
 * with the fields their records hold.  cs_plugin_document_foreach_unswitched()
 * and cs_plugin_document_foreach_idle() must give what every slice
 * decoded says.
 */
#include "config.h"

#include <string.h>

#include "builtin-test-host.h"
#include "cs-explain.h"

static const CsTestRecording sched_v6 = { "sched-irq-v6.dat" };
static const CsTestRecording prio_v7 = { "sched-prio-migrate-v7.dat" };
static const CsTestRecording bundled_sample = { "../../data/sample/sample.dat" };
static const CsTestRecording i686_v6 = { "sched-i686-v6.dat" };
static const CsTestRecording preemptirq_v7 = { "preemptirq-v7.dat" };
static const CsTestRecording graph_i686 = { "public/function-graph-i686-v6.dat" };
static const CsTestRecording missed_v7 = { "missed-events-v7.dat" };

static void
fixture_set_up (CsBuiltinFixture *fixture,
                gconstpointer     data)
{
  cs_builtin_fixture_set_up (fixture, "latency", data);
}

static void
fixture_tear_down (CsBuiltinFixture *fixture,
                   gconstpointer     data)
{
  cs_builtin_fixture_tear_down (fixture);
}

static gboolean
collect (const CsPluginEvent *event,
         gpointer             user_data)
{
  GPtrArray *out = user_data;

  g_ptr_array_add (out, g_strdup_printf ("%u %" G_GINT64_FORMAT " %s", event->cpu,
                                         event->ts_ns, event->name));
  return TRUE;
}

static gboolean
is_wanted (const char *name)
{
  return strcmp (name, "sched_switch") == 0 || g_str_has_prefix (name, "irq_handler_") ||
         g_str_has_prefix (name, "softirq_");
}

/* The oracle's events of the wanted types, of @cpu (-1: all) in the span,
 * in time order, ties in CPU order then report order. */
static GPtrArray *
oracle_events (JsonArray *events,
               gint       cpu,
               gint64     begin_ns,
               gint64     end_ns)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonArray *e = json_array_get_array_element (events, i);
      gint64 c = json_array_get_int_element (e, 0), ts = json_array_get_int_element (e, 1);

      if (is_wanted (json_array_get_string_element (e, 2)) && (cpu < 0 || c == cpu) &&
          ts >= begin_ns && ts < end_ns)
        g_array_append_val (order, i);
    }
  /* Stable insertion by (ts, cpu): report order already is per-CPU order. */
  for (guint i = 1; i < order->len; i++)
    for (guint j = i; j > 0; j--)
      {
        JsonArray *a = json_array_get_array_element (events, g_array_index (order, guint, j - 1));
        JsonArray *b = json_array_get_array_element (events, g_array_index (order, guint, j));
        gint64 ta = json_array_get_int_element (a, 1), tb = json_array_get_int_element (b, 1);

        if (ta < tb || (ta == tb && json_array_get_int_element (a, 0) <= json_array_get_int_element (b, 0)))
          break;
        {
          guint tmp = g_array_index (order, guint, j - 1);

          g_array_index (order, guint, j - 1) = g_array_index (order, guint, j);
          g_array_index (order, guint, j) = tmp;
        }
      }
  for (guint i = 0; i < order->len; i++)
    {
      JsonArray *e = json_array_get_array_element (events, g_array_index (order, guint, i));

      g_ptr_array_add (out, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s",
                                             json_array_get_int_element (e, 0),
                                             json_array_get_int_element (e, 1),
                                             json_array_get_string_element (e, 2)));
    }
  return out;
}

static void
assert_same (GPtrArray  *got,
             GPtrArray  *want,
             const char *what)
{
  for (guint i = 0; i < MIN (got->len, want->len); i++)
    if (strcmp (g_ptr_array_index (got, i), g_ptr_array_index (want, i)) != 0)
      g_error ("%s: event %u is “%s”, trace-cmd report says “%s”", what, i,
               (char *) g_ptr_array_index (got, i), (char *) g_ptr_array_index (want, i));
  g_assert_cmpuint (got->len, ==, want->len);
  g_assert_cmpuint (got->len, >, 0);
}

static void
test_foreach_event (CsBuiltinFixture *fixture,
                    gconstpointer     data)
{
  g_autofree char *recording = cs_test_find_recording (data);
  const char *args[] = { recording, NULL };
  const char *types[] = { "sched:sched_switch", "irq:*", NULL };
  g_autoptr(JsonNode) oracle = cs_builtin_run_oracle ("report-fields.py", args);
  JsonArray *events = json_object_get_array_member (json_node_get_object (oracle), "events");
  gint64 first = cs_plugin_document_get_first_ns (fixture->plugins);
  gint64 last = cs_plugin_document_get_last_ns (fixture->plugins);
  gint64 mid_begin = first + (last - first) / 3, mid_end = first + 2 * (last - first) / 3;
  g_autoptr(GError) error = NULL;

  for (gint cpu = -1; cpu < (gint) cs_plugin_document_get_n_cpus (fixture->plugins); cpu++)
    {
      g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) want = oracle_events (events, cpu, first, last + 1);
      g_autoptr(GPtrArray) got_mid = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) want_mid = oracle_events (events, cpu, mid_begin, mid_end);

      g_assert_true (cs_plugin_document_foreach_event (fixture->plugins, cpu, first, last + 1,
                                                       types, collect, got, &error));
      g_assert_no_error (error);
      assert_same (got, want, cpu < 0 ? "every CPU" : "one CPU");
      g_assert_true (cs_plugin_document_foreach_event (fixture->plugins, cpu, mid_begin,
                                                       mid_end, types, collect, got_mid, &error));
      g_assert_no_error (error);
      assert_same (got_mid, want_mid, "the middle third");
    }
}

static const char *const irq_types[] = {
  "irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit", NULL
};

/* An interrupt event as "ts row kind value name", from its record. */
static gboolean
collect_irq_record (const CsPluginEvent *event,
                    gpointer             user_data)
{
  static const char *const names[] = {
    "irq_handler_entry", "irq_handler_exit", "softirq_entry", "softirq_exit"
  };
  gboolean hard = g_str_has_prefix (event->name, "irq_handler_");
  g_autofree char *name = hard && strcmp (event->name, "irq_handler_entry") == 0
                          ? cs_plugin_event_dup_string (event, "name") : NULL;
  gint64 value = -1;
  guint kind = 0;

  while (kind < G_N_ELEMENTS (names) && strcmp (names[kind], event->name) != 0)
    kind++;
  g_assert_cmpuint (kind, <, G_N_ELEMENTS (names));
  if (!cs_plugin_event_get_int (event, hard ? "irq" : "vec", &value))
    value = -1;
  g_ptr_array_add (user_data, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT
                                               " %u %" G_GINT64_FORMAT " %s", event->ts_ns,
                                               event->row, kind, value,
                                               name != NULL ? name : "-"));
  return TRUE;
}

/* The same, from the index's interrupt tables. */
static gboolean
collect_interrupt (const CsPluginInterrupt *irq,
                   gpointer                 user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT
                                               " %u %" G_GINT64_FORMAT " %s", irq->ts_ns,
                                               irq->row, (guint) irq->kind, irq->value,
                                               irq->name != NULL ? irq->name : "-"));
  return TRUE;
}

/* The same, from the index's migration tables. */
static gboolean
collect_migration (const CsPluginMigration *m,
                   gpointer                 user_data)
{
  g_ptr_array_add (user_data, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u %d %d %d",
                                               m->ts_ns, m->row, m->cpu, m->pid, m->orig_cpu,
                                               m->dest_cpu));
  return TRUE;
}

/* A sched_migrate_task record, as collect_migration() prints a migration. */
static gboolean
collect_migrate_record (const CsPluginEvent *event,
                        gpointer             user_data)
{
  static const char *const fields[] = { "pid", "orig_cpu", "dest_cpu" };
  gint64 v[G_N_ELEMENTS (fields)];

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (!cs_plugin_event_get_int (event, fields[i], &v[i]))
      v[i] = -1;
  g_ptr_array_add (user_data, g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %u %d %d %d",
                                               event->ts_ns, event->row, event->cpu, (int) v[0],
                                               (int) v[1], (int) v[2]));
  return TRUE;
}

static gboolean
read_interrupts (CsPluginDocument *document,
                 guint             cpu,
                 gint64            begin_ns,
                 gint64            end_ns,
                 GPtrArray        *out,
                 GError          **error)
{
  return cs_plugin_document_foreach_interrupt (document, cpu, begin_ns, end_ns,
                                               collect_interrupt, out, error);
}

static gboolean
read_migrations (CsPluginDocument *document,
                 guint             cpu,
                 gint64            begin_ns,
                 gint64            end_ns,
                 GPtrArray        *out,
                 GError          **error)
{
  return cs_plugin_document_foreach_migration (document, cpu, begin_ns, end_ns,
                                               collect_migration, out, error);
}

typedef gboolean (*ReadIndexFunc) (CsPluginDocument *document, guint cpu, gint64 begin_ns,
                                   gint64 end_ns, GPtrArray *out, GError **error);

/* What @read_index gives of each CPU, over the whole recording and its
 * middle third, must be what the records of @types say (@collect_record
 * prints them alike); returns how many the whole recording has. */
static guint
compare_with_records (CsBuiltinFixture   *fixture,
                      const char *const  *types,
                      CsPluginEventFunc   collect_record,
                      ReadIndexFunc       read_index)
{
  gint64 first = cs_plugin_document_get_first_ns (fixture->plugins);
  gint64 last = cs_plugin_document_get_last_ns (fixture->plugins);
  gint64 spans[][2] = {
    { first, last + 1 }, { first + (last - first) / 3, first + 2 * (last - first) / 3 },
  };
  g_autoptr(GError) error = NULL;
  guint n_whole = 0;

  for (guint cpu = 0; cpu < cs_plugin_document_get_n_cpus (fixture->plugins); cpu++)
    for (guint s = 0; s < G_N_ELEMENTS (spans); s++)
      {
        g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
        g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func (g_free);

        g_assert_true (cs_plugin_document_foreach_event (fixture->plugins, cpu, spans[s][0],
                                                         spans[s][1], types, collect_record,
                                                         want, &error));
        g_assert_no_error (error);
        g_assert_true (read_index (fixture->plugins, cpu, spans[s][0], spans[s][1], got,
                                   &error));
        g_assert_no_error (error);
        for (guint i = 0; i < MIN (got->len, want->len); i++)
          if (strcmp (got->pdata[i], want->pdata[i]) != 0)
            g_error ("CPU %u, span %u: row %u of the index is “%s”, its record says “%s”", cpu,
                     s, i, (char *) got->pdata[i], (char *) want->pdata[i]);
        g_assert_cmpuint (got->len, ==, want->len);
        if (s == 0)
          n_whole += got->len;
      }
  return n_whole;
}

static void
test_foreach_interrupt (CsBuiltinFixture *fixture,
                        gconstpointer     data)
{
  /* Each of these recordings has interrupts. */
  g_assert_cmpuint (compare_with_records (fixture, irq_types, collect_irq_record,
                                          read_interrupts), >, 0);
}

static void
test_foreach_migration (CsBuiltinFixture *fixture,
                        gconstpointer     data)
{
  static const char *const migrate_types[] = { "sched:sched_migrate_task", NULL };

  /* Each of these recordings has migrations. */
  g_assert_cmpuint (compare_with_records (fixture, migrate_types, collect_migrate_record,
                                          read_migrations), >, 0);
}

static gboolean
collect_slice (const CsPluginSlice *slice,
               gpointer             user_data)
{
  g_array_append_val ((GArray *) user_data, *slice);
  return TRUE;
}

static gboolean
collect_span (gint64   begin_ns,
              gint64   end_ns,
              gpointer user_data)
{
  gint64 span[2] = { begin_ns, end_ns };

  g_array_append_vals ((GArray *) user_data, span, 2);
  return TRUE;
}

/* Appends [@from, @to) to @spans (pairs of times), joined to the last one
 * it overlaps or touches. */
static void
add_span (GArray *spans,
          gint64  from,
          gint64  to)
{
  gint64 span[2] = { from, to };

  if (to <= from)
    return;
  if (spans->len > 0 && from <= g_array_index (spans, gint64, spans->len - 1))
    g_array_index (spans, gint64, spans->len - 1) =
      MAX (g_array_index (spans, gint64, spans->len - 1), to);
  else
    g_array_append_vals (spans, span, 2);
}

/* What cs_plugin_document_foreach_unswitched() documents, from every
 * slice of the CPU decoded. */
static GArray *
unswitched_from_slices (GArray *slices,
                        gint64  begin_ns,
                        gint64  end_ns)
{
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 prev_end = G_MININT64;
  gboolean seen_after = FALSE;

  for (guint i = 0; i < slices->len && !seen_after; i++)
    {
      const CsPluginSlice *s = &g_array_index (slices, CsPluginSlice, i);
      gboolean switched = (s->flags & CS_PLUGIN_SLICE_SWITCHED) != 0;

      if (s->begin_ns >= end_ns)
        {
          seen_after = TRUE;
          if (!switched)
            add_span (spans, MAX (prev_end, begin_ns), end_ns);
        }
      else if (!switched && s->end_ns >= begin_ns)
        add_span (spans, MAX (prev_end, begin_ns), MIN (s->end_ns, end_ns - 1) + 1);
      prev_end = s->end_ns;
    }
  if (!seen_after)
    add_span (spans, MAX (prev_end, begin_ns), end_ns);
  return spans;
}

/* What cs_plugin_document_foreach_idle() documents, from every slice of
 * the CPU decoded: the gaps before a switched slice that begin in the
 * span. */
static GArray *
idle_from_slices (GArray *slices,
                  gint64  begin_ns,
                  gint64  end_ns)
{
  GArray *gaps = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 1; i < slices->len; i++)
    {
      const CsPluginSlice *a = &g_array_index (slices, CsPluginSlice, i - 1);
      const CsPluginSlice *b = &g_array_index (slices, CsPluginSlice, i);
      gint64 gap[2] = { a->end_ns, b->begin_ns };

      if (a->end_ns < b->begin_ns && (b->flags & CS_PLUGIN_SLICE_SWITCHED) &&
          a->end_ns >= begin_ns && a->end_ns < end_ns)
        g_array_append_vals (gaps, gap, 2);
    }
  return gaps;
}

/* cs_plugin_document_foreach_unswitched(), which passes over the slice
 * chunks that are all switched, and cs_plugin_document_foreach_idle(),
 * which decodes only the slices' times, must give what every slice
 * decoded says, over spans starting and ending at, around and between
 * slices. */
static void
test_foreach_unswitched (CsBuiltinFixture *fixture,
                         gconstpointer     data)
{
  static const gint64 lengths[] = { 1, 1000, 1000000, 100000000, G_MAXINT64 / 4 };
  g_autoptr(GError) error = NULL;
  guint n_spans = 0, n_gaps = 0, n_windows = 0;

  for (guint cpu = 0; cpu < cs_plugin_document_get_n_cpus (fixture->plugins); cpu++)
    {
      g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (CsPluginSlice));
      guint step;

      g_assert_true (cs_plugin_document_foreach_slice (fixture->plugins, cpu, G_MININT64 + 2,
                                                       G_MAXINT64, collect_slice, slices,
                                                       &error));
      g_assert_no_error (error);
      step = MAX (1, slices->len / 97);
      for (guint i = 0; i < slices->len; i += step)
        {
          const CsPluginSlice *s = &g_array_index (slices, CsPluginSlice, i);
          const gint64 starts[] = { s->begin_ns, s->end_ns, s->end_ns + 1, s->begin_ns - 1 };

          for (guint a = 0; a < G_N_ELEMENTS (starts); a++)
            for (guint l = 0; l < G_N_ELEMENTS (lengths); l++)
              {
                g_autoptr(GArray) want = unswitched_from_slices (slices, starts[a],
                                                                 starts[a] + lengths[l]);
                g_autoptr(GArray) got = g_array_new (FALSE, FALSE, sizeof (gint64));

                g_assert_true (cs_plugin_document_foreach_unswitched (fixture->plugins, cpu,
                                                                      starts[a],
                                                                      starts[a] + lengths[l],
                                                                      collect_span, got, &error));
                g_assert_no_error (error);
                g_autoptr(GArray) want_idle = idle_from_slices (slices, starts[a],
                                                                starts[a] + lengths[l]);
                g_autoptr(GArray) got_idle = g_array_new (FALSE, FALSE, sizeof (gint64));

                g_assert_cmpmem (got->data, got->len * sizeof (gint64), want->data,
                                 want->len * sizeof (gint64));
                g_assert_true (cs_plugin_document_foreach_idle (fixture->plugins, cpu, starts[a],
                                                                starts[a] + lengths[l],
                                                                collect_span, got_idle, &error));
                g_assert_no_error (error);
                g_assert_cmpmem (got_idle->data, got_idle->len * sizeof (gint64),
                                 want_idle->data, want_idle->len * sizeof (gint64));
                n_spans += got->len / 2;
                n_gaps += got_idle->len / 2;
                n_windows++;
              }
        }
    }
  g_test_message ("%u windows, %u spans not vouched for by the slices, %u idle gaps", n_windows,
                  n_spans, n_gaps);
  /* Each of these recordings has slices without a switch that began them;
   * the sample has idle time (the missed-events recording never switches
   * to pid 0). */
  g_assert_cmpuint (n_spans, >, 0);
  if (data == &bundled_sample)
    g_assert_cmpuint (n_gaps, >, 0);
}

typedef struct {
  JsonObject *fields;           /* the oracle's NAME=VALUE of the event */
  const char *name;
  guint n_events;
  guint n_matched;
} FieldCheck;

/* Whether every decimal number and every comm of @check's oracle fields
 * reads the same through a CsPluginField as trace-cmd report prints it
 * (and as cs_plugin_event_get_int() and cs_plugin_event_dup_string()
 * read it). */
static gboolean
fields_match (const CsPluginEvent *event,
              FieldCheck          *check)
{
  g_autoptr(GList) names = json_object_get_members (check->fields);
  guint n_compared = 0;

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      const char *want = json_object_get_string_member (check->fields, name);
      CsPluginField field;
      char *end = NULL;
      gint64 value, by_name;
      gint64 want_int = g_ascii_strtoll (want, &end, 10);

      if (g_str_has_suffix (name, "comm"))
        {
          g_autofree char *dup = cs_plugin_event_dup_string (event, name);
          const char *bytes;
          gsize len;

          g_assert_true (cs_plugin_field_lookup (&field, event, name));
          bytes = cs_plugin_event_peek_string (event, &field, &len);
          g_assert_nonnull (bytes);
          g_assert_cmpstr (dup, ==, want);
          if (len != strlen (want) || memcmp (bytes, want, len) != 0)
            return FALSE;
          g_assert_false (cs_plugin_event_read_int (event, &field, &value));
          n_compared++;
          continue;
        }
      /* Pointers and longs print in hex, some fields as symbols: the
       * decimal ones are enough. */
      if (*want == '\0' || *end != '\0' || g_str_has_prefix (want, "0x"))
        continue;
      g_assert_true (cs_plugin_field_lookup (&field, event, name));
      g_assert_true (cs_plugin_event_read_int (event, &field, &value));
      g_assert_true (cs_plugin_event_get_int (event, name, &by_name));
      g_assert_cmpint (value, ==, by_name);
      g_assert_null (cs_plugin_event_peek_string (event, &field, &(gsize) { 0 }));
      /* report prints unsigned 8-byte fields above G_MAXINT64 as such. */
      if (value != want_int && (guint64) value != g_ascii_strtoull (want, NULL, 10))
        return FALSE;
      n_compared++;
    }
  return n_compared > 0;
}

static gboolean
check_fields (const CsPluginEvent *event,
              gpointer             user_data)
{
  FieldCheck *check = user_data;
  CsPluginField missing;

  if (strcmp (event->name, check->name) != 0)
    return TRUE;
  check->n_events++;
  g_assert_false (cs_plugin_field_lookup (&missing, event, "no_such_field"));
  g_assert_false (cs_plugin_event_read_int (event, &missing, &(gint64) { 0 }));
  if (fields_match (event, check))
    {
      check->n_matched++;
      return FALSE;
    }
  return TRUE;
}

/* cs_plugin_field_lookup() and the reads through it against the raw
 * fields trace-cmd report prints, for the scheduler's events the latency
 * passes read. */
static void
test_fields (CsBuiltinFixture *fixture,
             gconstpointer     data)
{
  g_autofree char *recording = cs_test_find_recording (data);
  const char *args[] = { "--every", "5", recording, NULL };
  g_autoptr(JsonNode) oracle = cs_builtin_run_oracle ("report-fields.py", args);
  JsonArray *samples = json_object_get_array_member (json_node_get_object (oracle), "samples");
  guint n_checked = 0;

  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *sample = json_array_get_object_element (samples, i);
      const char *name = json_object_get_string_member (sample, "name");
      g_autofree char *type = g_strdup_printf ("sched:%s", name);
      const char *types[] = { type, NULL };
      FieldCheck check = { json_object_get_object_member (sample, "fields"), name };
      gint64 ts = json_object_get_int_member (sample, "ts");
      g_autoptr(GError) error = NULL;

      if (strcmp (name, "sched_switch") != 0 && strcmp (name, "sched_waking") != 0 &&
          strcmp (name, "sched_wakeup") != 0 && strcmp (name, "sched_migrate_task") != 0)
        continue;
      g_assert_true (cs_plugin_document_foreach_event (fixture->plugins,
                                                       json_object_get_int_member (sample, "cpu"),
                                                       ts, ts + 1, types, check_fields, &check,
                                                       &error));
      g_assert_no_error (error);
      if (check.n_matched != 1)
        g_error ("%s at %" G_GINT64_FORMAT " ns: none of its %u events reads as trace-cmd "
                 "report prints it", name, ts, check.n_events);
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 10);
}

/* The oracle's worst wakeup: pid, A, B, A's CPU, B's CPU. */
static void
worst_wakeup (const char *recording,
              gint64      out[5])
{
  const char *args[] = { "--preset", "wakeup", "--top", "1", recording, NULL };
  g_autoptr(JsonNode) oracle = cs_builtin_run_oracle ("latency-pairs.py", args);
  JsonArray *worst = json_object_get_array_member (json_node_get_object (oracle), "worst");
  JsonObject *w = json_array_get_object_element (worst, 0);

  out[0] = json_object_get_int_member (w, "pid");
  out[1] = json_object_get_int_member (w, "a_ts_ns");
  out[2] = json_object_get_int_member (w, "b_ts_ns");
  out[3] = json_object_get_int_member (w, "cpu");
  out[4] = -1;
}

static void
test_task_intervals (CsBuiltinFixture *fixture,
                     gconstpointer     data)
{
  g_autofree char *recording = cs_test_find_recording (data);
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));
  g_autoptr(GError) error = NULL;
  gboolean found = FALSE;
  gint64 w[5];

  worst_wakeup (recording, w);
  g_assert_true (cs_plugin_document_get_task_intervals (fixture->plugins, w[0], G_MININT64,
                                                        G_MAXINT64, iv, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (iv->len, >, 0);
  for (guint i = 0; i < iv->len; i++)
    {
      const CsPluginTaskInterval *x = &g_array_index (iv, CsPluginTaskInterval, i);

      g_assert_cmpint (x->end_ns, >=, x->begin_ns);
      if (i > 0)
        g_assert_cmpint (x->begin_ns, ==, g_array_index (iv, CsPluginTaskInterval, i - 1).end_ns);
      if (x->state == CS_PLUGIN_TASK_RUNNABLE && x->wakeup_ns == w[1] && x->end_ns == w[2])
        found = TRUE;
    }
  g_assert_true (found);
}

static gboolean
append_segment (const CsExplainPathSegment  *seg,
                gpointer                     user_data,
                GError                     **error)
{
  GArray *path = user_data;

  if (path->len > 0)
    {
      CsExplainPathSegment *last = &g_array_index (path, CsExplainPathSegment, path->len - 1);

      /* Each segment is handed over whole: a held-back one is never
       * continued by the next. */
      g_assert_false (last->pid == seg->pid && last->state == seg->state &&
                      last->cpu == seg->cpu && last->depth == seg->depth);
    }
  g_array_append_val (path, *seg);
  return TRUE;
}

/* The path of @pid over [@begin_ns, @end_ns), whole. */
static GArray *
critical_path (CsBuiltinFixture *fixture,
               gint32            pid,
               gint64            begin_ns,
               gint64            end_ns)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (CsExplainPathSegment));
  g_autoptr(GError) error = NULL;

  g_assert_true (cs_explain_critical_path_foreach (fixture->plugins, pid, begin_ns, end_ns, 8,
                                                   append_segment, path, &error));
  g_assert_no_error (error);
  return path;
}

static gboolean
stop_after_three (const CsExplainPathSegment  *seg,
                  gpointer                     user_data,
                  GError                     **error)
{
  guint *n = user_data;

  if (++*n < 3)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "full");
  return FALSE;
}

/* The path of @pid over [@begin_ns, @end_ns) must be its path up to
 * @cut followed by its path from @cut, the segment across the cut joined
 * again.  Returns the number of segments. */
static guint
check_cut (CsBuiltinFixture *fixture,
           gint32            pid,
           gint64            begin_ns,
           gint64            end_ns,
           gint64            cut)
{
  g_autoptr(GArray) whole = critical_path (fixture, pid, begin_ns, end_ns);
  g_autoptr(GArray) joined = critical_path (fixture, pid, begin_ns, cut);
  g_autoptr(GArray) second = critical_path (fixture, pid, cut, end_ns);
  CsExplainPathSegment *a = &g_array_index (joined, CsExplainPathSegment, joined->len - 1);
  CsExplainPathSegment *b = &g_array_index (second, CsExplainPathSegment, 0);

  g_assert_cmpint (a->end_ns, ==, cut);
  if (a->pid == b->pid && a->state == b->state && a->cpu == b->cpu && a->depth == b->depth)
    {
      a->end_ns = b->end_ns;
      g_array_remove_index (second, 0);
    }
  g_array_append_vals (joined, second->data, second->len);
  g_assert_cmpuint (whole->len, ==, joined->len);
  for (guint i = 0; i < whole->len; i++)
    {
      a = &g_array_index (whole, CsExplainPathSegment, i);
      b = &g_array_index (joined, CsExplainPathSegment, i);
      g_assert_cmpint (a->begin_ns, ==, b->begin_ns);
      g_assert_cmpint (a->end_ns, ==, b->end_ns);
      g_assert_cmpint (a->pid, ==, b->pid);
      g_assert_cmpint (a->state, ==, b->state);
      g_assert_cmpint (a->cpu, ==, b->cpu);
      g_assert_cmpuint (a->depth, ==, b->depth);
    }
  return whole->len;
}

/* Paths over the whole recording (many of the walk's 100 ms windows), of
 * the worst wakeup's task and of each task the path follows: cut in two
 * anywhere, a path is the same, so where the walk cuts its windows does
 * not show; and a receiver that fails stops the walk with its error. */
static void
test_critical_path_whole (CsBuiltinFixture *fixture,
                          gconstpointer     data)
{
  g_autofree char *recording = cs_test_find_recording (data);
  gint64 first_ns = cs_plugin_document_get_first_ns (fixture->plugins);
  gint64 end_ns = cs_plugin_document_get_last_ns (fixture->plugins) + 1;
  gint64 w[5];
  g_autoptr(GArray) path = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  guint n = 0;

  worst_wakeup (recording, w);
  g_assert_cmpint (end_ns - first_ns, >, 300000000);
  /* Inside the worst wakeup's wait, and in the middle of the recording. */
  g_test_message ("pid %d: %u segments over %.3f s", (int) w[0],
                  check_cut (fixture, (gint32) w[0], first_ns, end_ns, w[1] + (w[2] - w[1]) / 2),
                  (end_ns - first_ns) / 1e9);
  path = critical_path (fixture, w[0], first_ns, end_ns);
  for (guint i = 0; i < path->len; i++)
    {
      gint32 pid = g_array_index (path, CsExplainPathSegment, i).pid;

      if (g_hash_table_add (seen, GINT_TO_POINTER (pid)))
        g_test_message ("pid %d: %u segments", pid,
                        check_cut (fixture, pid, first_ns, end_ns,
                                   first_ns + (end_ns - first_ns) / 2 + 12345));
    }

  g_assert_false (cs_explain_critical_path_foreach (fixture->plugins, w[0], first_ns, end_ns, 8,
                                                    stop_after_three, &n, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_cmpuint (n, ==, 3);
}

/* The bundled sample's three busiest tasks (the most intervals; tar,
 * 26736, among them, with a run whose switch-in the ring buffer lost):
 * their paths over the whole recording cut in two at several places. */
static void
test_critical_path_busy (CsBuiltinFixture *fixture,
                         gconstpointer     data)
{
  CsDocument *doc = fixture->base.document;
  gint64 first_ns = cs_plugin_document_get_first_ns (fixture->plugins);
  gint64 end_ns = cs_plugin_document_get_last_ns (fixture->plugins) + 1;
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));
  g_autoptr(GError) error = NULL;
  gint32 best[3] = { 0 };
  guint most[3] = { 0 };

  for (guint t = 0; t < cs_document_get_n_tasks (doc); t++)
    {
      gint32 pid = cs_document_get_task (doc, t)->pid;
      guint k = 3;

      g_array_set_size (iv, 0);
      g_assert_true (cs_plugin_document_get_task_intervals (fixture->plugins, pid, first_ns,
                                                            end_ns, iv, &error));
      g_assert_no_error (error);
      while (k > 0 && iv->len > most[k - 1])
        k--;
      if (k == 3)
        continue;
      memmove (&best[k + 1], &best[k], (2 - k) * sizeof (gint32));
      memmove (&most[k + 1], &most[k], (2 - k) * sizeof (guint));
      best[k] = pid;
      most[k] = iv->len;
    }
  for (guint k = 0; k < 3 && best[k] > 0; k++)
    for (guint i = 1; i < 4; i++)
      g_test_message ("pid %d (%u intervals): %u segments", best[k], most[k],
                      check_cut (fixture, best[k], first_ns, end_ns,
                                 first_ns + (end_ns - first_ns) / 4 * i + 777 * i));
  g_assert_cmpuint (most[0], >, 10000);
}

static void
test_explain (CsBuiltinFixture *fixture,
              gconstpointer     data)
{
  g_autofree char *recording = cs_test_find_recording (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsExplainBreakdown) b = NULL;
  g_autofree char *verdict = NULL;
  g_autoptr(GArray) path = NULL;
  GArray *links;
  CsExplainStop stop;
  gint64 w[5], sum = 0, span_begin, span_end;
  guint b_cpu = G_MAXUINT;
  g_autoptr(GArray) iv = g_array_new (FALSE, FALSE, sizeof (CsPluginTaskInterval));

  worst_wakeup (recording, w);
  /* B's CPU: where the task ran after the runnable interval. */
  g_assert_true (cs_plugin_document_get_task_intervals (fixture->plugins, w[0], w[2], w[2] + 1,
                                                        iv, &error));
  for (guint i = 0; i < iv->len; i++)
    if (g_array_index (iv, CsPluginTaskInterval, i).state == CS_PLUGIN_TASK_RUNNING)
      b_cpu = g_array_index (iv, CsPluginTaskInterval, i).cpu;
  g_assert_cmpuint (b_cpu, !=, G_MAXUINT);

  b = cs_explain_wakeup_pair (fixture->plugins, w[0], w[1], w[3], w[2], b_cpu, TRUE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b);
  g_assert_cmpint (b->pid, ==, w[0]);
  g_assert_cmpuint (b->contributors->len, >, 0);
  for (guint i = 0; i < b->contributors->len; i++)
    {
      const CsExplainContributor *c = &g_array_index (b->contributors, CsExplainContributor, i);

      sum += c->ns;
      if (i > 0)
        g_assert_cmpint (c->ns, <=, g_array_index (b->contributors, CsExplainContributor, i - 1).ns);
    }
  g_assert_cmpint (sum, ==, w[2] - w[1]);
  /* The slices tile [A, B) and add up, per contributor, to its time. */
  g_assert_nonnull (b->slices);
  g_assert_cmpuint (b->slices->len, >=, b->contributors->len);
  {
    g_autofree gint64 *per = g_new0 (gint64, b->contributors->len);

    for (guint i = 0; i < b->slices->len; i++)
      {
        const CsExplainSlice *x = &g_array_index (b->slices, CsExplainSlice, i);

        g_assert_cmpint (x->begin_ns, ==, i == 0 ? w[1]
                                          : g_array_index (b->slices, CsExplainSlice, i - 1).end_ns);
        g_assert_cmpuint (x->contributor, <, b->contributors->len);
        per[x->contributor] += x->end_ns - x->begin_ns;
      }
    g_assert_cmpint (g_array_index (b->slices, CsExplainSlice, b->slices->len - 1).end_ns, ==, w[2]);
    for (guint i = 0; i < b->contributors->len; i++)
      g_assert_cmpint (per[i], ==, g_array_index (b->contributors, CsExplainContributor, i).ns);
  }
  verdict = cs_explain_verdict (b);
  g_assert_cmpstr (verdict, !=, "");
  /* Without its slices (the command line's way, which keeps them only
   * where the latency flags cut them): the same contributors. */
  {
    g_autoptr(CsExplainBreakdown) bare =
      cs_explain_wakeup_pair (fixture->plugins, w[0], w[1], w[3], w[2], b_cpu, FALSE, &error);

    g_assert_no_error (error);
    g_assert_nonnull (bare);
    g_assert_null (bare->slices);
    g_assert_cmpint (bare->need_resched_ns, ==, b->need_resched_ns);
    g_assert_cmpuint (bare->contributors->len, ==, b->contributors->len);
    for (guint i = 0; i < b->contributors->len; i++)
      {
        const CsExplainContributor *x = &g_array_index (b->contributors, CsExplainContributor, i);
        const CsExplainContributor *y = &g_array_index (bare->contributors, CsExplainContributor, i);

        g_assert_cmpint (y->kind, ==, x->kind);
        g_assert_cmpint (y->id, ==, x->id);
        g_assert_cmpstr (y->name, ==, x->name);
        g_assert_cmpint (y->ns, ==, x->ns);
        g_assert_cmpuint (y->n_slices, ==, x->n_slices);
      }
  }

  links = cs_explain_wakeup_chain (fixture->plugins, w[0], w[1], w[3], w[2], b_cpu, 8, TRUE, &stop,
                                   &error);
  g_assert_no_error (error);
  g_assert_cmpuint (links->len, >=, 1);
  g_assert_cmpint (g_array_index (links, CsExplainLink, 0).breakdown->a_ns, ==, w[1]);
  for (guint i = 1; i < links->len; i++)
    g_assert_cmpint (g_array_index (links, CsExplainLink, i).breakdown->b_ns, <=,
                     g_array_index (links, CsExplainLink, i - 1).breakdown->a_ns);
  cs_explain_links_free (links);

  span_begin = w[1] - (w[2] - w[1]);
  span_end = w[2] + 1000000;
  path = g_array_new (FALSE, FALSE, sizeof (CsExplainPathSegment));
  g_assert_true (cs_explain_critical_path_foreach (fixture->plugins, w[0], span_begin, span_end,
                                                   8, append_segment, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (path->len, >, 0);
  g_assert_cmpint (g_array_index (path, CsExplainPathSegment, 0).begin_ns, ==, span_begin);
  g_assert_cmpint (g_array_index (path, CsExplainPathSegment, path->len - 1).end_ns, ==, span_end);
  for (guint i = 1; i < path->len; i++)
    g_assert_cmpint (g_array_index (path, CsExplainPathSegment, i).begin_ns, ==,
                     g_array_index (path, CsExplainPathSegment, i - 1).end_ns);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/cs/plugin/document/foreach-event/sched-v6", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_foreach_event, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-event/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_foreach_event, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-interrupt/sched-v6", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_foreach_interrupt, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-interrupt/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_foreach_interrupt, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-interrupt/i686-v6", CsBuiltinFixture, &i686_v6,
              fixture_set_up, test_foreach_interrupt, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-interrupt/preemptirq-v7", CsBuiltinFixture,
              &preemptirq_v7, fixture_set_up, test_foreach_interrupt, fixture_tear_down);
  if (cs_test_public_or_add_skip ("/cs/plugin/document/foreach-interrupt/graph-i686",
                                  graph_i686.name + strlen ("public/")))
    g_test_add ("/cs/plugin/document/foreach-interrupt/graph-i686", CsBuiltinFixture,
                &graph_i686, fixture_set_up, test_foreach_interrupt, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-migration/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_foreach_migration, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-migration/sample", CsBuiltinFixture,
              &bundled_sample, fixture_set_up, test_foreach_migration, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-unswitched-idle/sample", CsBuiltinFixture,
              &bundled_sample, fixture_set_up, test_foreach_unswitched, fixture_tear_down);
  g_test_add ("/cs/plugin/document/foreach-unswitched-idle/missed-events", CsBuiltinFixture,
              &missed_v7, fixture_set_up, test_foreach_unswitched, fixture_tear_down);
  g_test_add ("/cs/plugin/event/fields/sched-v6", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_fields, fixture_tear_down);
  g_test_add ("/cs/plugin/event/fields/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_fields, fixture_tear_down);
  g_test_add ("/cs/plugin/document/task-intervals/worst-wakeup", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_task_intervals, fixture_tear_down);
  g_test_add ("/cs/explain/api/worst-wakeup/sched-v6", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_explain, fixture_tear_down);
  g_test_add ("/cs/explain/api/worst-wakeup/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_explain, fixture_tear_down);
  g_test_add ("/cs/explain/api/critical-path-whole/sched-v6", CsBuiltinFixture, &sched_v6,
              fixture_set_up, test_critical_path_whole, fixture_tear_down);
  g_test_add ("/cs/explain/api/critical-path-whole/prio-v7", CsBuiltinFixture, &prio_v7,
              fixture_set_up, test_critical_path_whole, fixture_tear_down);
  g_test_add ("/cs/explain/api/critical-path-busy/sample", CsBuiltinFixture, &bundled_sample,
              fixture_set_up, test_critical_path_busy, fixture_tear_down);
  return g_test_run ();
}
