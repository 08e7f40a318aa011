/* cs-text-event-specs.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The events whose fields the text importer knows, with the field layout
 * and print fmt of Linux 6.x's events/<system>/<event>/format, and the
 * readers of their fields from the text: the kernel's `key=value` layout,
 * trace-cmd's plugin layouts (sched_switch, sched_wakeup), raw syscalls'
 * "NR n (args)", the function tracer's "func <-parent", and atrace's
 * marker protocol.  A value runs to the next field's key, so a comm may
 * hold blanks ("Web Content").
 */
#include "config.h"

#include <string.h>

#include "cs-text-event-specs-private.h"

static void parse_kv (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_switch (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_wakeup (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_print (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_function (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_sys_enter (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_sys_exit (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);
static void parse_atrace (CsTextEvents *, const Spec *, const CsTextLine *, const char *, Value *);

#define WAKEUP_FIELDS { { "char comm[16]", "comm", K_COMM }, { "pid_t pid", "pid", K_S32 }, \
                        { "int prio", "prio", K_S32 }, { "int target_cpu", "target_cpu", K_S32 } }
#define WAKEUP_FMT "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu"
#define SOFTIRQ_FMT "\"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" }, " \
  "{ 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, " \
  "{ 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })"
#define STATE_MASK "((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | " \
  "0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)"

const Spec _cs_text_event_specs[] = {
  { "sched", "sched_switch",
    "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d "
    "next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & "
    STATE_MASK ") ? __print_flags(REC->prev_state & " STATE_MASK ", \"|\", { 0x00000001, \"S\" }, "
    "{ 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, "
    "{ 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
    "(REC->prev_state & 0x00000100) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio",
    parse_switch,
    { { "char prev_comm[16]", "prev_comm", K_COMM }, { "pid_t prev_pid", "prev_pid", K_S32 },
      { "int prev_prio", "prev_prio", K_S32 }, { "long prev_state", "prev_state", K_S64 },
      { "char next_comm[16]", "next_comm", K_COMM }, { "pid_t next_pid", "next_pid", K_S32 },
      { "int next_prio", "next_prio", K_S32 } } },
  { "sched", "sched_wakeup", WAKEUP_FMT, parse_wakeup, WAKEUP_FIELDS },
  { "sched", "sched_waking", WAKEUP_FMT, parse_wakeup, WAKEUP_FIELDS },
  { "sched", "sched_wakeup_new", WAKEUP_FMT, parse_wakeup, WAKEUP_FIELDS },
  { "sched", "sched_process_exit",
    "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio", parse_kv,
    { { "char comm[16]", "comm", K_COMM }, { "pid_t pid", "pid", K_S32 }, { "int prio", "prio", K_S32 } } },
  { "sched", "sched_process_free",
    "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio", parse_kv,
    { { "char comm[16]", "comm", K_COMM }, { "pid_t pid", "pid", K_S32 }, { "int prio", "prio", K_S32 } } },
  { "sched", "sched_process_fork",
    "\"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), REC->parent_pid, "
    "__get_str(child_comm), REC->child_pid", parse_kv,
    { { "__data_loc char[] parent_comm", "parent_comm", K_STR, "comm" },
      { "pid_t parent_pid", "parent_pid", K_S32, "pid" },
      { "__data_loc char[] child_comm", "child_comm", K_STR },
      { "pid_t child_pid", "child_pid", K_S32 } } },
  { "sched", "sched_process_exec",
    "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid", parse_kv,
    { { "__data_loc char[] filename", "filename", K_STR }, { "pid_t pid", "pid", K_S32 },
      { "pid_t old_pid", "old_pid", K_S32 } } },
  { "sched", "sched_migrate_task",
    "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm), REC->pid, REC->prio, "
    "REC->orig_cpu, REC->dest_cpu", parse_kv,
    { { "__data_loc char[] comm", "comm", K_STR }, { "pid_t pid", "pid", K_S32 },
      { "int prio", "prio", K_S32 }, { "int orig_cpu", "orig_cpu", K_S32 },
      { "int dest_cpu", "dest_cpu", K_S32 } } },
  { "sched", "sched_stat_runtime",
    "\"comm=%s pid=%d runtime=%llu [ns]\", REC->comm, REC->pid, REC->runtime", parse_kv,
    { { "char comm[16]", "comm", K_COMM }, { "pid_t pid", "pid", K_S32 },
      { "u64 runtime", "runtime", K_U64 } } },
  { "irq", "irq_handler_entry", "\"irq=%d name=%s\", REC->irq, __get_str(name)", parse_kv,
    { { "int irq", "irq", K_S32 }, { "__data_loc char[] name", "name", K_STR } } },
  { "irq", "irq_handler_exit", "\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"",
    parse_kv, { { "int irq", "irq", K_S32 }, { "int ret", "ret", K_S32 } } },
  { "irq", "softirq_entry", SOFTIRQ_FMT, parse_kv, { { "unsigned int vec", "vec", K_U32 } } },
  { "irq", "softirq_exit", SOFTIRQ_FMT, parse_kv, { { "unsigned int vec", "vec", K_U32 } } },
  { "irq", "softirq_raise", SOFTIRQ_FMT, parse_kv, { { "unsigned int vec", "vec", K_U32 } } },
  { "raw_syscalls", "sys_enter",
    "\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], REC->args[1], "
    "REC->args[2], REC->args[3], REC->args[4], REC->args[5]", parse_sys_enter,
    { { "long id", "id", K_S64 }, { "unsigned long args[0]", "args0", K_U64 },
      { "unsigned long args[1]", "args1", K_U64 }, { "unsigned long args[2]", "args2", K_U64 },
      { "unsigned long args[3]", "args3", K_U64 }, { "unsigned long args[4]", "args4", K_U64 },
      { "unsigned long args[5]", "args5", K_U64 } } },
  { "raw_syscalls", "sys_exit", "\"NR %ld = %ld\", REC->id, REC->ret", parse_sys_exit,
    { { "long id", "id", K_S64 }, { "long ret", "ret", K_S64 } } },
  { "power", "cpu_idle",
    "\"state=%lu cpu_id=%lu\", (unsigned long)REC->state, (unsigned long)REC->cpu_id", parse_kv,
    { { "u32 state", "state", K_U32 }, { "u32 cpu_id", "cpu_id", K_U32 } } },
  { "power", "cpu_frequency",
    "\"state=%lu cpu_id=%lu\", (unsigned long)REC->state, (unsigned long)REC->cpu_id", parse_kv,
    { { "u32 state", "state", K_U32 }, { "u32 cpu_id", "cpu_id", K_U32 } } },
  { "ftrace", "print", "\"%ps: %s\", (void *)REC->ip, REC->buf", parse_print,
    { { "unsigned long ip", "ip", K_SYM }, { "char buf[]", "buf", K_TAIL } } },
  { "ftrace", "function", "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip", parse_function,
    { { "unsigned long ip", "ip", K_SYM }, { "unsigned long parent_ip", "parent_ip", K_SYM } } },
  { "ftrace", "funcgraph_entry", "\"--> %ps (%u)\", (void *)REC->func, REC->depth", parse_kv,
    { { "unsigned long func", "func", K_SYM }, { "unsigned int depth", "depth", K_U32 } } },
  { "ftrace", "funcgraph_exit",
    "\"<-- %ps (%u) (start: %llx  end: %llx) over: %u\", (void *)REC->func, REC->depth, "
    "REC->calltime, REC->rettime, REC->overrun", parse_kv,
    { { "unsigned long func", "func", K_SYM }, { "unsigned int depth", "depth", K_U32 },
      { "unsigned int overrun", "overrun", K_U32 },
      { "unsigned long long calltime", "calltime", K_U64 },
      { "unsigned long long rettime", "rettime", K_U64 } } },
  /* Android atrace's trace_marker protocol (frameworks/native/cmds/atrace,
   * libcutils trace.h): "B|tgid|name" begins a slice, "E[|tgid]" ends the
   * task's innermost one, "C|tgid|name|value" sets a counter, "S|tgid|name|
   * cookie" / "F|tgid|name|cookie" begin and end an async slice.  Kept as
   * the fields of their own event so that filters, SQL and plots read them;
   * buf holds the text as written. */
  { "atrace", "tracing_mark_write", "\"%s\", __get_str(buf)", parse_atrace,
    { { "char kind", "kind", K_U8 }, { "int tgid", "tgid", K_S32 },
      { "__data_loc char[] name", "name", K_STR }, { "long long value", "value", K_S64 },
      { "__data_loc char[] buf", "buf", K_STR } } },
};

const guint _cs_text_n_event_specs = G_N_ELEMENTS (_cs_text_event_specs);

/* The generic format of an event the importer does not know. */
const Spec _cs_text_generic_spec = {
  NULL, NULL, "\"%s\", __get_str(text)", NULL,
  { { "__data_loc char[] text", "text", K_STR } },
};

/* ---- Values from text ---------------------------------------------------- */


/* A number at the start of [p, p + len): decimal (possibly negative), 0x
 * hex, or the words irq_handler_exit prints. */
static gint64
parse_number (const char *p,
              gsize       len)
{
  char buf[32];
  gsize n = 0;

  while (len > 0 && (*p == ' ' || *p == '\t'))
    p++, len--;
  while (n < len && n < sizeof buf - 1 && p[n] != ' ' && p[n] != ',' && p[n] != ')' && p[n] != ']')
    {
      buf[n] = p[n];
      n++;
    }
  buf[n] = '\0';
  if (g_str_equal (buf, "handled"))
    return 1;
  if (g_str_equal (buf, "unhandled"))
    return 0;
  if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
    return (gint64) g_ascii_strtoull (buf + 2, NULL, 16);
  if (buf[0] == '-')
    return g_ascii_strtoll (buf, NULL, 10);
  return (gint64) g_ascii_strtoull (buf, NULL, 10);
}

/* Where "key=" starts in @payload at or after @from, at the start or after a
 * blank; NULL when absent. */
static const char *
find_key (const char *payload,
          const char *from,
          const char *key)
{
  gsize klen = strlen (key);

  for (const char *p = strstr (from, key); p != NULL; p = strstr (p + 1, key))
    if ((p == payload || p[-1] == ' ' || p[-1] == '\t') && p[klen] == '=')
      return p;
  return NULL;
}

static void
set_value (const Field *f,
           Value       *v,
           const char  *text,
           gsize        len)
{
  while (len > 0 && text[len - 1] == ' ')
    len--;
  v->str = text;
  v->len = len;
  if (f->kind != K_COMM && f->kind != K_STR && f->kind != K_TAIL && f->kind != K_SYM)
    v->num = parse_number (text, len);
}

/* `key=value key=value ...`: a value runs to the next field's key, so a
 * comm may hold blanks ("Web Content"). */
static void
parse_kv (CsTextEvents     *self,
          const Spec       *spec,
          const CsTextLine *line,
          const char       *payload,
          Value            *values)
{
  const char *from = payload;

  for (guint i = 0; i < MAX_FIELDS && spec->fields[i].decl != NULL; i++)
    {
      const Field *f = &spec->fields[i];
      const char *key = f->key ? f->key : f->name;
      const char *at = find_key (payload, from, key);
      const char *value, *end = NULL;

      if (at == NULL)
        continue;
      value = at + strlen (key) + 1;
      for (guint j = i + 1; end == NULL && j < MAX_FIELDS && spec->fields[j].decl != NULL; j++)
        end = find_key (payload, value, spec->fields[j].key ? spec->fields[j].key : spec->fields[j].name);
      if (end == NULL)
        end = value + strlen (value);
      set_value (f, &values[i], value, end - value);
      from = value;
    }
}

/* prev_state as letters.  The kernel's own text (print fmt of Linux 4.14+)
 * uses "SDTtXZPI" for bits 0..7, "R" for 0 and "+" for TASK_REPORT_MAX
 * (0x100); trace-cmd's sched_switch plugin prints "SDTtZXxW" (older
 * kernels' bits) and "R". */
static gint64
parse_state (const char *p,
             gsize       len,
             gboolean    plugin)
{
  const char *letters = plugin ? "SDTtZXxW" : "SDTtXZPI";
  gint64 state = 0;

  while (len > 0 && p[len - 1] == ' ')
    len--;
  if (len > 4 && memcmp (p + len - 4, " ==>", 4) == 0)
    len -= 4;
  if (len > 0 && g_ascii_isdigit (p[0]))
    return parse_number (p, len);
  for (gsize i = 0; i < len; i++)
    {
      const char *at = p[i] != '\0' ? strchr (letters, p[i]) : NULL;
      if (p[i] == '+')
        state |= 0x100;
      else if (at != NULL)
        state |= (gint64) 1 << (at - letters);
    }
  return state;
}

/* trace-cmd's plugin layout of a task: "comm:pid [prio]". */
static gboolean
parse_task_ref (const char *p,
                const char *end,
                Value      *comm,
                Value      *pid,
                Value      *prio)
{
  const char *open = end, *colon;

  while (open > p && *open != '[')
    open--;
  if (*open != '[')
    return FALSE;
  prio->num = parse_number (open + 1, end - open - 1);
  colon = open;
  while (colon > p && *colon != ':')
    colon--;
  if (*colon != ':')
    return FALSE;
  comm->str = p;
  comm->len = colon - p;
  pid->num = parse_number (colon + 1, open - colon - 1);
  return TRUE;
}

static void
parse_switch (CsTextEvents     *self,
              const Spec       *spec,
              const CsTextLine *line,
              const char       *payload,
              Value            *values)
{
  const char *arrow = strstr (payload, " ==> ");
  const char *close;

  if (strstr (payload, "prev_comm=") != NULL || arrow == NULL)
    {
      parse_kv (self, spec, line, payload, values);
      values[3].num = parse_state (values[3].str ? values[3].str : "", values[3].len, FALSE);
      return;
    }
  /* "prev_comm:prev_pid [prev_prio] STATE ==> next_comm:next_pid [next_prio]" */
  close = arrow;
  while (close > payload && *close != ']')
    close--;
  if (!parse_task_ref (payload, close, &values[0], &values[1], &values[2]))
    return;
  values[3].num = parse_state (close + 1 + (close[1] == ' '), arrow - close - 1 - (close[1] == ' '), TRUE);
  close = arrow + strlen (arrow);
  while (close > arrow && *close != ']')
    close--;
  parse_task_ref (arrow + 5, close, &values[4], &values[5], &values[6]);
}

static void
parse_wakeup (CsTextEvents     *self,
              const Spec       *spec,
              const CsTextLine *line,
              const char       *payload,
              Value            *values)
{
  const char *cpu = strstr (payload, " CPU:");
  const char *close;

  if (strstr (payload, "pid=") != NULL || cpu == NULL)
    {
      parse_kv (self, spec, line, payload, values);
      return;
    }
  /* "comm:pid [prio] CPU:001", " success=0" before CPU: on old kernels. */
  close = cpu;
  while (close > payload && *close != ']')
    close--;
  parse_task_ref (payload, close, &values[0], &values[1], &values[2]);
  values[3].num = parse_number (cpu + 5, strlen (cpu + 5));
}

/* print: "tracing_mark_write: text" (trace-cmd report), "ip=sym buf=text"
 * (report -R), or in tracefs text the function as the event name. */
static void
parse_print (CsTextEvents     *self,
             const Spec       *spec,
             const CsTextLine *line,
             const char       *payload,
             Value            *values)
{
  const char *colon;

  if (line->event_len != 5 || memcmp (line->event, "print", 5) != 0)
    {
      values[0].str = line->event;
      values[0].len = line->event_len;
      values[1].str = payload;
      values[1].len = strlen (payload);
      return;
    }
  if (g_str_has_prefix (payload, "ip=") && strstr (payload, " buf=") != NULL)
    {
      parse_kv (self, spec, line, payload, values);
      values[1].len = strlen (values[1].str);
      return;
    }
  colon = strstr (payload, ": ");
  if (colon != NULL && memchr (payload, ' ', colon - payload) == NULL)
    {
      values[0].str = payload;
      values[0].len = colon - payload;
      payload = colon + 2;
    }
  values[1].str = payload;
  values[1].len = strlen (payload);
}

/* "func <-parent" (tracefs) or "func <-- parent" (trace-cmd report). */
static void
parse_function (CsTextEvents     *self,
                const Spec       *spec,
                const CsTextLine *line,
                const char       *payload,
                Value            *values)
{
  const char *arrow = strstr (payload, " <-");
  const char *parent;

  if (arrow == NULL)
    {
      values[0].str = payload;
      values[0].len = strlen (payload);
      return;
    }
  values[0].str = payload;
  values[0].len = arrow - payload;
  parent = arrow + 3;
  while (*parent == '-' || *parent == ' ')
    parent++;
  values[1].str = parent;
  values[1].len = strcspn (parent, " ");
}

/* "NR 1 (1, 5610c2f5d000, 1000, 0, 0, 0)" */
static void
parse_sys_enter (CsTextEvents     *self,
                 const Spec       *spec,
                 const CsTextLine *line,
                 const char       *payload,
                 Value            *values)
{
  const char *p;

  if (!g_str_has_prefix (payload, "NR "))
    {
      parse_kv (self, spec, line, payload, values);
      return;
    }
  values[0].num = parse_number (payload + 3, strlen (payload + 3));
  p = strchr (payload, '(');
  for (guint i = 1; p != NULL && i < 7; i++)
    {
      p++;
      while (*p == ' ')
        p++;
      values[i].num = (gint64) g_ascii_strtoull (p, NULL, 16);
      p = strchr (p, ',');
    }
}

/* "NR 1 = 4096" */
static void
parse_sys_exit (CsTextEvents     *self,
                const Spec       *spec,
                const CsTextLine *line,
                const char       *payload,
                Value            *values)
{
  const char *eq = strstr (payload, " = ");

  if (!g_str_has_prefix (payload, "NR ") || eq == NULL)
    {
      parse_kv (self, spec, line, payload, values);
      return;
    }
  values[0].num = parse_number (payload + 3, strlen (payload + 3));
  values[1].num = parse_number (eq + 3, strlen (eq + 3));
}

gboolean
_cs_text_is_atrace_mark (const char *text)
{
  return text != NULL && strchr ("BECSF", text[0]) != NULL && text[0] != '\0' &&
         (text[1] == '|' || text[1] == '\0');
}

static void
parse_atrace (CsTextEvents     *self,
              const Spec       *spec,
              const CsTextLine *line,
              const char       *payload,
              Value            *values)
{
  const char *p = payload, *bar;
  guint field = 1;

  values[0].num = payload[0];
  values[4].str = payload;
  values[4].len = strlen (payload);
  for (p = strchr (payload, '|'); p != NULL && field < 4; p = bar, field++)
    {
      p++;
      bar = strchr (p, '|');
      if (field == 2)
        {
          values[2].str = p;
          values[2].len = bar != NULL ? (gsize) (bar - p) : strlen (p);
        }
      else
        values[field].num = parse_number (p, bar != NULL ? (gsize) (bar - p) : strlen (p));
    }
}
