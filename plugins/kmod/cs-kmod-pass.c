/* cs-kmod-pass.c: the kmod plugin's pass, pairing the module's sections
 * and reading its wakeup latencies.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs in the indexing worker over the module's events only (the host
 * skips every other event from the index's per-type counts), and only on
 * recordings that hold some: the instance asks for it then.  A *_begin is
 * paired with the next *_end of the same kind on its CPU: sections run one
 * at a time and cannot leave their CPU (the module disables interrupts or
 * preemption for them).  A begin while one is open means the end was lost
 * (missed events): the earlier section ends at the new begin.  An end
 * without its begin starts at the recording's first_ns, a begin left open
 * ends at its last_ns.  Each section and latency is written as a row as
 * soon as it is complete; the state kept is two open sections per CPU.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-kmod-plugin-private.h"

/* The events read, as named in kmod/chronoscope_trace.h. */
static const char *const kmod_events[] = {
  KMOD_SYSTEM ":irqs_off_begin",
  KMOD_SYSTEM ":irqs_off_end",
  KMOD_SYSTEM ":preempt_off_begin",
  KMOD_SYSTEM ":preempt_off_end",
  KMOD_SYSTEM ":wakeup_latency",
  NULL,
};

typedef struct {
  gboolean open;
  KmodSection section;
} OpenSection;

typedef struct {
  CsPluginDocument *document;
  sqlite3 *db;
  sqlite3_stmt *insert_section;
  sqlite3_stmt *insert_latency;
  GArray *open;                 /* OpenSection, [cpu * 2 + kind] */
} PassState;

static gboolean
set_sqlite_error (PassState   *state,
                  const char  *what,
                  GError     **error)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
               "%s: %s: %s", cs_plugin_document_get_path (state->document), what,
               sqlite3_errmsg (state->db));
  return FALSE;
}

static void
pass_free (gpointer data)
{
  PassState *state = data;

  sqlite3_finalize (state->insert_section);
  sqlite3_finalize (state->insert_latency);
  g_array_unref (state->open);
  g_free (state);
}

static gpointer
pass_begin (CsPluginPass  *pass,
            GError       **error)
{
  PassState *state = g_new0 (PassState, 1);

  state->document = cs_plugin_pass_get_document (pass);
  state->db = cs_plugin_pass_get_db (pass);
  state->open = g_array_new (FALSE, TRUE, sizeof (OpenSection));
  g_array_set_size (state->open, 2 * cs_plugin_document_get_n_cpus (state->document));

  if (sqlite3_exec (state->db,
                    "CREATE TABLE sections (kind INTEGER NOT NULL, cpu INTEGER NOT NULL,"
                    " begin_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,"
                    " requested_ns INTEGER NOT NULL, measured_ns INTEGER NOT NULL);"
                    "CREATE INDEX sections_by_begin ON sections (begin_ns, cpu);"
                    "CREATE TABLE wakeup_latencies (time_ns INTEGER NOT NULL,"
                    " cpu INTEGER NOT NULL, pid INTEGER NOT NULL, comm TEXT NOT NULL,"
                    " target_cpu INTEGER NOT NULL, latency_ns INTEGER NOT NULL,"
                    " threshold_ns INTEGER NOT NULL);"
                    "CREATE INDEX wakeup_latencies_by_time ON wakeup_latencies (time_ns, cpu);"
                    "CREATE INDEX wakeup_latencies_by_pid ON wakeup_latencies (pid, time_ns);",
                    NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (state->db,
                          "INSERT INTO sections VALUES (:kind, :cpu, :begin_ns, :end_ns,"
                          " :requested_ns, :measured_ns)",
                          -1, &state->insert_section, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (state->db,
                          "INSERT INTO wakeup_latencies VALUES (:time_ns, :cpu, :pid, :comm,"
                          " :target_cpu, :latency_ns, :threshold_ns)",
                          -1, &state->insert_latency, NULL) != SQLITE_OK)
    {
      set_sqlite_error (state, "cannot create the kmod plugin's tables", error);
      pass_free (state);
      return NULL;
    }
  return state;
}

/* Reads a number field; the module's formats declare every field read, so
 * a missing one means a damaged recording. */
static gboolean
read_field (PassState            *state,
            const CsPluginEvent  *event,
            const char           *field,
            guint64              *value,
            GError              **error)
{
  gint64 v;

  if (!cs_plugin_event_get_int (event, field, &v))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                   "%s: the %s:%s event %" G_GUINT64_FORMAT " of CPU %u has no field %s",
                   cs_plugin_document_get_path (state->document), event->system, event->name,
                   event->row, event->cpu, field);
      return FALSE;
    }
  *value = (guint64) v;
  return TRUE;
}

static gboolean
write_section (PassState         *state,
               const KmodSection *section,
               GError           **error)
{
  sqlite3_stmt *s = state->insert_section;
  int rc;

  kmod_bind_int (s, ":kind", section->kind);
  kmod_bind_int (s, ":cpu", section->cpu);
  kmod_bind_int (s, ":begin_ns", section->begin_ns);
  kmod_bind_int (s, ":end_ns", section->end_ns);
  kmod_bind_int (s, ":requested_ns", (gint64) section->requested_ns);
  kmod_bind_int (s, ":measured_ns", (gint64) section->measured_ns);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return rc == SQLITE_DONE || set_sqlite_error (state, "cannot write a section", error);
}

static gboolean
close_section (PassState    *state,
               OpenSection  *open,
               gint64        end_ns,
               guint64       measured_ns,
               GError      **error)
{
  open->section.end_ns = MAX (end_ns, open->section.begin_ns);
  open->section.measured_ns = measured_ns;
  open->open = FALSE;
  return write_section (state, &open->section, error);
}

static gboolean
add_section_event (PassState            *state,
                   const CsPluginEvent  *event,
                   KmodSectionKind       kind,
                   gboolean              is_begin,
                   GError              **error)
{
  guint64 requested, measured = 0;
  OpenSection *open;

  if (!read_field (state, event, "requested_ns", &requested, error) ||
      (!is_begin && !read_field (state, event, "measured_ns", &measured, error)))
    return FALSE;
  if (2 * event->cpu + 1 >= state->open->len)
    g_array_set_size (state->open, 2 * event->cpu + 2);
  open = &g_array_index (state->open, OpenSection, 2 * event->cpu + kind);

  if (is_begin)
    {
      /* A begin while one is open: the end was lost (missed events).  The
       * earlier section cannot have lasted past this begin. */
      if (open->open && !close_section (state, open, event->ts_ns, 0, error))
        return FALSE;
      open->open = TRUE;
      open->section.kind = kind;
      open->section.cpu = event->cpu;
      open->section.begin_ns = event->ts_ns;
      open->section.requested_ns = requested;
      return TRUE;
    }

  if (!open->open)
    {
      /* An end without its begin: the recording started inside the
       * section, so it shows from the recording's start. */
      open->section.kind = kind;
      open->section.cpu = event->cpu;
      open->section.begin_ns = MIN (cs_plugin_document_get_first_ns (state->document),
                                    event->ts_ns);
    }
  open->section.requested_ns = requested;
  return close_section (state, open, event->ts_ns, measured, error);
}

static gboolean
add_latency_event (PassState            *state,
                   const CsPluginEvent  *event,
                   GError              **error)
{
  g_autofree char *comm = cs_plugin_event_dup_string (event, "comm");
  KmodWakeupLatency l = { 0 };
  sqlite3_stmt *s = state->insert_latency;
  guint64 pid, target_cpu;
  int rc;

  if (!read_field (state, event, "pid", &pid, error) ||
      !read_field (state, event, "target_cpu", &target_cpu, error) ||
      !read_field (state, event, "latency_ns", &l.latency_ns, error) ||
      !read_field (state, event, "threshold_ns", &l.threshold_ns, error))
    return FALSE;
  /* As the kernel's TASK_COMM_LEN bounds it. */
  g_strlcpy (l.comm, comm != NULL ? comm : "", sizeof l.comm);

  kmod_bind_int (s, ":time_ns", event->ts_ns);
  kmod_bind_int (s, ":cpu", event->cpu);
  kmod_bind_int (s, ":pid", (gint32) pid);
  sqlite3_bind_text (s, sqlite3_bind_parameter_index (s, ":comm"), l.comm, -1, SQLITE_TRANSIENT);
  kmod_bind_int (s, ":target_cpu", (gint32) target_cpu);
  kmod_bind_int (s, ":latency_ns", (gint64) l.latency_ns);
  kmod_bind_int (s, ":threshold_ns", (gint64) l.threshold_ns);
  rc = sqlite3_step (s);
  sqlite3_reset (s);
  return rc == SQLITE_DONE || set_sqlite_error (state, "cannot write a wakeup latency", error);
}

static gboolean
pass_event (gpointer              data,
            const CsPluginEvent  *event,
            GError              **error)
{
  PassState *state = data;
  const char *name = event->name;

  if (g_str_equal (name, "wakeup_latency"))
    return add_latency_event (state, event, error);
  if (g_str_equal (name, "irqs_off_begin") || g_str_equal (name, "irqs_off_end"))
    return add_section_event (state, event, KMOD_SECTION_IRQS_OFF,
                              g_str_has_suffix (name, "_begin"), error);
  if (g_str_equal (name, "preempt_off_begin") || g_str_equal (name, "preempt_off_end"))
    return add_section_event (state, event, KMOD_SECTION_PREEMPT_OFF,
                              g_str_has_suffix (name, "_begin"), error);
  return TRUE;
}

static gboolean
pass_end (gpointer   data,
          GError   **error)
{
  PassState *state = data;
  gint64 last_ns = cs_plugin_document_get_last_ns (state->document);

  /* A begin without an end: the recording stopped inside the section. */
  for (guint i = 0; i < state->open->len; i++)
    {
      OpenSection *open = &g_array_index (state->open, OpenSection, i);

      if (open->open && !close_section (state, open, last_ns, 0, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * kmod_pass_info:
 *
 * The pass "events", over the module's section and wakeup_latency events.
 * Not automatic: the instance asks for it only on recordings that hold
 * the module's events (kmod_instance_open()), so that the others cost no
 * pass at all, not even a worker started for nothing.  Writes the tables
 * `sections (kind, cpu, begin_ns, end_ns, requested_ns, measured_ns)`
 * (kind: #KmodSectionKind) and `wakeup_latencies (time_ns, cpu, pid, comm,
 * target_cpu, latency_ns, threshold_ns)`, times in ns of the trace clock.
 */
const CsPluginPassInfo kmod_pass_info = {
  .struct_size = sizeof (CsPluginPassInfo),
  .name = KMOD_PASS,
  .version = KMOD_PASS_VERSION,
  .automatic = FALSE,
  .events = kmod_events,
  .begin = pass_begin,
  .event = pass_event,
  .end = pass_end,
  .free = pass_free,
};
