/* cs-cpu-scan-fields.c: what one CPU's scan (cs-cpu-scanner.c) takes
 * from a record besides its time: where the fields are, the fields of
 * sched_switch and wakeup records the summaries need, and the interrupt
 * rows of the irq chunks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Field meanings come from the formats (events/sched/sched_switch/format:
 * prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid,
 * next_prio; events/sched/sched_waking/format: pid, the task woken;
 * events/irq/irq_handler_entry/format and irq_handler_exit: irq;
 * events/irq/softirq_entry/format and softirq_exit: vec) and the
 * "common" fields every format starts with.
 */
#include "config.h"

#include <cs-plugin-wakeup.h>
#include <event-parse.h>

#include "cs-cpu-scan-private.h"
#include "cs-tracedat-reader.h"

static gboolean
field_in_record (struct tep_format_field *field,
                 struct tep_record       *rec)
{
  return field != NULL && (gsize) field->offset + field->size <= (gsize) rec->size;
}

/* tep_read_number_field() without the calls (two per field, and the
 * field's size looked at twice): the number in @field of @rec, unsigned,
 * in our byte order.  FALSE when the field is not 1, 2, 4 or 8 bytes, as
 * there.  The caller checked that the field is in the record. */
static inline gboolean
read_number (const struct tep_format_field *field,
             const struct tep_record       *rec,
             gboolean                       swap,
             unsigned long long            *out)
{
  const guint8 *p = (const guint8 *) rec->data + field->offset;

  switch (field->size)
    {
    case 1:
      *out = *p;
      return TRUE;
    case 2:
      {
        guint16 v;

        memcpy (&v, p, 2);
        *out = swap ? GUINT16_SWAP_LE_BE (v) : v;
        return TRUE;
      }
    case 4:
      {
        guint32 v;

        memcpy (&v, p, 4);
        *out = swap ? GUINT32_SWAP_LE_BE (v) : v;
        return TRUE;
      }
    case 8:
      {
        guint64 v;

        memcpy (&v, p, 8);
        *out = swap ? GUINT64_SWAP_LE_BE (v) : v;
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/* Masks of a word's first @n (0..8) bytes in memory order, the word read
 * little-endian. */
static const guint64 first_bytes[9] = {
  0, 0xff, 0xffff, 0xffffff, 0xffffffff, G_GUINT64_CONSTANT (0xffffffffff),
  G_GUINT64_CONSTANT (0xffffffffffff), G_GUINT64_CONSTANT (0xffffffffffffff), G_MAXUINT64,
};

/* Where the first zero byte of @w (read little-endian) is, 0..7, or 8
 * when it has none: the lowest byte flagged by the classic test for a
 * zero byte is the first zero (the test's false positives lie above it). */
static inline guint
first_zero_byte (guint64 w)
{
  guint64 z = (w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w &
              G_GUINT64_CONSTANT (0x8080808080808080);

  return z != 0 ? (guint) __builtin_ctzll (z) / 8 : 8;
}

/* A comm field of @rec into @comm, the bytes after the name zeroed; its
 * length, or -1 when @rec lacks it.  The field is TASK_COMM_LEN (16)
 * bytes in every kernel's sched events: it is read as two words, its
 * length found and its tail cleared in them, where a copy of the name's
 * length had been compiled to a string instruction whose start-up was a
 * sixth of scan_records()'s time (perf annotate on the large benchmark
 * recording, 5.8 M sched_switch). */
static gint8
copy_comm (struct tep_format_field *field,
           struct tep_record       *rec,
           char                     comm[16])
{
  const char *text;
  guint64 w[2] = { 0, 0 };
  guint len;

  if (!field_in_record (field, rec))
    return -1;
  text = (const char *) rec->data + field->offset;
  if (G_LIKELY (field->size >= 16))
    memcpy (w, text, 16);
  else
    memcpy (w, text, field->size);
  w[0] = GUINT64_FROM_LE (w[0]);
  w[1] = GUINT64_FROM_LE (w[1]);
  len = first_zero_byte (w[0]);
  if (len == 8)
    len += first_zero_byte (w[1]);
  w[0] = GUINT64_TO_LE (w[0] & first_bytes[MIN (len, 8)]);
  w[1] = GUINT64_TO_LE (w[1] & first_bytes[len > 8 ? len - 8 : 0]);
  memcpy (comm, w, 16);
  return (gint8) len;
}

/*
 * _cs_cpu_scan_decode_switch:
 * @f: the recording's sched_switch fields
 * @rec: a sched_switch record
 * @op: (out caller-allocates): what the summaries need of it, copied
 *
 * Returns: %FALSE when @rec lacks its pids (@op is then undefined)
 */
gboolean
_cs_cpu_scan_decode_switch (const SchedSwitchFields *f,
                            struct tep_record       *rec,
                            ScanOp                  *op)
{
  unsigned long long prev_pid, next_pid, prev_state = 0, next_prio;

  if (!field_in_record (f->prev_pid, rec) || !field_in_record (f->next_pid, rec) ||
      !read_number (f->prev_pid, rec, f->swap, &prev_pid) ||
      !read_number (f->next_pid, rec, f->swap, &next_pid))
    return FALSE;
  if (field_in_record (f->prev_state, rec) && !read_number (f->prev_state, rec, f->swap, &prev_state))
    prev_state = 0;
  op->wakeup_kind = -1;
  op->pid = (gint32) prev_pid;
  op->next_pid = (gint32) next_pid;
  op->prev_state = (gint32) prev_state;
  /* int next_prio: -1 (SCHED_DEADLINE) reads back through the cast. */
  op->next_prio = field_in_record (f->next_prio, rec) &&
                  read_number (f->next_prio, rec, f->swap, &next_prio) ? (gint32) next_prio : -1;
  op->prev_comm_len = copy_comm (f->prev_comm, rec, op->prev_comm);
  op->next_comm_len = copy_comm (f->next_comm, rec, op->next_comm);
  return TRUE;
}

/*
 * _cs_cpu_scan_count_switch_state:
 * @f: the recording's sched_switch fields
 * @rec: a sched_switch record, of dense type @type
 * @result: its CPU's result
 *
 * Counts @rec by its prev_state as SQL reads it (cs-sql-event-tables.c:
 * the number sign-extended when the format says signed, NULL when the
 * record ends before the field), so that SQL can count sched_switch rows
 * by prev_state without reading them (switch_state_counts).
 */
void
_cs_cpu_scan_count_switch_state (const SchedSwitchFields *f,
                                 struct tep_record       *rec,
                                 gint32                   type,
                                 CsScanResult            *result)
{
  const struct tep_format_field *field = f->prev_state;
  unsigned long long v = 0;
  gboolean is_null;
  guint i;

  if (result->n_switch_states == G_MAXUINT)
    return;
  if (field == NULL || (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
      (result->switch_type >= 0 && result->switch_type != type))
    {
      result->n_switch_states = G_MAXUINT;
      return;
    }
  result->switch_type = type;
  is_null = !field_in_record (f->prev_state, rec);
  if (!is_null && !read_number (field, rec, f->swap, &v))
    {
      result->n_switch_states = G_MAXUINT;        /* no INTEGER column */
      return;
    }
  if (!is_null && (field->flags & TEP_FIELD_IS_SIGNED) && field->size < 8 &&
      (v & (1ULL << (field->size * 8 - 1))))
    v |= ~((1ULL << (field->size * 8)) - 1);
  for (i = 0; i < result->n_switch_states; i++)
    if (result->switch_states[i].is_null == is_null &&
        (is_null || result->switch_states[i].prev_state == (gint64) v))
      break;
  if (i == result->n_switch_states)
    {
      if (i == CS_SCAN_SWITCH_STATES)
        {
          result->n_switch_states = G_MAXUINT;
          return;
        }
      result->switch_states[i].prev_state = is_null ? 0 : (gint64) v;
      result->switch_states[i].is_null = is_null;
      result->switch_states[i].n_events = 0;
      result->n_switch_states++;
    }
  result->switch_states[i].n_events++;
}

static void
find_sched_switch (struct tep_handle *tep,
                   SchedSwitchFields *f)
{
  struct tep_event *ev = tep_find_event_by_name (tep, "sched", "sched_switch");

  memset (f, 0, sizeof *f);
  f->id = -1;
  if (ev == NULL)
    return;
  f->id = ev->id;
  f->swap = tep_is_file_bigendian (tep) != tep_is_local_bigendian (tep);
  f->prev_pid = tep_find_field (ev, "prev_pid");
  f->prev_state = tep_find_field (ev, "prev_state");
  f->prev_comm = tep_find_field (ev, "prev_comm");
  f->next_pid = tep_find_field (ev, "next_pid");
  f->next_comm = tep_find_field (ev, "next_comm");
  f->next_prio = tep_find_field (ev, "next_prio");
  if (f->prev_pid == NULL || f->next_pid == NULL)
    f->id = -1;
}

static void
find_wakeups (struct tep_handle *tep,
              ScanState         *st)
{
  static const char *const names[] = { CS_PLUGIN_WAKEUP_EVENTS ("") };

  int max_id = -1;

  st->n_wakeups = 0;
  st->wakeup_min_id = G_MAXINT;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      struct tep_event *ev = tep_find_event_by_name (tep, "sched", names[i]);
      struct tep_format_field *pid = ev ? tep_find_field (ev, "pid") : NULL;

      if (pid == NULL)
        continue;
      st->wakeups[st->n_wakeups].id = ev->id;
      /* sched_waking is the wakeup's first event; the others follow it */
      st->wakeups[st->n_wakeups].kind = g_str_equal (names[i], "sched_waking")
                                        ? TK_KIND_WAKING : TK_KIND_WAKEUP;
      st->wakeups[st->n_wakeups].pid = pid;
      st->wakeups[st->n_wakeups].swap = tep_is_file_bigendian (tep) != tep_is_local_bigendian (tep);
      st->n_wakeups++;
      st->wakeup_min_id = MIN (st->wakeup_min_id, ev->id);
      max_id = MAX (max_id, ev->id);
    }
  /* Unsigned: with no wakeup event, no id is within G_MAXINT of it. */
  st->wakeup_id_span = st->n_wakeups > 0 ? (guint) (max_id - st->wakeup_min_id) : 0;
}

/*
 * _cs_cpu_scan_decode_wakeup:
 * @w: the wakeup event @rec is of
 * @rec: a sched_waking, sched_wakeup or sched_wakeup_new record
 * @op: (out caller-allocates): the task it wakes and the kind of its task row
 *
 * Returns: %FALSE when @rec lacks its pid
 */
gboolean
_cs_cpu_scan_decode_wakeup (const WakeupEvent *w,
                            struct tep_record *rec,
                            ScanOp            *op)
{
  unsigned long long pid;

  if (!field_in_record (w->pid, rec) || !read_number (w->pid, rec, w->swap, &pid))
    return FALSE;
  op->wakeup_kind = (gint8) w->kind;
  op->pid = (gint32) pid;
  return TRUE;
}

static void
find_irqs (struct tep_handle *tep,
           ScanState         *st)
{
  static const struct {
    const char *name, *field;
    int kind;
  } events[] = {
    { "irq_handler_entry", "irq", IR_KIND_IRQ_ENTRY },
    { "irq_handler_exit", "irq", IR_KIND_IRQ_EXIT },
    { "softirq_entry", "vec", IR_KIND_SOFTIRQ_ENTRY },
    { "softirq_exit", "vec", IR_KIND_SOFTIRQ_EXIT },
  };
  int max_id = -1;

  G_STATIC_ASSERT (G_N_ELEMENTS (events) == IR_N_KINDS);
  st->n_irqs = 0;
  st->irq_min_id = G_MAXINT;
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      struct tep_event *ev = tep_find_event_by_name (tep, "irq", events[i].name);
      struct tep_format_field *value = ev ? tep_find_field (ev, events[i].field) : NULL;
      IrqEvent *e = &st->irqs[st->n_irqs];

      if (value == NULL || (value->size != 1 && value->size != 2 && value->size != 4 &&
                            value->size != 8))
        continue;
      e->id = ev->id;
      e->kind = events[i].kind;
      e->value = value;
      e->name = events[i].kind == IR_KIND_IRQ_ENTRY ? tep_find_field (ev, "name") : NULL;
      if (e->name != NULL && (!(e->name->flags & TEP_FIELD_IS_DYNAMIC) || e->name->size != 4))
        e->name = NULL;
      e->swap = tep_is_file_bigendian (tep) != tep_is_local_bigendian (tep);
      st->n_irqs++;
      st->irq_min_id = MIN (st->irq_min_id, ev->id);
      max_id = MAX (max_id, ev->id);
    }
  st->irq_id_span = st->n_irqs > 0 ? (guint) (max_id - st->irq_min_id) : 0;
}

/* Hands the interrupt rows gathered on, as one irq chunk. */
void
_cs_cpu_scan_flush_irqs (ScanState *st)
{
  if (st->n_ir > 0)
    _cs_cpu_scan_emit_rows (st, CS_SCAN_IRQ_CHUNK, &st->n_irq_chunks, st->ir[IR_TS][0],
                            st->ir[IR_TS][st->n_ir - 1], &st->n_ir, (gpointer *) &st->ir,
                            IR_N_COLUMNS, CS_IRQ_CHUNK_ROWS, _cs_irq_chunk_modes);
}

/* The position of the name @rec (an irq_handler_entry) gives among the
 * CPU's irq handler names (its first 64 bytes), added when new; -1 when the
 * record has none.  The name is a __data_loc string
 * (events/irq/irq_handler_entry/format): a 32-bit word of its offset
 * (low 16 bits; from the field's end when __rel_loc) and length (high
 * 16 bits). */
static gint64
irq_name_id (CsScanResult            *result,
             const IrqEvent          *e,
             const struct tep_record *rec)
{
  unsigned long long loc;
  gsize at, len;
  char key[65];

  if (e->name == NULL || !field_in_record (e->name, (struct tep_record *) rec) ||
      !read_number (e->name, rec, e->swap, &loc))
    return -1;
  at = (gsize) (loc & 0xffff);
  len = (gsize) (loc >> 16);
  if (e->name->flags & TEP_FIELD_IS_RELATIVE)
    at += (gsize) e->name->offset + e->name->size;
  if (at > (gsize) rec->size || len > (gsize) rec->size - at)
    return -1;
  len = strnlen ((const char *) rec->data + at, MIN (len, sizeof key - 1));
  memcpy (key, (const char *) rec->data + at, len);
  key[len] = '\0';
  return _cs_scan_names_id (&result->irq_names, key);
}

/*
 * _cs_cpu_scan_add_irq:
 * @scan: a scan
 * @tep_type: the record's common_type, within [irq_min_id, irq_min_id +
 *   irq_id_span]
 * @rec: the record
 * @ts_ns: its time, @row: its row among the CPU's events
 *
 * Adds an interrupt row for @rec when it is one of the interrupt events
 * (find_irqs()), with the handler's name for an irq_handler_entry; a
 * record too short for a field gives -1.  A full chunk
 * is handed on.
 */
void
_cs_cpu_scan_add_irq (CsCpuScan                  *scan,
                      int                         tep_type,
                      const CsTracedatSlimRecord *rec,
                      gint64                      ts_ns,
                      guint64                     row)
{
  ScanState *st = scan->st;
  struct tep_record tr = { .data = (void *) rec->data, .size = (int) rec->size };
  unsigned long long v;
  gint64 value = -1;
  guint i = 0;

  while (i < st->n_irqs && st->irqs[i].id != tep_type)
    i++;
  if (i == st->n_irqs)
    return;
  if (field_in_record (st->irqs[i].value, &tr) &&
      read_number (st->irqs[i].value, &tr, st->irqs[i].swap, &v))
    /* irq is an int, vec an unsigned int: both fit a gint32's range. */
    value = st->irqs[i].value->size == 4 ? (gint64) (gint32) v : (gint64) v;
  st->ir[IR_TS][st->n_ir] = ts_ns;
  st->ir[IR_ROW][st->n_ir] = (gint64) row;
  st->ir[IR_KIND][st->n_ir] = st->irqs[i].kind;
  st->ir[IR_VALUE][st->n_ir] = value;
  st->ir[IR_NAME][st->n_ir] = irq_name_id (scan->result, &st->irqs[i], &tr);
  if (++st->n_ir == CS_IRQ_CHUNK_ROWS)
    _cs_cpu_scan_flush_irqs (st);
}

static void
find_migrate (struct tep_handle *tep,
              MigrateEvent      *m)
{
  struct tep_event *ev = tep_find_event_by_name (tep, "sched", "sched_migrate_task");

  memset (m, 0, sizeof *m);
  m->id = -1;
  if (ev == NULL)
    return;
  m->pid = tep_find_field (ev, "pid");
  m->orig_cpu = tep_find_field (ev, "orig_cpu");
  m->dest_cpu = tep_find_field (ev, "dest_cpu");
  if (m->pid == NULL || m->pid->size != 4)
    return;
  m->id = ev->id;
  m->swap = tep_is_file_bigendian (tep) != tep_is_local_bigendian (tep);
}

/* A signed int field of @rec (pid_t, int), or -1 when absent or cut short. */
static gint64
read_int_field (struct tep_format_field *field,
                struct tep_record       *rec,
                gboolean                 swap)
{
  unsigned long long v;

  if (field == NULL || (field->size != 4 && field->size != 8) || !field_in_record (field, rec) ||
      !read_number (field, rec, swap, &v))
    return -1;
  return field->size == 4 ? (gint64) (gint32) v : (gint64) v;
}

/*
 * _cs_cpu_scan_add_migrate:
 * @st: a scan's state
 * @rec: a sched_migrate_task record of the scan's CPU
 * @ts_ns: its time, @row: its row among the CPU's events
 *
 * Adds a migration row for @rec (MG_*); a full chunk is handed on.
 */
void
_cs_cpu_scan_add_migrate (ScanState                  *st,
                          const CsTracedatSlimRecord *rec,
                          gint64                      ts_ns,
                          guint64                     row)
{
  struct tep_record tr = { .data = (void *) rec->data, .size = (int) rec->size };
  const MigrateEvent *m = &st->migrate;

  st->mg[MG_TS][st->n_mg] = ts_ns;
  st->mg[MG_ROW][st->n_mg] = (gint64) row;
  st->mg[MG_PID][st->n_mg] = read_int_field (m->pid, &tr, m->swap);
  st->mg[MG_ORIG][st->n_mg] = read_int_field (m->orig_cpu, &tr, m->swap);
  st->mg[MG_DEST][st->n_mg] = read_int_field (m->dest_cpu, &tr, m->swap);
  if (++st->n_mg == CS_MIGRATE_CHUNK_ROWS)
    _cs_cpu_scan_flush_migrates (st);
}

/* Hands the migration rows gathered on, as one migration chunk. */
void
_cs_cpu_scan_flush_migrates (ScanState *st)
{
  if (st->n_mg > 0)
    _cs_cpu_scan_emit_rows (st, CS_SCAN_MIGRATE_CHUNK, &st->n_migrate_chunks, st->mg[MG_TS][0],
                            st->mg[MG_TS][st->n_mg - 1], &st->n_mg, (gpointer *) &st->mg,
                            MG_N_COLUMNS, CS_MIGRATE_CHUNK_ROWS, _cs_migrate_chunk_modes);
}

static void
find_common_fields (struct tep_handle *tep,
                    CommonFields      *cf)
{
  struct tep_event **events = tep_list_events (tep, TEP_EVENT_SORT_ID);
  struct tep_format_field *type = NULL, *pid = NULL;

  memset (cf, 0, sizeof *cf);
  cf->min_size = G_MAXUINT;
  if (events == NULL || events[0] == NULL)
    return;
  type = tep_find_common_field (events[0], "common_type");
  pid = tep_find_common_field (events[0], "common_pid");
  if (type == NULL || pid == NULL ||
      (type->size != 1 && type->size != 2 && type->size != 4) || pid->size != 4)
    return;
  cf->type_offset = type->offset;
  cf->type_size = type->size;
  cf->pid_offset = pid->offset;
  cf->pid_size = pid->size;
  cf->swap = tep_is_file_bigendian (tep) != tep_is_local_bigendian (tep);
  cf->min_size = MAX (cf->type_offset + cf->type_size, cf->pid_offset + 4);
  cf->valid = TRUE;
}

/*
 * _cs_cpu_scan_find_fields:
 * @scan: a scan whose handle (scan->tep) is set
 *
 * Looks up, in the handle's formats, the sched_switch fields, the wakeup
 * and interrupt events and where common_type and common_pid sit.  The handle may be
 * shared with other scanners: lookups that update its caches happen under
 * the lock that guards libtraceevent's parser.
 */
void
_cs_cpu_scan_find_fields (CsCpuScan *scan)
{
  g_mutex_lock (cs_tracedat_reader_get_parse_lock ());
  find_sched_switch (scan->tep, &scan->sw);
  find_wakeups (scan->tep, scan->st);
  find_irqs (scan->tep, scan->st);
  find_migrate (scan->tep, &scan->st->migrate);
  find_common_fields (scan->tep, &scan->common);
  g_mutex_unlock (cs_tracedat_reader_get_parse_lock ());
}
