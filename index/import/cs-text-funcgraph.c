/* cs-text-funcgraph.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Each CPU keeps the stack of functions open in the text (`func() {` not
 * yet closed by `}`), their names in one string per CPU, so a call costs
 * no allocation.  The stack is bounded (the kernel's own depth limit is
 * far below): deeper opens are still emitted, their closes then match what
 * is on the stack.
 */
#include "config.h"

#include <string.h>

#include "cs-text-funcgraph.h"

#define MAX_DEPTH 256
#define MAX_CPUS 8192
/* Time given to a line without a duration when there is no timestamp. */
#define STEP_NS 1000

typedef enum {
  FG_NONE,
  FG_IGNORED,    /* separators, irq arrows */
  FG_SWITCH,
  FG_ENTRY,
  FG_LEAF,
  FG_EXIT,
  FG_COMMENT,
} FgKind;

typedef struct {
  FgKind kind;
  guint cpu;
  gboolean has_ts;
  gint64 ts_ns;
  const char *comm;
  gsize comm_len;
  gint32 pid;
  gboolean has_pid;
  guint8 flags;
  guint8 preempt_count;
  gboolean has_duration;
  gint64 duration_ns;
  const char *name;    /* function, comment text, or the next task */
  gsize name_len;
} FgLine;

typedef struct {
  gint64 t0_ns;
  gsize name_offset;
} Frame;

typedef struct {
  gint64 clock_ns;     /* where the rebuilt time is */
  gint32 pid;
  char comm[16];
  GArray *stack;       /* Frame */
  GString *names;
} CpuState;

struct _CsTextFuncgraph
{
  GPtrArray *cpus;     /* CpuState, by CPU */
  GString *payload;
};

static const char *
skip_blanks (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

static void
trim (const char **p,
      gsize       *len)
{
  while (*len > 0 && (**p == ' ' || **p == '\t'))
    (*p)++, (*len)--;
  while (*len > 0 && ((*p)[*len - 1] == ' ' || (*p)[*len - 1] == '\t' || (*p)[*len - 1] == '\n' ||
                      (*p)[*len - 1] == '\r'))
    (*len)--;
}

/* "comm-pid": FALSE when the last dash is not followed by digits only. */
static gboolean
parse_task (const char *p,
            gsize       len,
            FgLine     *out)
{
  const char *dash;
  guint64 pid;
  g_autofree char *digits = NULL;

  trim (&p, &len);
  dash = p + len;
  while (dash > p && dash[-1] != '-')
    dash--;
  if (dash <= p || dash == p + len)
    return FALSE;
  digits = g_strndup (dash, p + len - dash);
  if (!g_ascii_string_to_unsigned (digits, 10, 0, G_MAXINT32, &pid, NULL))
    return FALSE;
  out->comm = p;
  out->comm_len = dash - 1 - p;
  out->pid = (gint32) pid;
  out->has_pid = TRUE;
  return TRUE;
}

/* "  0.198 us", "+ 10.123 us", "! 123.456 us": FALSE when not a duration. */
static gboolean
parse_duration (const char *p,
                gsize       len,
                gint64     *ns)
{
  g_autofree char *text = NULL;
  char *end = NULL;
  double us;

  trim (&p, &len);
  if (len > 0 && strchr ("+!#*@$", *p) != NULL)
    p++, len--;
  trim (&p, &len);
  if (len < 3 || memcmp (p + len - 2, "us", 2) != 0 || !g_ascii_isdigit (*p))
    return FALSE;
  text = g_strndup (p, len - 2);
  us = g_ascii_strtod (text, &end);
  if (end == text || *skip_blanks (end) != '\0')
    return FALSE;
  *ns = (gint64) (us * 1000.0 + 0.5);
  return TRUE;
}

/* The body: "func() {", "func();", "}", "} /\* func *\/", "/\* text *\/". */
static FgKind
parse_body (const char *p,
            FgLine     *out)
{
  gsize len = strlen (p);

  trim (&p, &len);
  if (len == 0)
    return FG_NONE;
  if (p[0] == '}')
    {
      const char *c = g_strstr_len (p, len, "/*");
      if (c != NULL)
        {
          const char *e = g_strstr_len (c, p + len - c, "*/");
          out->name = c + 2;
          out->name_len = (e != NULL ? e : p + len) - out->name;
          trim (&out->name, &out->name_len);
        }
      return FG_EXIT;
    }
  if (len >= 4 && p[0] == '/' && p[1] == '*')
    {
      out->name = p + 2;
      out->name_len = len - 2 - (g_str_has_suffix (p, "*/") && len >= 4 ? 2 : 0);
      trim (&out->name, &out->name_len);
      return FG_COMMENT;
    }
  if (len >= 4 && p[len - 1] == '{' && g_strstr_len (p, len, "()") != NULL)
    {
      out->name = p;
      out->name_len = g_strstr_len (p, len, "()") - p;
      return out->name_len > 0 ? FG_ENTRY : FG_NONE;
    }
  if (len >= 4 && g_str_has_suffix (p, "();") && memchr (p, ' ', len) == NULL)
    {
      out->name = p;
      out->name_len = len - 3;
      return FG_LEAF;
    }
  return FG_NONE;
}

static FgKind
parse_fg_line (const char *line,
               FgLine     *out)
{
  const char *p = skip_blanks (line), *q;
  guint64 cpu = 0;

  memset (out, 0, sizeof *out);

  /* funcgraph-abstime: "7238523.638008 |" */
  q = p;
  while (g_ascii_isdigit (*q))
    q++;
  if (*q == '.' && g_ascii_isdigit (q[1]))
    {
      const char *frac = ++q;
      guint64 secs = g_ascii_strtoull (p, NULL, 10), f = 0;

      while (g_ascii_isdigit (*q))
        q++;
      for (gsize i = 0; i < 9; i++)
        f = f * 10 + (frac + i < q ? (guint64) (frac[i] - '0') : 0);
      p = skip_blanks (q);
      if (*p != '|' || secs > G_MAXINT64 / 1000000000 - 1)
        return FG_NONE;
      out->has_ts = TRUE;
      out->ts_ns = (gint64) (secs * 1000000000 + f);
      p = skip_blanks (p + 1);
    }

  /* "<cpu>)" */
  q = p;
  while (g_ascii_isdigit (*q))
    q++;
  if (q == p || *q != ')' || q - p > 5)
    return FG_NONE;
  cpu = g_ascii_strtoull (p, NULL, 10);
  if (cpu >= MAX_CPUS)
    return FG_NONE;
  out->cpu = (guint) cpu;
  p = q + 1;

  if (strchr (p, '|') == NULL)
    {
      const char *arrow = strstr (p, "=>");
      if (arrow != NULL && strstr (p, "==========") == NULL)
        {
          FgLine next = { 0 };

          if (!parse_task (arrow + 2, strlen (arrow + 2), &next))
            return FG_NONE;
          out->name = next.comm;
          out->name_len = next.comm_len;
          out->pid = next.pid;
          return FG_SWITCH;
        }
      /* funcgraph -D: no duration column. */
      return parse_body (p, out);
    }

  /* Columns up to the body: task, latency flags, duration. */
  for (;;)
    {
      const char *bar = strchr (p, '|');
      gsize len;
      const char *col = p;

      if (bar == NULL)
        break;
      len = bar - col;
      {
        const char *t = col;
        gsize tl = len;
        gint64 d;

        trim (&t, &tl);
        if (tl == 0)
          ;
        else if (parse_duration (t, tl, &d))
          out->has_duration = TRUE, out->duration_ns = d;
        else if (cs_text_line_parse_flags (t, tl, &out->flags, &out->preempt_count))
          ;
        else if (!out->has_pid && parse_task (t, tl, out))
          ;
        else
          break;
      }
      p = bar + 1;
    }
  {
    const char *b = skip_blanks (p);
    if (g_str_has_prefix (b, "==========>") || g_str_has_prefix (b, "<=========="))
      return FG_IGNORED;
  }
  return parse_body (p, out);
}

/**
 * cs_text_funcgraph_is_line:
 * @line: a line of text, NUL-terminated
 *
 * Returns: whether @line is a function_graph call, return, comment or
 *   context switch line (see cs-text-funcgraph.h)
 */
gboolean
cs_text_funcgraph_is_line (const char *line)
{
  FgLine l;
  FgKind kind = parse_fg_line (line, &l);

  return kind != FG_NONE && kind != FG_IGNORED;
}

static void
cpu_state_free (CpuState *s)
{
  if (s == NULL)
    return;
  g_array_unref (s->stack);
  g_string_free (s->names, TRUE);
  g_free (s);
}

/** cs_text_funcgraph_new: Returns: (transfer full): a converter with no CPU state */
CsTextFuncgraph *
cs_text_funcgraph_new (void)
{
  CsTextFuncgraph *self = g_new0 (CsTextFuncgraph, 1);

  self->cpus = g_ptr_array_new_with_free_func ((GDestroyNotify) cpu_state_free);
  self->payload = g_string_new (NULL);
  return self;
}

/** cs_text_funcgraph_free: @self: (transfer full) (nullable): what to free */
void
cs_text_funcgraph_free (CsTextFuncgraph *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->cpus);
  g_string_free (self->payload, TRUE);
  g_free (self);
}

static CpuState *
cpu_state (CsTextFuncgraph *self,
           guint            cpu)
{
  CpuState *s;

  if (cpu >= self->cpus->len)
    g_ptr_array_set_size (self->cpus, cpu + 1);
  s = g_ptr_array_index (self->cpus, cpu);
  if (s == NULL)
    {
      s = g_new0 (CpuState, 1);
      s->stack = g_array_new (FALSE, FALSE, sizeof (Frame));
      s->names = g_string_new (NULL);
      g_ptr_array_index (self->cpus, cpu) = s;
    }
  return s;
}

static gboolean
emit_event (CsTextFuncgraph     *self,
            CpuState            *s,
            const FgLine        *l,
            const char          *event,
            gint64               ts_ns,
            CsTextFuncgraphEmit  emit,
            gpointer             user_data,
            GError             **error)
{
  CsTextLine out = { 0 };

  out.comm = l->has_pid ? l->comm : s->comm;
  out.comm_len = l->has_pid ? l->comm_len : strlen (s->comm);
  out.pid = l->has_pid ? l->pid : s->pid;
  out.cpu = l->cpu;
  out.flags = l->flags;
  out.preempt_count = l->preempt_count;
  out.ts_ns = ts_ns;
  out.event = event;
  out.event_len = strlen (event);
  out.payload = self->payload->str;
  return emit (&out, user_data, error);
}

/**
 * cs_text_funcgraph_take:
 * @self: the converter
 * @line: a line of text, NUL-terminated
 * @emit: receives the events of the line, in time order per CPU
 * @user_data: for @emit
 * @understood: (out): whether @line was function_graph text
 * @error: what @emit failed with
 *
 * Turns one function_graph line into events: `func() {` a funcgraph_entry,
 * `}` a funcgraph_exit (with calltime and rettime), `func();` both, a
 * comment a print event; a context switch line sets the CPU's task for
 * the lines without a task column.
 *
 * Returns: %FALSE when @emit failed
 */
gboolean
cs_text_funcgraph_take (CsTextFuncgraph     *self,
                        char                *line,
                        CsTextFuncgraphEmit  emit,
                        gpointer             user_data,
                        gboolean            *understood,
                        GError             **error)
{
  FgLine l;
  FgKind kind = parse_fg_line (line, &l);
  CpuState *s;
  gint64 t;

  *understood = kind != FG_NONE;
  if (kind == FG_NONE || kind == FG_IGNORED)
    return TRUE;
  s = cpu_state (self, l.cpu);
  if (kind == FG_SWITCH)
    {
      s->pid = l.pid;
      g_strlcpy (s->comm, l.name, MIN (l.name_len + 1, sizeof s->comm));
      return TRUE;
    }

  t = l.has_ts ? l.ts_ns : s->clock_ns;
  switch (kind)
    {
    case FG_ENTRY:
      g_string_printf (self->payload, "func=%.*s depth=%u", (int) l.name_len, l.name, s->stack->len);
      if (s->stack->len < MAX_DEPTH)
        {
          Frame f = { t, s->names->len };
          g_string_append_len (s->names, l.name, l.name_len);
          g_string_append_c (s->names, '\0');
          g_array_append_val (s->stack, f);
        }
      s->clock_ns = MAX (s->clock_ns, t);
      return emit_event (self, s, &l, "funcgraph_entry", t, emit, user_data, error);

    case FG_LEAF:
      {
        gint64 end = t + (l.has_duration ? l.duration_ns : STEP_NS);

        g_string_printf (self->payload, "func=%.*s depth=%u", (int) l.name_len, l.name, s->stack->len);
        if (!emit_event (self, s, &l, "funcgraph_entry", t, emit, user_data, error))
          return FALSE;
        g_string_printf (self->payload, "func=%.*s depth=%u overrun=0 calltime=%" G_GINT64_FORMAT
                         " rettime=%" G_GINT64_FORMAT, (int) l.name_len, l.name, s->stack->len, t, end);
        s->clock_ns = MAX (s->clock_ns, end);
        return emit_event (self, s, &l, "funcgraph_exit", end, emit, user_data, error);
      }

    case FG_EXIT:
      {
        const char *name = l.name;
        gsize name_len = l.name_len;
        gint64 t0 = l.has_duration ? t - l.duration_ns : t;

        if (s->stack->len > 0)
          {
            Frame *f = &g_array_index (s->stack, Frame, s->stack->len - 1);

            if (name == NULL)
              {
                name = s->names->str + f->name_offset;
                name_len = strlen (name);
              }
            t0 = f->t0_ns;
            if (!l.has_ts)
              t = MAX (s->clock_ns, l.has_duration ? t0 + l.duration_ns : s->clock_ns + STEP_NS);
          }
        else if (!l.has_ts)
          t = s->clock_ns + (l.has_duration ? 0 : STEP_NS);
        g_string_printf (self->payload, "func=%.*s depth=%u overrun=0 calltime=%" G_GINT64_FORMAT
                         " rettime=%" G_GINT64_FORMAT, (int) name_len, name ? name : "",
                         s->stack->len > 0 ? s->stack->len - 1 : 0, t0, t);
        if (s->stack->len > 0)
          {
            g_string_truncate (s->names, g_array_index (s->stack, Frame, s->stack->len - 1).name_offset);
            g_array_set_size (s->stack, s->stack->len - 1);
          }
        s->clock_ns = MAX (s->clock_ns, t);
        return emit_event (self, s, &l, "funcgraph_exit", t, emit, user_data, error);
      }

    case FG_COMMENT:
      g_string_printf (self->payload, "%.*s", (int) l.name_len, l.name);
      return emit_event (self, s, &l, "print", t, emit, user_data, error);

    case FG_NONE: case FG_IGNORED: case FG_SWITCH:
      break;
    }
  return TRUE;
}
