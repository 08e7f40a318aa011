/* cs-text-events.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The formats written here follow the text of tracefs's
 * events/<system>/<event>/format on Linux 6.x (field types, offsets and
 * print fmt), so that a record built from text reads exactly as one the
 * kernel wrote: libtraceevent prints it, the scanner reads prev_state and
 * next_pid, filters and SQL find the same fields.  A type id is given to a
 * format the first time the text uses it.
 */
#include "config.h"

#include <string.h>

#include "cs-text-events.h"

typedef enum {
  K_S32,       /* int, pid_t */
  K_U32,       /* unsigned int, u32 */
  K_S64,       /* long */
  K_U64,       /* unsigned long, u64 */
  K_SYM,       /* unsigned long holding a function's address */
  K_COMM,      /* char [16] */
  K_STR,       /* __data_loc char[] */
  K_TAIL,      /* char buf[]: the rest of the record */
  K_U8,        /* bool */
} Kind;

typedef struct {
  const char *decl;    /* the C declaration in the format file */
  const char *name;
  Kind kind;
  const char *key;     /* the key in the text when not @name */
} Field;

#define MAX_FIELDS 8

typedef struct {
  gint64 num;
  const char *str;     /* K_COMM, K_STR, K_TAIL, K_SYM: text */
  gsize len;
} Value;

typedef struct _Spec Spec;
typedef void (*ParseFunc) (CsTextEvents *self, const Spec *spec, const CsTextLine *line,
                           const char *payload, Value *values);

struct _Spec {
  const char *system;
  const char *name;
  const char *print_fmt;
  ParseFunc parse;
  Field fields[MAX_FIELDS];
};

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

static const Spec specs[] = {
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

/* The generic format of an event the importer does not know. */
static const Spec generic_spec = {
  NULL, NULL, "\"%s\", __get_str(text)", NULL,
  { { "__data_loc char[] text", "text", K_STR } },
};

typedef struct {
  const Spec *spec;
  char *system;
  char *name;
  guint16 id;
  guint n_fields;
  guint offsets[MAX_FIELDS];
  guint sizes[MAX_FIELDS];
  guint fixed_bytes;
} Type;

struct _CsTextEvents
{
  GHashTable *by_name;     /* "system:name" or "name" → Type */
  GPtrArray *types;        /* Type, by id - 1 */
  GHashTable *symbols;     /* name → address (GUINT_TO_POINTER index) */
  GString *kallsyms;
  GString *scratch;        /* the text of a generic event */
  GString *symbol_key;     /* a function name being looked up */
};

#define FIRST_ID 1
/* Made-up kernel addresses for function names, 16 bytes apart. */
#define SYMBOL_BASE G_GUINT64_CONSTANT (0xffffffff81000000)

static void
type_free (Type *t)
{
  g_free (t->system);
  g_free (t->name);
  g_free (t);
}

/**
 * cs_text_events_new:
 *
 * Returns: (transfer full): an empty set of event types; free with
 *   cs_text_events_free()
 */
CsTextEvents *
cs_text_events_new (void)
{
  CsTextEvents *self = g_new0 (CsTextEvents, 1);

  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->types = g_ptr_array_new_with_free_func ((GDestroyNotify) type_free);
  self->symbols = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->kallsyms = g_string_new (NULL);
  self->scratch = g_string_new (NULL);
  self->symbol_key = g_string_new (NULL);
  return self;
}

/** cs_text_events_free: @self: (transfer full) (nullable): what to free */
void
cs_text_events_free (CsTextEvents *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->types);
  g_hash_table_unref (self->symbols);
  g_string_free (self->kallsyms, TRUE);
  g_string_free (self->scratch, TRUE);
  g_string_free (self->symbol_key, TRUE);
  g_free (self);
}

/**
 * cs_text_events_symbol_address:
 * @self: the event types
 * @name: a function name (as the text prints it, "func" or "func+0x1c/0x40")
 * @len: its length in bytes, or -1 when NUL-terminated
 *
 * Gives @name an address in the made-up kallsyms the converted file
 * carries, the same one every time.
 *
 * Returns: the address; 0 for an empty name
 */
guint64
cs_text_events_symbol_address (CsTextEvents *self,
                               const char   *name,
                               gssize        len)
{
  gpointer index;
  guint64 addr;

  if (len < 0)
    len = strlen (name);
  if (len == 0)
    return 0;
  g_string_assign (self->symbol_key, "");
  g_string_append_len (self->symbol_key, name, len);
  if (g_hash_table_lookup_extended (self->symbols, self->symbol_key->str, NULL, &index))
    return SYMBOL_BASE + 16 * (guint64) GPOINTER_TO_UINT (index);
  index = GUINT_TO_POINTER (g_hash_table_size (self->symbols) + 1);
  g_hash_table_insert (self->symbols, g_strdup (self->symbol_key->str), index);
  addr = SYMBOL_BASE + 16 * (guint64) GPOINTER_TO_UINT (index);
  g_string_append_printf (self->kallsyms, "%016" G_GINT64_MODIFIER "x T %s\n", addr, self->symbol_key->str);
  return addr;
}

static guint
field_size (Kind kind)
{
  switch (kind)
    {
    case K_S32: case K_U32: case K_STR: return 4;
    case K_S64: case K_U64: case K_SYM: return 8;
    case K_COMM: return 16;
    case K_U8: return 1;
    case K_TAIL: return 0;
    }
  return 0;
}

static Type *
lookup_type (CsTextEvents *self,
             const CsTextLine *line,
             const char *name,
             gsize name_len)
{
  g_autofree char *key = NULL;
  const Spec *spec = &generic_spec;
  Type *t;
  guint offset = 8;

  key = line->system != NULL
      ? g_strdup_printf ("%.*s:%.*s", (int) line->system_len, line->system, (int) name_len, name)
      : g_strndup (name, name_len);
  t = g_hash_table_lookup (self->by_name, key);
  if (t != NULL)
    return t;
  if (self->types->len >= G_MAXUINT16 - FIRST_ID)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    if (strlen (specs[i].name) == name_len && memcmp (specs[i].name, name, name_len) == 0 &&
        (line->system == NULL || (strlen (specs[i].system) == line->system_len &&
                                  memcmp (specs[i].system, line->system, line->system_len) == 0)))
      spec = &specs[i];

  t = g_new0 (Type, 1);
  t->spec = spec;
  t->id = FIRST_ID + self->types->len;
  t->name = g_strndup (name, name_len);
  t->system = spec->system != NULL ? g_strdup (spec->system)
            : line->system != NULL ? g_strndup (line->system, line->system_len)
            : g_strdup ("text");
  for (guint i = 0; i < MAX_FIELDS && spec->fields[i].decl != NULL; i++)
    {
      guint size = field_size (spec->fields[i].kind);
      guint align = MAX (MIN (size, 8), 1);

      if (spec->fields[i].kind == K_COMM)
        align = 1;
      offset = (offset + align - 1) / align * align;
      t->offsets[i] = offset;
      t->sizes[i] = size;
      offset += size;
      t->n_fields = i + 1;
    }
  t->fixed_bytes = offset;
  g_ptr_array_add (self->types, t);
  g_hash_table_insert (self->by_name, g_steal_pointer (&key), t);
  return t;
}

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

static gboolean
is_atrace_mark (const char *text)
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

/* ---- Records --------------------------------------------------------- */

static void
put (GByteArray *out,
     guint       offset,
     const void *data,
     gsize       len)
{
  memcpy (out->data + offset, data, len);
}

/**
 * cs_text_events_encode:
 * @self: the event types
 * @line: an event line (%CS_TEXT_LINE_EVENT of cs_text_line_parse())
 * @more_text: (nullable): continuation lines of the event, joined with
 *   newlines, kept in the text of events without fields of their own
 * @out: (out caller-allocates): receives the record's data (common fields
 *   then the event's), at most %CS_TEXT_EVENTS_MAX_RECORD_BYTES long, a
 *   multiple of 4 bytes
 *
 * Builds the ring-buffer record of one event of the text.
 *
 * Returns: %FALSE when the text has more event types than a trace.dat
 *   holds (65,534); @out is then empty
 */
gboolean
cs_text_events_encode (CsTextEvents     *self,
                       const CsTextLine *line,
                       const char       *more_text,
                       GByteArray       *out)
{
  const char *name = line->is_function ? "function" : line->event;
  gsize name_len = line->is_function ? 8 : line->event_len;
  Value values[MAX_FIELDS] = { { 0 } };
  const char *payload = line->payload;
  guint16 id;
  gint32 pid = line->pid;
  Type *t;

  /* tracefs prints a trace_marker write as "tracing_mark_write: text",
   * trace-cmd as a print event "tracing_mark_write: text"; atrace's
   * markers get an event of their own. */
  if (line->system == NULL && name_len == 18 && memcmp (name, "tracing_mark_write", 18) == 0)
    {
      if (!is_atrace_mark (payload))
        name = "print", name_len = 5;
    }
  else if (line->system == NULL && name_len == 5 && memcmp (name, "print", 5) == 0 &&
           g_str_has_prefix (payload, "tracing_mark_write: ") && is_atrace_mark (payload + 20))
    {
      name = "tracing_mark_write", name_len = 18;
      payload += 20;
    }
  t = lookup_type (self, line, name, name_len);
  g_byte_array_set_size (out, 0);
  if (t == NULL)
    return FALSE;

  if (t->spec->parse != NULL)
    t->spec->parse (self, t->spec, line, payload, values);
  else
    {
      g_string_assign (self->scratch, line->payload);
      if (more_text != NULL)
        g_string_append_printf (self->scratch, "\n%s", more_text);
      values[0].str = self->scratch->str;
      values[0].len = self->scratch->len;
    }

  g_byte_array_set_size (out, t->fixed_bytes);
  memset (out->data, 0, out->len);
  id = t->id;
  put (out, 0, &id, 2);
  out->data[2] = line->flags;
  out->data[3] = line->preempt_count;
  put (out, 4, &pid, 4);

  for (guint i = 0; i < t->n_fields; i++)
    {
      const Field *f = &t->spec->fields[i];
      Value *v = &values[i];
      guint off = t->offsets[i];

      switch (f->kind)
        {
        case K_S32: case K_U32:
          {
            gint32 x = (gint32) v->num;
            put (out, off, &x, 4);
          }
          break;
        case K_S64: case K_U64:
          put (out, off, &v->num, 8);
          break;
        case K_U8:
          out->data[off] = v->num != 0;
          break;
        case K_SYM:
          {
            guint64 addr = v->str != NULL ? cs_text_events_symbol_address (self, v->str, v->len)
                                          : (guint64) v->num;
            put (out, off, &addr, 8);
          }
          break;
        case K_COMM:
          if (v->str != NULL)
            put (out, off, v->str, MIN (v->len, 15));
          break;
        case K_STR: case K_TAIL:
          {
            gsize room = CS_TEXT_EVENTS_MAX_RECORD_BYTES - 8 - out->len;
            gsize len = v->str != NULL ? MIN (v->len, room) : 0;
            guint32 loc = (guint32) ((len + 1) << 16) | out->len;

            if (f->kind == K_STR)
              put (out, off, &loc, 4);
            g_byte_array_append (out, (const guint8 *) (v->str ? v->str : ""), len);
            g_byte_array_append (out, (const guint8 *) "", 1);
          }
          break;
        }
    }
  while (out->len % 4 != 0)
    g_byte_array_append (out, (const guint8 *) "", 1);
  return TRUE;
}

/** cs_text_events_get_n_types: Returns: the event types used so far */
guint
cs_text_events_get_n_types (CsTextEvents *self)
{
  return self->types->len;
}

static GBytes *
format_text (const Type *t)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "name: %s\nID: %u\nformat:\n", t->name, t->id);
  g_string_append (s,
      "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
      "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
      "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
      "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
  for (guint i = 0; i < t->n_fields; i++)
    {
      const Field *f = &t->spec->fields[i];
      const char *decl = f->decl;
      g_autofree char *array_decl = NULL;

      /* "unsigned long args[N]" entries are one array in the kernel's file. */
      if (g_str_has_prefix (f->name, "args"))
        {
          if (f->name[4] != '0')
            continue;
          decl = "unsigned long args[6]";
          g_string_append_printf (s, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:0;\n",
                                  decl, t->offsets[i], 48);
          continue;
        }
      g_string_append_printf (s, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
                              decl, t->offsets[i], t->sizes[i],
                              f->kind == K_S32 || f->kind == K_S64);
    }
  g_string_append_printf (s, "\nprint fmt: %s\n", t->spec->print_fmt);
  return g_string_free_to_bytes (s);
}

/**
 * cs_text_events_add_to_writer:
 * @self: the event types
 * @writer: a trace.dat writer not finished yet
 *
 * Gives @writer the format of every event type used so far (the ftrace
 * system's in its own section, as trace-cmd.dat.v6(5) has them) and the
 * made-up kallsyms of the function names met.
 */
void
cs_text_events_add_to_writer (CsTextEvents     *self,
                              CsTracedatWriter *writer)
{
  g_autoptr(GBytes) kallsyms = NULL;

  for (guint i = 0; i < self->types->len; i++)
    {
      Type *t = g_ptr_array_index (self->types, i);
      g_autoptr(GBytes) format = format_text (t);

      if (g_str_equal (t->system, "ftrace"))
        cs_tracedat_writer_add_ftrace_format (writer, format);
      else
        cs_tracedat_writer_add_event_format (writer, t->system, format);
    }
  kallsyms = g_bytes_new (self->kallsyms->str, self->kallsyms->len);
  cs_tracedat_writer_set_kallsyms (writer, kallsyms);
}
