/* cs-atrace-cli.c: `chronoscope atrace FILE [--json]`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Lists what the pass stored: slice names with their count, how many
 * closed with an E, and the total and longest duration of the closed
 * ones; async slice names likewise; counters (per tgid and name) with
 * their samples, minimum and maximum; and the Es without a B.  As text or
 * JSON (--json).
 */
#include <stdio.h>

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-atrace-private.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

/* One section: each row of @sql becomes an object whose members are
 * @columns (the first a string, the rest integers); in text, a line. */
static gboolean
add_section (JsonBuilder        *b,
             sqlite3            *db,
             const char         *member,
             const char         *sql,
             const char *const  *columns,
             GError            **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    goto fail;
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      json_builder_begin_object (b);
      for (int i = 0; columns[i] != NULL; i++)
        {
          json_builder_set_member_name (b, columns[i]);
          if (i == 0)
            json_builder_add_string_value (b, (const char *) sqlite3_column_text (stmt, i));
          else
            json_builder_add_int_value (b, sqlite3_column_int64 (stmt, i));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  if (rc == SQLITE_DONE)
    return TRUE;

fail:
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (db));
  return FALSE;
}

static const char *const slice_columns[] = { "name", "count", "closed", "total_ns", "max_ns", NULL };
static const char *const counter_columns[] = { "name", "tgid", "samples", "min", "max", NULL };

static JsonNode *
build (CsPluginDocument  *doc,
       sqlite3           *db,
       GError           **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(sqlite3_stmt) meta = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, cs_plugin_document_get_path (doc));
  if (!add_section (b, db, "slices",
                    "SELECT name, count(*), sum(closed), total(CASE WHEN closed THEN end_ns - begin_ns END), "
                    "  ifnull(max(CASE WHEN closed THEN end_ns - begin_ns END), 0) "
                    "FROM slice GROUP BY name ORDER BY 4 DESC, name",
                    slice_columns, error) ||
      !add_section (b, db, "async",
                    "SELECT name, count(*), sum(closed), total(CASE WHEN closed THEN end_ns - begin_ns END), "
                    "  ifnull(max(CASE WHEN closed THEN end_ns - begin_ns END), 0) "
                    "FROM async GROUP BY name ORDER BY 4 DESC, name",
                    slice_columns, error) ||
      !add_section (b, db, "counters",
                    "SELECT name, tgid, count(*), min(value), max(value) "
                    "FROM counter GROUP BY tgid, name ORDER BY name, tgid",
                    counter_columns, error))
    return NULL;
  if (sqlite3_prepare_v2 (db, "SELECT key, value FROM meta ORDER BY key", -1, &meta, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "%s", sqlite3_errmsg (db));
      return NULL;
    }
  while (sqlite3_step (meta) == SQLITE_ROW)
    {
      json_builder_set_member_name (b, (const char *) sqlite3_column_text (meta, 0));
      json_builder_add_int_value (b, sqlite3_column_int64 (meta, 1));
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static void
print_text (JsonObject *root)
{
  const char *sections[] = { "slices", "async" };

  for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
    {
      JsonArray *rows = json_object_get_array_member (root, sections[s]);

      g_print ("%s\n%9s %9s %14s %14s  %s\n", s == 0 ? _("Slices") : _("Async slices"),
               _("count"), _("closed"), _("total ns"), _("max ns"), _("name"));
      for (guint i = 0; i < json_array_get_length (rows); i++)
        {
          JsonObject *r = json_array_get_object_element (rows, i);

          g_print ("%9" G_GINT64_FORMAT " %9" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
                   " %14" G_GINT64_FORMAT "  %s\n",
                   json_object_get_int_member (r, "count"), json_object_get_int_member (r, "closed"),
                   json_object_get_int_member (r, "total_ns"), json_object_get_int_member (r, "max_ns"),
                   json_object_get_string_member (r, "name"));
        }
    }
  g_print ("%s\n%9s %9s %14s %14s  %s\n", _("Counters"), _("tgid"), _("samples"),
           _("min"), _("max"), _("name"));
  {
    JsonArray *rows = json_object_get_array_member (root, "counters");

    for (guint i = 0; i < json_array_get_length (rows); i++)
      {
        JsonObject *r = json_array_get_object_element (rows, i);

        g_print ("%9" G_GINT64_FORMAT " %9" G_GINT64_FORMAT " %14" G_GINT64_FORMAT
                 " %14" G_GINT64_FORMAT "  %s\n",
                 json_object_get_int_member (r, "tgid"), json_object_get_int_member (r, "samples"),
                 json_object_get_int_member (r, "min"), json_object_get_int_member (r, "max"),
                 json_object_get_string_member (r, "name"));
      }
  }
  g_print (_("E markers without a B: %" PRId64 "\n"),
           json_object_get_int_member_with_default (root, "orphan_ends", 0));
}

static int
run_on (CsPlugin   *plugin,
        const char *path,
        gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  CsPluginDocument *doc;
  sqlite3 *db = NULL;
  int status = 1;

  doc = cs_plugin_cli_open (plugin, path, &error);
  if (doc == NULL)
    return cs_plugin_cli_fail ("atrace", NULL, error->message);
  if (!_cs_atrace_has_events (doc))
    {
      cs_plugin_cli_fail ("atrace", path,
                          _("the recording has no atrace markers (atrace:tracing_mark_write); "
                            "record an Android systrace or open its text"));
      goto out;
    }
  if (!cs_plugin_document_ensure_pass (doc, plugin, CS_ATRACE_PASS, NULL, NULL, &error) ||
      (db = cs_plugin_document_get_pass_db (doc, plugin, CS_ATRACE_PASS, NULL, &error)) == NULL ||
      (root = build (doc, db, &error)) == NULL)
    {
      cs_plugin_cli_fail ("atrace", path, error->message);
      goto out;
    }
  if (json)
    {
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      g_print ("%s\n", text);
    }
  else
    print_text (json_node_get_object (root));
  status = 0;

out:
  cs_plugin_document_unref (doc);
  return status;
}

static int
atrace_run (CsPlugin  *plugin,
            int        argc,
            char     **argv)
{
  gboolean json = FALSE;
  g_auto(GStrv) files = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the lists as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— atrace slices and counters"));
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("A slice is a B marker and the next E of the same task; one without an E ends at "
      "the recording's end and is not in the total or max.  Times are in ns."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cs_plugin_cli_fail ("atrace", NULL, error->message);
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    return cs_plugin_cli_fail ("atrace", NULL, _("give one recording (chronoscope atrace FILE)"));
  return run_on (plugin, files[0], json);
}

static const CsPluginCommandInfo atrace_command = {
  .struct_size = sizeof (CsPluginCommandInfo),
  .name = "atrace",
  .summary = N_("List the atrace slices and counters of a recording"),
  .run = atrace_run,
};

/**
 * _cs_atrace_add_command:
 * @plugin: the atrace plugin, in its init
 *
 * Registers `chronoscope atrace`.
 */
void
_cs_atrace_add_command (CsPlugin *plugin)
{
  cs_plugin_add_command (plugin, &atrace_command);
}
