/* cs-cli-query.c: `chronoscope query FILE SQL`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   chronoscope query FILE 'SQL' [--csv | --json]
 *   chronoscope query FILE --tables [--json]
 *   chronoscope query FILE --schema TABLE
 *   chronoscope query -i FILE -i FILE... 'SQL'   (several recordings: streams)
 *
 * The SQL runs on a CsSqlSession (index/sql/): read-only virtual tables
 * over the recording.  Results stream: the default table format measures
 * its columns on the first rows only (ROWS_MEASURED), so even a query that
 * returns every event of a large recording runs in bounded memory; --csv
 * (RFC 4180) and --json (an array of objects) stream as well.  A bad query
 * prints SQLite's message with the position, the SQL and a caret under
 * that position on stderr, and exits with status 1.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cs-cli-private.h"
#include "cs-cli-progress.h"
#include "cs-plugin-host.h"
#include "cs-sql-session.h"

#define ROWS_MEASURED 1000
#define MAX_CELL_WIDTH 60

typedef enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } Format;

static void
print_csv_field (GString    *out,
                 const char *text)
{
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_json_string (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_json_value (GString    *out,
                   CsSqlQuery *q,
                   guint       column)
{
  g_autofree char *text = NULL;

  switch (cs_sql_query_get_value_type (q, column))
    {
    case CS_SQL_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, cs_sql_query_get_int64 (q, column));
      return;
    case CS_SQL_FLOAT:
      {
        double d = cs_sql_query_get_double (q, column);
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (isfinite (d))
          g_string_append (out, g_ascii_dtostr (buf, sizeof buf, d));
        else
          g_string_append (out, "null");
        return;
      }
    case CS_SQL_NULL:
      g_string_append (out, "null");
      return;
    default:
      text = cs_sql_query_dup_text (q, column);
      /* Text from the recording need not be UTF-8. */
      if (!g_utf8_validate (text, -1, NULL))
        {
          char *valid = g_utf8_make_valid (text, -1);
          g_free (text);
          text = valid;
        }
      append_json_string (out, text);
    }
}

/* Frees a row of @n cells, some of which may be NULL. */
static void
cells_free (char  **cells,
            guint   n)
{
  for (guint c = 0; c < n; c++)
    g_free (cells[c]);
  g_free (cells);
}

typedef struct {
  guint n_columns;
  GPtrArray *pending;           /* rows (char ** of n_columns) not printed yet */
  int *widths;
  gboolean measured;
} Table;

static void
table_print_row (Table       *t,
                 char       **cells,
                 GString     *out)
{
  for (guint c = 0; c < t->n_columns; c++)
    {
      const char *text = cells[c] ? cells[c] : "NULL";
      int len = (int) g_utf8_strlen (text, -1);

      if (c > 0)
        g_string_append (out, "  ");
      g_string_append (out, text);
      if (c + 1 < t->n_columns)
        for (int i = len; i < t->widths[c]; i++)
          g_string_append_c (out, ' ');
    }
  g_string_append_c (out, '\n');
}

static void
table_flush (Table      *t,
             CsSqlQuery *q,
             GString    *out)
{
  g_autofree char **header = g_new0 (char *, t->n_columns + 1);

  for (guint c = 0; c < t->n_columns; c++)
    {
      header[c] = (char *) cs_sql_query_get_column_name (q, c);
      t->widths[c] = MAX (t->widths[c], (int) g_utf8_strlen (header[c], -1));
    }
  for (guint r = 0; r < t->pending->len; r++)
    {
      char **cells = g_ptr_array_index (t->pending, r);
      for (guint c = 0; c < t->n_columns; c++)
        t->widths[c] = MAX (t->widths[c], MIN (MAX_CELL_WIDTH,
                                               (int) g_utf8_strlen (cells[c] ? cells[c] : "NULL", -1)));
    }
  table_print_row (t, header, out);
  for (guint c = 0; c < t->n_columns; c++)
    {
      if (c > 0)
        g_string_append (out, "  ");
      for (int i = 0; i < t->widths[c]; i++)
        g_string_append_c (out, '-');
    }
  g_string_append_c (out, '\n');
  for (guint r = 0; r < t->pending->len; r++)
    {
      table_print_row (t, g_ptr_array_index (t->pending, r), out);
      cells_free (g_ptr_array_index (t->pending, r), t->n_columns);
    }
  g_ptr_array_set_size (t->pending, 0);
  t->measured = TRUE;
}

/* Runs @q, printing its rows to stdout in @format. */
static gboolean
print_results (CsSqlQuery     *q,
               Format          format,
               CsCliProgress **progress,
               guint64        *n_rows,
               GError        **error)
{
  guint n = cs_sql_query_get_n_columns (q);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) pending = g_ptr_array_new ();
  g_autofree int *widths = g_new0 (int, MAX (n, 1));
  Table table = { n, pending, widths, FALSE };
  gboolean ok = TRUE;

  *n_rows = 0;
  if (format == FORMAT_CSV)
    {
      for (guint c = 0; c < n; c++)
        {
          if (c > 0)
            g_string_append_c (out, ',');
          print_csv_field (out, cs_sql_query_get_column_name (q, c));
        }
      g_string_append (out, "\r\n");
    }
  else if (format == FORMAT_JSON)
    g_string_append_c (out, '[');

  while ((ok = cs_sql_query_next (q, error)))
    {
      /* The first row is there: the line goes before anything is printed. */
      g_clear_pointer (progress, cs_cli_progress_free);
      if (format == FORMAT_TABLE)
        {
          char **cells = g_new0 (char *, n + 1);

          for (guint c = 0; c < n; c++)
            cells[c] = cs_sql_query_dup_text (q, c);
          if (table.measured)
            {
              table_print_row (&table, cells, out);
              cells_free (cells, n);
            }
          else
            {
              g_ptr_array_add (pending, cells);
              if (pending->len >= ROWS_MEASURED)
                table_flush (&table, q, out);
            }
        }
      else if (format == FORMAT_CSV)
        {
          for (guint c = 0; c < n; c++)
            {
              g_autofree char *text = cs_sql_query_dup_text (q, c);
              if (c > 0)
                g_string_append_c (out, ',');
              print_csv_field (out, text);
            }
          g_string_append (out, "\r\n");
        }
      else
        {
          g_string_append (out, *n_rows > 0 ? ",\n {" : "\n {");
          for (guint c = 0; c < n; c++)
            {
              if (c > 0)
                g_string_append (out, ", ");
              append_json_string (out, cs_sql_query_get_column_name (q, c));
              g_string_append (out, ": ");
              append_json_value (out, q, c);
            }
          g_string_append_c (out, '}');
        }
      (*n_rows)++;
      if (out->len > 65536)
        {
          fwrite (out->str, 1, out->len, stdout);
          g_string_truncate (out, 0);
        }
    }
  if (error != NULL && *error != NULL)
    {
      for (guint r = 0; r < pending->len; r++)
        cells_free (pending->pdata[r], n);
      fwrite (out->str, 1, out->len, stdout);
      fflush (stdout);
      return FALSE;
    }
  if (format == FORMAT_TABLE && !table.measured)
    table_flush (&table, q, out);
  else if (format == FORMAT_JSON)
    g_string_append (out, *n_rows > 0 ? "\n]\n" : "]\n");
  fwrite (out->str, 1, out->len, stdout);
  return fflush (stdout) == 0;
}

/* SQLite's message, then the SQL with a caret under the position the
 * message ends with ("(at character N)"). */
static void
report_sql_error (const char   *sql,
                  const GError *error)
{
  const char *at = strstr (error->message, "(at character ");
  long offset = at ? strtol (at + strlen ("(at character "), NULL, 10) : -1;

  fprintf (stderr, "chronoscope query: %s\n", error->message);
  if (offset >= 0 && offset <= (long) strlen (sql) && strchr (sql, '\n') == NULL)
    {
      fprintf (stderr, "  %s\n  ", sql);
      for (long i = 0; i < offset; i++)
        fputc (' ', stderr);
      fputs ("^\n", stderr);
    }
}

int
cs_cli_query (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("FILE [SQL]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(GPtrArray) documents = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) inputs = NULL;
  guint n_inputs;
  const char *first_path;
  const char *sql;
  g_autoptr(CsSqlSession) session = NULL;
  g_autoptr(CsSqlQuery) query = NULL;
  g_autofree char *schema_table = NULL;
  gboolean csv = FALSE, json = FALSE, tables = FALSE;
  Format format = FORMAT_TABLE;
  guint64 n_rows = 0;
  g_autoptr(CsCliProgress) progress = NULL;
  gboolean ok;
  GOptionEntry entries[] = {
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the result as CSV (RFC 4180)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result as a JSON array of objects"), NULL },
    { "tables", 0, 0, G_OPTION_ARG_NONE, &tables, N_("List the tables"), NULL },
    { "schema", 0, 0, G_OPTION_ARG_STRING, &schema_table, N_("Print the columns of TABLE"), N_("TABLE") },
    { "input", 'i', 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs,
      N_("A recording to query; given more than once, the tables join them with a stream "
         "column, and a streams table lists them"), N_("FILE") },
    { NULL }
  };

  g_set_prgname ("chronoscope query");
  g_option_context_set_summary (context,
      _("Runs one read-only SQL statement over a recording. Tables: events, one per "
        "event type (sched_sched_switch, also \"sched:sched_switch\") with a column per "
        "field, tasks, cpus, sched_slices, task_states and wakeups; see --tables and "
        "--schema. Times are nanoseconds in the trace clock. With several recordings "
        "(-i FILE -i FILE 'SQL'), every table has a stream column, events and the event "
        "tables a ts_aligned column (the time on the clock of the first recording that is "
        "not a KVM guest's, a guest's mapped onto its host's), and a streams table lists the "
        "recordings. For a "
        "KVM guest and its host, vcpu_out_ns(stream, cpu, begin, end) is how long of a guest "
        "span the host had that vCPU out of the guest, so that SELECT latency_ns, "
        "vcpu_out_ns(stream, cpu, ts, run_ts) FROM wakeups splits a guest's wakeup latency "
        "into its own wait and the time its vCPU did not run it."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "chronoscope query: %s\n", error->message);
      return 1;
    }
  if (csv && json)
    {
      fprintf (stderr, "chronoscope query: %s\n", _("Choose one of --csv and --json"));
      return 1;
    }
  format = csv ? FORMAT_CSV : json ? FORMAT_JSON : FORMAT_TABLE;
  /* With -i, the files are the options' and the SQL the only argument. */
  n_inputs = inputs != NULL ? g_strv_length (inputs) : 0;
  if (n_inputs > 0)
    {
      /* argv[0], then SQL when not listing tables or a schema */
      gboolean wants_sql = !tables && schema_table == NULL;

      if (argc > (wants_sql ? 2 : 1))
        {
          fprintf (stderr, "chronoscope query: %s\n", _("Too many arguments (see --help)"));
          return 1;
        }
      if (wants_sql && argc < 2)
        {
          fprintf (stderr, "chronoscope query: %s\n", _("Missing SQL argument (see --help)"));
          return 1;
        }
      first_path = inputs[0];
      sql = wants_sql ? argv[1] : NULL;
    }
  else
    {
      if (argc < 2 || (argc < 3 && !tables && schema_table == NULL))
        {
          fprintf (stderr, "chronoscope query: %s\n",
                   argc < 2 ? _("Missing FILE argument (see --help)")
                            : _("Missing SQL argument (see --help)"));
          return 1;
        }
      if (argc > 3 || (argc == 3 && (tables || schema_table != NULL)))
        {
          fprintf (stderr, "chronoscope query: %s\n", _("Too many arguments (see --help)"));
          return 1;
        }
      first_path = argv[1];
      sql = argc == 3 ? argv[2] : NULL;
    }

  for (guint k = 0; k < MAX (n_inputs, 1); k++)
    {
      CsDocument *doc = _cs_cli_load_document ("query", n_inputs > 0 ? inputs[k] : first_path);

      if (doc == NULL)
        return 1;
      g_ptr_array_add (documents, doc);
    }
  document = g_object_ref (documents->pdata[0]);
  session = documents->len == 1
            ? cs_sql_session_new (document, &error)
            : cs_sql_session_new_streams ((CsDocument * const *) documents->pdata, documents->len, &error);
  /* A plugin's pass results are per recording: only for one. */
  if (session != NULL && documents->len == 1)
    {
      g_autoptr(GPtrArray) plugins = cs_plugin_host_dup_enabled_plugins (cs_plugin_host_get_default ());

      if (!cs_plugin_host_add_sql_tables (plugins, document, session, &error))
        g_clear_object (&session);
    }
  if (session == NULL)
    {
      _cs_cli_fail_file ("query", first_path, error);
      return 1;
    }

  if (tables)
    {
      const char * const *names = cs_sql_session_get_tables (session);
      g_autoptr(GString) out = g_string_new (json ? "[" : "");

      for (guint i = 0; names[i] != NULL; i++)
        {
          if (json)
            {
              g_string_append (out, i ? ", " : "");
              append_json_string (out, names[i]);
            }
          else
            g_string_append_printf (out, "%s\n", names[i]);
        }
      if (json)
        g_string_append (out, "]\n");
      fputs (out->str, stdout);
      return 0;
    }
  if (schema_table != NULL)
    {
      g_autofree char *schema = cs_sql_session_dup_schema (session, schema_table, &error);

      if (schema == NULL)
        {
          fprintf (stderr, "chronoscope query: %s\n", error->message);
          return 1;
        }
      g_print ("%s;\n", schema);
      return 0;
    }

  {
    g_autofree char *basename = g_path_get_basename (first_path);
    /* TRANSLATORS: the progress line on stderr, %s is the file's name */
    g_autofree char *label = g_strdup_printf (_("Querying %s"), basename);

    progress = cs_cli_progress_new_activity (label);
  }
  query = cs_sql_session_prepare (session, sql, &error);
  if (query == NULL)
    {
      g_clear_pointer (&progress, cs_cli_progress_free);
      report_sql_error (sql, error);
      return 1;
    }
  ok = print_results (query, format, &progress, &n_rows, &error);
  g_clear_pointer (&progress, cs_cli_progress_free);
  if (!ok)
    {
      fprintf (stderr, "chronoscope query: %s\n", error ? error->message : g_strerror (errno));
      return 1;
    }
  return 0;
}
