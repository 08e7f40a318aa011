/* record-test-util.c: what the recording tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The oracle is tests/oracle/report-counts.py ($CS_ORACLE), which counts
 * what `trace-cmd report` prints; per-pid counts come from `trace-cmd
 * report` directly with the same line rule.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "record-test-util.h"
#include "tracefs-test-util.h"

/* Recording needs root and a tracefs, found or mounted as the recorder
 * does (tracefs-test-util.c); anything else is a skip that says which. */
gboolean
rt_require_tracefs (void)
{
  return cs_test_require_tracefs ();
}

/* The tracefs folder, once rt_require_tracefs() said yes. */
const char *
rt_tracing_dir (void)
{
  return cs_test_tracing_dir (NULL);
}

char *
rt_read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static char *
top_file (const char *name)
{
  g_autofree char *path = g_build_filename (rt_tracing_dir (), name, NULL);
  return rt_read_text (path);
}

void
rt_snapshot_take (TracefsSnapshot *snap)
{
  snap->set_event = top_file ("set_event");
  snap->current_tracer = top_file ("current_tracer");
  snap->tracing_on = top_file ("tracing_on");
  snap->buffer_size_kb = top_file ("buffer_size_kb");
}

/* The top instance is as it was; frees @snap. */
void
rt_snapshot_assert_same (TracefsSnapshot *snap)
{
  TracefsSnapshot now;

  rt_snapshot_take (&now);
  g_assert_cmpstr (now.set_event, ==, snap->set_event);
  g_assert_cmpstr (now.current_tracer, ==, snap->current_tracer);
  g_assert_cmpstr (now.tracing_on, ==, snap->tracing_on);
  g_assert_cmpstr (now.buffer_size_kb, ==, snap->buffer_size_kb);
  g_free (now.set_event);
  g_free (now.current_tracer);
  g_free (now.tracing_on);
  g_free (now.buffer_size_kb);
  g_free (snap->set_event);
  g_free (snap->current_tracer);
  g_free (snap->tracing_on);
  g_free (snap->buffer_size_kb);
}

void
rt_assert_instance_gone (int pid)
{
  g_autofree char *name = g_strdup_printf ("chronoscope-%d", pid);
  g_autofree char *path = g_build_filename (rt_tracing_dir (), "instances", name, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    g_error ("The tracefs instance %s is still there", path);
}

/* Every instances/chronoscope-PID belongs to a live process: recorders of
 * other tests may run, but none may be left behind. */
void
rt_assert_no_orphan_instances (void)
{
  g_autofree char *path = g_build_filename (rt_tracing_dir (), "instances", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      guint64 pid;

      if (!g_str_has_prefix (name, "chronoscope-"))
        continue;
      if (!g_ascii_string_to_unsigned (name + strlen ("chronoscope-"), 10, 1, G_MAXINT, &pid, NULL))
        g_error ("Unexpected instance %s", name);
      if (kill ((pid_t) pid, 0) != 0 && errno == ESRCH)
        g_error ("The instance %s outlived its recorder", name);
    }
}

/* Nothing but @keep (a basename, or NULL) in @dir: no temporary files. */
void
rt_assert_no_leftovers (const char *dir,
                        const char *keep)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_strcmp0 (name, keep) != 0)
      g_error ("%s/%s was left behind", dir, name);
}

/* No hidden ".NAME.XXXXXX.cpuN" or ".part" files in @dir. */
void
rt_assert_no_temp_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (name[0] == '.')
      g_error ("%s/%s was left behind", dir, name);
}

JsonObject *
rt_run_oracle (const char *trace_path)
{
  return rt_run_oracle_env (trace_path, NULL);
}

/* The oracle with @envp (NULL: ours) for it and the trace-cmd it runs. */
JsonObject *
rt_run_oracle_env (const char  *trace_path,
                   char       **envp)
{
  const char *oracle = g_getenv ("CS_ORACLE");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *argv[] = { "python3", oracle, trace_path, NULL };
  int status;

  g_assert_nonnull (oracle);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("trace-cmd report (through the oracle) cannot read %s: %s\n%s",
             trace_path, error->message, err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Runs trace-cmd ARGS... on @path; returns "$ trace-cmd ...", then at most
 * @max_lines lines of its output and the start of its stderr. */
static char *
trace_cmd_excerpt (const char *path, guint max_lines, const char *first, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GString *text = g_string_new ("$ trace-cmd");
  const char *arg;
  va_list args;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) "trace-cmd");
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, (gpointer) path);
  for (guint i = 1; i < argv->len; i++)
    g_string_append_printf (text, " %s", (const char *) g_ptr_array_index (argv, i));
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, &error))
    {
      g_string_append_printf (text, "\n  cannot run: %s\n", error->message);
      return g_string_free (text, FALSE);
    }
  g_string_append_printf (text, "   (wait status %d)\n", status);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && i < max_lines; i++)
    g_string_append_printf (text, "  %s\n", lines[i]);
  if (g_strv_length (lines) > max_lines)
    g_string_append_printf (text, "  ... (%u lines in all)\n", g_strv_length (lines));
  if (err != NULL && *err != '\0')
    g_string_append_printf (text, "  stderr: %.2000s\n", err);
  return g_string_free (text, FALSE);
}

/* When the oracle and our index disagree on a recording: says what trace-cmd
 * makes of it and keeps a copy of the file (the test's folder is removed),
 * so that a failure that does not come back can still be studied. */
void
rt_describe_recording (const char *path,
                       JsonObject *oracle)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *keep_dir = g_dir_make_tmp ("cs-kept-recording-XXXXXX", &error);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *kept = keep_dir != NULL ? g_build_filename (keep_dir, base, NULL) : NULL;
  g_autoptr(GFile) from = g_file_new_for_path (path);
  g_autoptr(GFile) to = kept != NULL ? g_file_new_for_path (kept) : NULL;
  const char * const dumps[][2] = {
    { "report", NULL }, { "dump", "--summary" }, { "dump", "--flyrecord" },
    { "dump", "--options" },
  };

  if (oracle != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), oracle);
      g_autofree char *json = json_to_string (node, TRUE);

      g_test_message ("The oracle says of %s:\n%s", path, json);
    }
  for (guint i = 0; i < G_N_ELEMENTS (dumps); i++)
    {
      g_autofree char *excerpt = NULL;

      if (dumps[i][1] == NULL)
        excerpt = trace_cmd_excerpt (path, 6, dumps[i][0], NULL);
      else
        excerpt = trace_cmd_excerpt (path, 40, dumps[i][0], dumps[i][1], "-i", NULL);
      g_test_message ("%s", excerpt);
    }
  if (to != NULL && g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error))
    g_test_message ("A copy of the recording is kept at %s", kept);
  else
    g_test_message ("Could not keep a copy of %s: %s", path,
                    error != NULL ? error->message : "no folder");
}

/* The oracle read events from @oracle's file (a good recording is never
 * empty); describes the file otherwise. */
void
rt_assert_oracle_has_events (JsonObject *oracle)
{
  if (json_object_get_int_member (oracle, "n_events") > 0)
    return;
  rt_describe_recording (json_object_get_string_member (oracle, "file"), oracle);
  g_error ("trace-cmd report (through the oracle) shows no event in %s",
           json_object_get_string_member (oracle, "file"));
}

/* Why our index and the oracle differ, or NULL. */
static char *
document_mismatch (CsDocument *doc,
                   JsonObject *oracle)
{
  JsonObject *cpus = json_object_get_object_member (oracle, "cpus");
  JsonObject *events = json_object_get_object_member (oracle, "events");
  guint64 want_total = (guint64) json_object_get_int_member (oracle, "n_events");
  guint n_types = 0;

  if (cs_document_get_n_events (doc) != want_total)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " events in our index, %" G_GUINT64_FORMAT
                            " in trace-cmd report", cs_document_get_n_events (doc), want_total);

  for (guint cpu = 0; cpu < cs_document_get_n_cpus (doc); cpu++)
    {
      g_autofree char *key = g_strdup_printf ("%u", cpu);
      const CsCpuInfo *info = cs_document_get_cpu (doc, cpu);
      gint64 want = json_object_has_member (cpus, key) ? json_object_get_int_member (cpus, key) : 0;
      guint64 have = info != NULL ? info->n_events : 0;

      if (have != (guint64) want)
        return g_strdup_printf ("CPU %u: %" G_GUINT64_FORMAT " events in our index, %"
                                G_GINT64_FORMAT " in trace-cmd report", cpu, have, want);
    }

  for (guint i = 0; i < cs_document_get_n_event_types (doc); i++)
    {
      const CsEventType *type = cs_document_get_event_type (doc, i);
      g_autofree char *key = NULL;
      gint64 want;

      if (type == NULL || type->n_events == 0)
        continue;
      key = g_strdup_printf ("%s:%s", type->system, type->name);
      want = json_object_has_member (events, key) ? json_object_get_int_member (events, key) : 0;
      if (type->n_events != (guint64) want)
        return g_strdup_printf ("%s: %" G_GUINT64_FORMAT " events in our index, %" G_GINT64_FORMAT
                                " in trace-cmd report", key, type->n_events, want);
      n_types++;
    }
  if (n_types != json_object_get_size (events))
    return g_strdup_printf ("%u event types in our index, %u in trace-cmd report",
                            n_types, json_object_get_size (events));
  return NULL;
}

/* Our index gives the oracle's counts: in total, per CPU, per event type.
 * Otherwise the file is described (rt_describe_recording()) and the test
 * fails saying where they differ. */
void
rt_assert_document_matches (CsDocument *doc,
                            JsonObject *oracle)
{
  g_autofree char *why = document_mismatch (doc, oracle);

  if (why == NULL)
    return;
  rt_describe_recording (json_object_get_string_member (oracle, "file"), oracle);
  g_error ("Our index and trace-cmd report differ on %s: %s",
           json_object_get_string_member (oracle, "file"), why);
}

CsDocument *
rt_load_document (const char *trace_path)
{
  g_autoptr(GError) error = NULL;
  CsDocument *doc = cs_document_load (trace_path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* Events per name of one pid in `trace-cmd report` (header lines
 * "COMM-PID [CPU] SECONDS: NAME: ...", as the oracle reads them). */
GHashTable *
rt_report_counts_for_pid (const char *trace_path,
                          int         pid,
                          guint64    *n_events)
{
  const char *argv[] = { "trace-cmd", "report", trace_path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  regex = g_regex_new ("^.*?-(\\d+)\\s+\\[(\\d+)\\]\\s+\\d+\\.\\d+:\\s+([^:\\s]+):", 0, 0, &error);
  g_assert_no_error (error);
  *n_events = 0;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      g_autofree char *pid_text = NULL;
      g_autofree char *name = NULL;

      if (!g_regex_match (regex, lines[i], 0, &match))
        continue;
      pid_text = g_match_info_fetch (match, 1);
      if (atoi (pid_text) != pid)
        continue;
      name = g_match_info_fetch (match, 3);
      g_hash_table_insert (counts, g_strdup (name),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, name)) + 1));
      (*n_events)++;
    }
  return counts;
}
