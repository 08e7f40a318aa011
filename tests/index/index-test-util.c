/* index-test-util.c: what the index tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <sys/wait.h>

#include "cs-task-timeline.h"
#include "index-test-util.h"

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Every recording (*.dat) of $CS_TESTDATA and, when they are there, of
 * the public recordings' folder, sorted by path (transfer full). */
GPtrArray *
cs_test_list_recordings (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *dirs[] = { g_getenv ("CS_TESTDATA"), cs_test_public_dir () };

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autoptr(GDir) dir = dirs[i] ? g_dir_open (dirs[i], 0, NULL) : NULL;
      const char *name;

      if (dir == NULL)
        continue;
      while ((name = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (name, ".dat"))
          g_ptr_array_add (paths, g_build_filename (dirs[i], name, NULL));
    }
  g_ptr_array_sort (paths, compare_paths);
  return paths;
}

/* The recording at @path, indexed in the test's own cache; any error
 * fails the test. */
CsDocument *
cs_test_load_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  CsDocument *doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* @name from tests/data, indexed in the test's own cache. */
CsDocument *
cs_test_load (const char *name)
{
  g_autofree char *path = cs_test_own_path (name);

  return cs_test_load_path (path);
}

static CsTracedatReader *
open_kvm (const char *name)
{
  g_autofree char *path = cs_test_kvm_path (name);
  g_autoptr(GError) error = NULL;
  CsTracedatReader *reader;

  if (path == NULL)
    return NULL;
  reader = cs_tracedat_reader_open (path, &error);
  g_assert_no_error (error);
  return reader;
}

/* The readers of ../shared/testdata/kvm's real pair (full, with event
 * formats), or FALSE with the test skipped and both NULL when that folder
 * is absent (cs_test_kvm_path()). */
gboolean
cs_test_open_kvm_pair (CsTracedatReader **host,
                       CsTracedatReader **guest)
{
  *host = open_kvm ("kvm-host-x86-v7-zlib.dat");
  *guest = *host != NULL ? open_kvm ("kvm-guest-x86-v7-zlib.dat") : NULL;
  if (*guest == NULL)
    g_clear_object (host);
  return *guest != NULL;
}

/* Runs the Python oracle named by $@env_var (tests/oracle/, set by meson)
 * on @trace_path and returns the JSON it prints, or NULL when it exits 1:
 * trace-cmd cannot read the file either.  Any other failure fails the
 * test. */
JsonNode *
cs_test_run_oracle (const char *env_var,
                    const char *trace_path)
{
  const char *oracle = g_getenv (env_var);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *argv[] = { "python3", oracle, trace_path, NULL };
  int status;

  g_assert_nonnull (oracle);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 1)
    return NULL;
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("The oracle %s failed on %s: %s\n%s", oracle, trace_path, error->message, err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* The events of kmod/'s trace system in @trace_path, as
 * tests/oracle/kmod-events.py ($CS_KMOD_ORACLE) lists them from
 * `trace-cmd report -t`: a JSON array of {name, ts_ns, cpu, fields}. */
JsonArray *
cs_test_kmod_oracle_events (const char *trace_path)
{
  g_autoptr(JsonNode) root = cs_test_run_oracle ("CS_KMOD_ORACLE", trace_path);

  g_assert_nonnull (root);
  return json_array_ref (json_object_get_array_member (json_node_get_object (root), "events"));
}

/* The @nth (0-based) oracle event named @name, or NULL. */
JsonObject *
cs_test_oracle_event (JsonArray  *events,
                      const char *name,
                      guint       nth)
{
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member (e, "name"), name) == 0 && nth-- == 0)
        return e;
    }
  return NULL;
}

/* A number field of an oracle event; fails when it has none. */
guint64
cs_test_oracle_field (JsonObject *event,
                      const char *field)
{
  JsonObject *fields = json_object_get_object_member (event, "fields");

  g_assert_true (json_object_has_member (fields, field));
  return g_ascii_strtoull (json_object_get_string_member (fields, field), NULL, 10);
}

/* Every event (time, pid, type, text), slice and task interval of @b is
 * @a's, and so are the counts; summaries may be laid out on another grid
 * (the live index's), so only their totals over the recording must agree. */
void
cs_test_assert_same_index (CsDocument *a,
                           CsDocument *b)
{
  g_autoptr(GError) error = NULL;
  guint n_cpus = cs_document_get_n_cpus (a);
  gint64 first = cs_document_get_first_ns (a), last = cs_document_get_last_ns (a);

  g_assert_cmpuint (cs_document_get_n_cpus (b), ==, n_cpus);
  g_assert_cmpuint (cs_document_get_n_events (b), ==, cs_document_get_n_events (a));
  g_assert_cmpint (cs_document_get_first_ns (b), ==, first);
  g_assert_cmpint (cs_document_get_last_ns (b), ==, last);
  g_assert_cmpuint (cs_document_get_n_event_types (b), ==, cs_document_get_n_event_types (a));
  for (guint t = 0; t < cs_document_get_n_event_types (a); t++)
    g_assert_cmpuint (cs_document_get_event_type (b, t)->n_events, ==,
                      cs_document_get_event_type (a, t)->n_events);

  g_assert_cmpuint (cs_document_get_n_tasks (b), ==, cs_document_get_n_tasks (a));
  for (guint i = 0; i < cs_document_get_n_tasks (a); i++)
    {
      const CsTask *ta = cs_document_get_task (a, i), *tb = cs_document_get_task (b, i);
      g_autoptr(GArray) ia = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));
      g_autoptr(GArray) ib = g_array_new (FALSE, FALSE, sizeof (CsTaskInterval));

      g_assert_cmpint (tb->pid, ==, ta->pid);
      g_assert_cmpstr (tb->comm, ==, ta->comm);
      g_assert_cmpuint (tb->n_events, ==, ta->n_events);
      g_assert_cmpint (tb->runtime_ns, ==, ta->runtime_ns);
      g_assert_true (cs_document_get_task_intervals (a, ta->pid, first, last + 1, ia, &error));
      g_assert_true (cs_document_get_task_intervals (b, tb->pid, first, last + 1, ib, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ib->len, ==, ia->len);
      g_assert_cmpmem (ib->data, ib->len * sizeof (CsTaskInterval), ia->data, ia->len * sizeof (CsTaskInterval));
    }

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const CsCpuInfo *ca = cs_document_get_cpu (a, cpu), *cb = cs_document_get_cpu (b, cpu);
      g_autoptr(GArray) sa = g_array_new (FALSE, FALSE, sizeof (CsSlice));
      g_autoptr(GArray) sb = g_array_new (FALSE, FALSE, sizeof (CsSlice));
      g_autofree CsColumn *cols_a = g_new0 (CsColumn, 64);
      g_autofree CsColumn *cols_b = g_new0 (CsColumn, 64);
      guint64 events_a = 0, events_b = 0;
      gint64 busy_a = 0, busy_b = 0;

      g_assert_cmpmem (cb, sizeof *cb, ca, sizeof *ca);
      for (guint64 row = 0; row < ca->n_events; row++)
        {
          CsEvent ea, eb;

          g_assert_true (cs_document_get_event_at_row (a, cpu, row, &ea, &error));
          g_assert_true (cs_document_get_event_at_row (b, cpu, row, &eb, &error));
          g_assert_no_error (error);
          g_assert_cmpint (eb.ts_ns, ==, ea.ts_ns);
          g_assert_cmpint (eb.pid, ==, ea.pid);
          g_assert_cmpuint (eb.type_id, ==, ea.type_id);
          /* The offsets are each file's; the text says they lead to the
           * same record. */
          if (row % 61 == 0 || row + 1 == ca->n_events)
            {
              g_autofree char *text_a = cs_document_format_event (a, &ea, &error);
              g_autofree char *text_b = cs_document_format_event (b, &eb, &error);

              g_assert_no_error (error);
              g_assert_cmpstr (text_b, ==, text_a);
            }
        }

      g_assert_true (cs_document_get_slices (a, cpu, first, last + 1, sa, &error));
      g_assert_true (cs_document_get_slices (b, cpu, first, last + 1, sb, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (sb->len, ==, sa->len);
      for (guint i = 0; i < sa->len; i++)
        {
          const CsSlice *x = &g_array_index (sa, CsSlice, i), *y = &g_array_index (sb, CsSlice, i);

          /* Field by field: each document owns its own copy of a comm. */
          g_assert_cmpint (y->begin_ns, ==, x->begin_ns);
          g_assert_cmpint (y->end_ns, ==, x->end_ns);
          g_assert_cmpint (y->pid, ==, x->pid);
          g_assert_cmpint (y->prev_state, ==, x->prev_state);
          g_assert_cmpuint (y->flags, ==, x->flags);
          g_assert_cmpint (y->next_prio, ==, x->next_prio);
          g_assert_cmpstr (y->next_comm, ==, x->next_comm);
        }

      g_assert_true (cs_document_get_cpu_columns (a, cpu, first, last + 1, 64, cols_a, &error));
      g_assert_true (cs_document_get_cpu_columns (b, cpu, first, last + 1, 64, cols_b, &error));
      g_assert_no_error (error);
      for (guint c = 0; c < 64; c++)
        {
          events_a += cols_a[c].n_events;
          events_b += cols_b[c].n_events;
          busy_a += cols_a[c].busy_ns;
          busy_b += cols_b[c].busy_ns;
        }
      g_assert_cmpuint (events_b, ==, events_a);
      /* A bucket's busy time goes to the column of its middle: buckets
       * across the recording's ends, a column wide at most, may fall out
       * on one grid and not on the other. */
      g_assert_cmpint (ABS (busy_b - busy_a), <=, 2 * (last + 1 - first) / 64 + 1);
    }
}
