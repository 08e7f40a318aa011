/* index-test-util.c: what the index tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <sys/wait.h>

#include "index-test-util.h"

/* The path of @name in $CS_TESTDATA (tests/data, set by meson). */
char *
cs_test_testdata (const char *name)
{
  const char *dir = g_getenv ("CS_TESTDATA");

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

/* The path of @name in the directory $@env names (CS_TESTDATA,
 * CS_SHARED_TESTDATA), or NULL when it is not a directory. */
char *
cs_test_data_path (const char *env,
                   const char *name)
{
  const char *dir = g_getenv (env);

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_build_filename (dir, name, NULL);
}

/* Skips the test, saying why, when $@env is not a directory of recordings
 * (../shared/testdata is not everywhere); returns whether it did. */
gboolean
cs_test_skip_without (const char *env)
{
  const char *dir = g_getenv (env);

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *msg = g_strdup_printf ("$%s is not set to a directory of recordings", env);
      g_test_skip (msg);
      return TRUE;
    }
  return FALSE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Every recording (*.dat) of $CS_TESTDATA and $CS_SHARED_TESTDATA, sorted
 * by path (transfer full). */
GPtrArray *
cs_test_list_recordings (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *dirs[] = { g_getenv ("CS_TESTDATA"), g_getenv ("CS_SHARED_TESTDATA") };

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

/* @name from tests/data, indexed in the test's own cache. */
CsDocument *
cs_test_load (const char *name)
{
  g_autofree char *path = cs_test_testdata (name);
  g_autoptr(GError) error = NULL;
  CsDocument *doc = cs_document_load (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
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
