/* migrations.c: an example Chronoscope plugin, built out of tree.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Marks where sched_migrate_task moved a task onto a CPU: a small arrow on
 * the destination CPU's plot, and a row of its own ("migrations") with
 * every migration, coloured by the task.  It shows each part of the API:
 *
 * - a pass (runs in the indexing worker) reads sched:sched_migrate_task
 *   and writes the table `migration (ts, pid, comm, orig_cpu, dest_cpu)`;
 * - layers draw from that table, one indexed query per frame, at most one
 *   mark per pixel column, so a frame costs the width, not the recording;
 * - lookup tells the info bar what is under the pointer (double-click puts
 *   marker A there);
 * - describe_event adds "migration 3 of this task" to the event list;
 * - a page lists the migrations in the window's range;
 * - `chronoscope migrations FILE` and the "migrations" member of
 *   `chronoscope info FILE --json` on the command line.
 *
 * Build it with only the installed header:
 *
 *   cc -shared -fPIC -o migrations.so migrations.c \
 *      $(pkg-config --cflags --libs chronoscope-plugin-ui-1)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <chronoscope-plugin.h>

#define PASS_NAME "migrations"
#define HIT_PX 4.0

typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;
  sqlite3 *db;                  /* the pass's results, NULL until ready */
  sqlite3_stmt *in_span;        /* ?cpu (-1: all), ?begin, ?end */
  sqlite3_stmt *nth_of_task;    /* ?pid, ?ts */
} Migrations;

static CsPlugin *self_plugin;

/* ------------------------------------------------------------------------ */
/* The pass: in the worker                                                   */

typedef struct {
  sqlite3_stmt *insert;
} PassState;

static const char *const pass_events[] = { "sched:sched_migrate_task", NULL };

static gpointer
pass_begin (CsPluginPass  *pass,
            GError       **error)
{
  sqlite3 *db = cs_plugin_pass_get_db (pass);
  PassState *state;

  if (sqlite3_exec (db, "CREATE TABLE migration (ts INTEGER NOT NULL, pid INTEGER NOT NULL,"
                        " comm TEXT, orig_cpu INTEGER, dest_cpu INTEGER);"
                        "CREATE INDEX migration_cpu ON migration (dest_cpu, ts);"
                        "CREATE INDEX migration_pid ON migration (pid, ts);",
                    NULL, NULL, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "cannot create its table: %s",
                   sqlite3_errmsg (db));
      return NULL;
    }
  state = g_new0 (PassState, 1);
  if (sqlite3_prepare_v2 (db, "INSERT INTO migration VALUES (?1, ?2, ?3, ?4, ?5)", -1,
                          &state->insert, NULL) != SQLITE_OK)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "cannot prepare: %s",
                   sqlite3_errmsg (db));
      g_free (state);
      return NULL;
    }
  return state;
}

static gboolean
pass_event (gpointer              data,
            const CsPluginEvent  *event,
            GError              **error)
{
  PassState *state = data;
  gint64 pid = -1, orig = -1, dest = -1;
  g_autofree char *comm = cs_plugin_event_dup_string (event, "comm");

  cs_plugin_event_get_int (event, "pid", &pid);
  cs_plugin_event_get_int (event, "orig_cpu", &orig);
  cs_plugin_event_get_int (event, "dest_cpu", &dest);
  sqlite3_bind_int64 (state->insert, 1, event->ts_ns);
  sqlite3_bind_int64 (state->insert, 2, pid);
  sqlite3_bind_text (state->insert, 3, comm, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (state->insert, 4, orig);
  sqlite3_bind_int64 (state->insert, 5, dest);
  if (sqlite3_step (state->insert) != SQLITE_DONE)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED, "cannot insert: %s",
                   sqlite3_errmsg (sqlite3_db_handle (state->insert)));
      sqlite3_reset (state->insert);
      return FALSE;
    }
  sqlite3_reset (state->insert);
  return TRUE;
}

static void
pass_free (gpointer data)
{
  PassState *state = data;

  if (state == NULL)
    return;
  sqlite3_finalize (state->insert);
  g_free (state);
}

/* ------------------------------------------------------------------------ */
/* Per recording: on the main thread                                         */

static gpointer
migrations_open (CsPlugin          *plugin,
                 CsPluginDocument  *document,
                 GError           **error)
{
  Migrations *m = g_new0 (Migrations, 1);

  m->plugin = plugin;
  m->document = document;
  return m;
}

static void
forget_results (Migrations *m)
{
  g_clear_pointer (&m->in_span, sqlite3_finalize);
  g_clear_pointer (&m->nth_of_task, sqlite3_finalize);
  m->db = NULL;   /* the document's */
}

static void
migrations_close (gpointer instance)
{
  Migrations *m = instance;

  forget_results (m);
  g_free (m);
}

static void
migrations_pass_ready (gpointer    instance,
                       const char *pass,
                       const char *param)
{
  Migrations *m = instance;
  g_autoptr(GError) error = NULL;

  forget_results (m);
  m->db = cs_plugin_document_get_pass_db (m->document, m->plugin, PASS_NAME, NULL, &error);
  if (m->db == NULL)
    {
      g_message ("migrations: %s", error->message);
      return;
    }
  if (sqlite3_prepare_v2 (m->db, "SELECT ts, pid, comm, orig_cpu, dest_cpu FROM migration"
                                 " WHERE (?1 < 0 OR dest_cpu = ?1) AND ts >= ?2 AND ts < ?3"
                                 " ORDER BY ts", -1, &m->in_span, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (m->db, "SELECT count(*) FROM migration WHERE pid = ?1 AND ts <= ?2",
                          -1, &m->nth_of_task, NULL) != SQLITE_OK)
    {
      g_message ("migrations: %s", sqlite3_errmsg (m->db));
      forget_results (m);
    }
}

static char *
migrations_describe_event (gpointer                instance,
                           const CsPluginEventRef *event)
{
  Migrations *m = instance;
  CsPluginEvent full;
  gint64 pid = -1, n = 0;

  if (m->nth_of_task == NULL || g_strcmp0 (event->name, "sched_migrate_task") != 0 ||
      !cs_plugin_document_read_event (m->document, event, &full, NULL) ||
      !cs_plugin_event_get_int (&full, "pid", &pid))
    return NULL;
  sqlite3_bind_int64 (m->nth_of_task, 1, pid);
  sqlite3_bind_int64 (m->nth_of_task, 2, event->ts_ns);
  if (sqlite3_step (m->nth_of_task) == SQLITE_ROW)
    n = sqlite3_column_int64 (m->nth_of_task, 0);
  sqlite3_reset (m->nth_of_task);
  return g_strdup_printf ("migration %" G_GINT64_FORMAT " of task %" G_GINT64_FORMAT, n, pid);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                   */

typedef struct {
  gint64 ts;
  gint32 pid;
  const char *comm;
  int orig_cpu;
  int dest_cpu;
} Migration;

typedef gboolean (*MigrationFunc) (const Migration *mig, gpointer data);

/* Calls @func for each migration onto @cpu (-1: any) in [begin, end). */
static void
for_each_migration (Migrations    *m,
                    int            cpu,
                    gint64         begin_ns,
                    gint64         end_ns,
                    MigrationFunc  func,
                    gpointer       data)
{
  if (m == NULL || m->in_span == NULL)
    return;
  sqlite3_bind_int (m->in_span, 1, cpu);
  sqlite3_bind_int64 (m->in_span, 2, begin_ns);
  sqlite3_bind_int64 (m->in_span, 3, end_ns);
  while (sqlite3_step (m->in_span) == SQLITE_ROW)
    {
      Migration mig = {
        sqlite3_column_int64 (m->in_span, 0), sqlite3_column_int (m->in_span, 1),
        (const char *) sqlite3_column_text (m->in_span, 2),
        sqlite3_column_int (m->in_span, 3), sqlite3_column_int (m->in_span, 4),
      };

      if (!func (&mig, data))
        break;
    }
  sqlite3_reset (m->in_span);
}

typedef struct {
  const CsPluginView *view;
  cairo_t *cr;
  double y, height;
  double last_x;
} DrawState;

/* One downward arrow per pixel column, in the task's colour. */
static gboolean
draw_one (const Migration *mig,
          gpointer         data)
{
  DrawState *d = data;
  double x = floor (cs_plugin_view_ns_to_x (d->view, mig->ts)) + 0.5;
  CsPluginColor c;

  if (x == d->last_x)
    return TRUE;
  d->last_x = x;
  cs_plugin_view_get_task_color (d->view, mig->pid, &c);
  cairo_set_source_rgb (d->cr, c.red, c.green, c.blue);
  cairo_move_to (d->cr, x - 4, d->y + 1);
  cairo_line_to (d->cr, x + 4, d->y + 1);
  cairo_line_to (d->cr, x, d->y + 9);
  cairo_close_path (d->cr);
  cairo_fill_preserve (d->cr);
  cs_plugin_view_get_color (d->view, CS_PLUGIN_COLOR_TEXT, &c);
  cairo_set_source_rgb (d->cr, c.red, c.green, c.blue);
  cairo_set_line_width (d->cr, 1.0);
  cairo_stroke (d->cr);
  cairo_move_to (d->cr, x, d->y + 9);
  cairo_line_to (d->cr, x, d->y + d->height);
  cairo_stroke (d->cr);
  return TRUE;
}

static gboolean
draw_layer (gpointer             instance,
            cairo_t             *cr,
            const CsPluginView  *view,
            GError             **error)
{
  DrawState d = { view, cr, 0, 0, -1 };
  gint64 begin_ns, end_ns;
  int cpu = cs_plugin_view_get_cpu (view);

  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  cs_plugin_view_get_area (view, NULL, &d.y, NULL, &d.height);
  /* On a CPU plot, the arrows only mark the top; a row is theirs. */
  if (cpu >= 0)
    d.height = 12;
  for_each_migration (instance, cpu, begin_ns, end_ns, draw_one, &d);
  return TRUE;
}

static char *
row_label (gpointer    instance,
           const char *key)
{
  if (g_strcmp0 (key, "all") != 0)
    return NULL;
  return g_strdup ("Migrations\nall CPUs");
}

typedef struct {
  const CsPluginView *view;
  double x;
  double best_dx;
  Migration best;
  char *best_comm;
} FindState;

static gboolean
find_one (const Migration *mig,
          gpointer         data)
{
  FindState *f = data;
  double dx = fabs (cs_plugin_view_ns_to_x (f->view, mig->ts) - f->x);

  if (dx < f->best_dx)
    {
      f->best_dx = dx;
      f->best = *mig;
      g_free (f->best_comm);
      f->best_comm = g_strdup (mig->comm);
    }
  return TRUE;
}

static gboolean
lookup (gpointer            instance,
        const CsPluginView *view,
        double              x_px,
        double              y_px,
        CsPluginItem       *item)
{
  FindState f = { view, x_px, HIT_PX + 0.5, { 0 }, NULL };
  double y, height;
  int cpu = cs_plugin_view_get_cpu (view);
  gint64 begin_ns = cs_plugin_view_x_to_ns (view, x_px - HIT_PX);
  gint64 end_ns = cs_plugin_view_x_to_ns (view, x_px + HIT_PX) + 1;

  cs_plugin_view_get_area (view, NULL, &y, NULL, &height);
  if (cpu >= 0 && y_px > y + 14)
    return FALSE;   /* below the arrows: the CPU plot's own */
  for_each_migration (instance, cpu, begin_ns, end_ns, find_one, &f);
  if (f.best_dx > HIT_PX)
    return FALSE;
  item->text = g_strdup_printf ("%s-%d migrated from CPU %d to CPU %d",
                                f.best_comm != NULL ? f.best_comm : "?", f.best.pid,
                                f.best.orig_cpu, f.best.dest_cpu);
  item->begin_ns = item->end_ns = f.best.ts;
  item->pid = f.best.pid;
  g_free (f.best_comm);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* The window's page                                                         */

typedef struct {
  gint64 n;
} CountState;

static gboolean
count_one (const Migration *mig,
           gpointer         data)
{
  ((CountState *) data)->n++;
  return TRUE;
}

static GtkWidget *
page_create (gpointer        instance,
             CsPluginWindow *window)
{
  GtkWidget *label = gtk_label_new ("");

  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_top (label, 12);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_yalign (GTK_LABEL (label), 0.0);
  gtk_widget_add_css_class (label, "migrations-page");
  /* A row of its own, as soon as the page exists. */
  cs_plugin_window_add_row (window, self_plugin, "migrations_row", "all");
  return label;
}

static void
page_range_changed (gpointer   instance,
                    GtkWidget *page,
                    gint64     begin_ns,
                    gint64     end_ns)
{
  CountState c = { 0 };
  g_autofree char *text = NULL;

  for_each_migration (instance, -1, begin_ns, end_ns, count_one, &c);
  text = g_strdup_printf ("%" G_GINT64_FORMAT " task migrations in this range", c.n);
  gtk_label_set_text (GTK_LABEL (page), text);
}

/* ------------------------------------------------------------------------ */
/* The command line                                                          */

static gboolean
add_json (gpointer      instance,
          JsonBuilder  *builder,
          GError      **error)
{
  Migrations *m = instance;
  guint n_cpus = cs_plugin_document_get_n_cpus (m->document);
  gint64 total = 0;

  if (m == NULL || m->in_span == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_NOT_READY, "its pass has no results");
      return FALSE;
    }
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "by_dest_cpu");
  json_builder_begin_object (builder);
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      CountState c = { 0 };
      char key[16];

      for_each_migration (m, (int) cpu, G_MININT64, G_MAXINT64, count_one, &c);
      if (c.n == 0)
        continue;
      g_snprintf (key, sizeof key, "%u", cpu);
      cs_plugin_json_add_int (builder, key, c.n);
      total += c.n;
    }
  json_builder_end_object (builder);
  cs_plugin_json_add_int (builder, "n_migrations", total);
  json_builder_end_object (builder);
  return TRUE;
}

static gboolean
print_one (const Migration *mig,
           gpointer         data)
{
  printf ("%" G_GINT64_FORMAT " %s-%d CPU %d -> CPU %d\n", mig->ts,
          mig->comm != NULL ? mig->comm : "?", mig->pid, mig->orig_cpu, mig->dest_cpu);
  return TRUE;
}

static int
run_command (CsPlugin  *plugin,
             int        argc,
             char     **argv)
{
  g_autoptr(GError) error = NULL;
  CsPluginDocument *document;

  if (argc != 2)
    {
      fprintf (stderr, "usage: chronoscope migrations FILE\n");
      return 1;
    }
  document = cs_plugin_cli_open (plugin, argv[1], &error);
  if (document == NULL)
    return cs_plugin_cli_fail ("migrations", NULL, error->message);
  for_each_migration (cs_plugin_document_get_instance (document, plugin), -1, G_MININT64,
                      G_MAXINT64, print_one, NULL);
  cs_plugin_document_unref (document);
  return 0;
}

/* ------------------------------------------------------------------------ */

static gboolean
migrations_init (CsPlugin  *plugin,
                 GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    sizeof hooks, migrations_open, migrations_close, migrations_pass_ready,
    migrations_describe_event,
  };
  static const CsPluginPassInfo pass = {
    sizeof pass, PASS_NAME, 1, TRUE, pass_events, NULL, pass_begin, pass_event, NULL, pass_free,
  };
  static const CsPluginLayerInfo on_cpus = {
    sizeof on_cpus, "migration_arrows", CS_PLUGIN_LAYER_CPU_PLOT, NULL, draw_layer, lookup,
  };
  static const CsPluginLayerInfo row = {
    sizeof row, "migrations_row", CS_PLUGIN_LAYER_ROW, row_label, draw_layer, lookup,
  };
  static const CsPluginPageInfo page = {
    sizeof page, "migrations", "Migrations", page_create, page_range_changed,
  };
  static const CsPluginCommandInfo command = {
    sizeof command, "migrations", "List where sched_migrate_task moved tasks", run_command,
  };

  self_plugin = plugin;
  cs_plugin_set_document_hooks (plugin, &hooks);
  cs_plugin_add_pass (plugin, &pass);
  cs_plugin_add_layer (plugin, &on_cpus);
  cs_plugin_add_layer (plugin, &row);
  cs_plugin_add_page (plugin, &page);
  cs_plugin_add_command (plugin, &command);
  cs_plugin_add_json_section (plugin, "migrations", add_json);
  return TRUE;
}

CS_PLUGIN_DEFINE ("migrations", "Task migrations",
                  "Arrows where sched_migrate_task moved a task onto a CPU",
                  "1.0", migrations_init)
