/* cs-text-line.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Splits one line of ftrace, trace-cmd report or perf script text.  The
 * timestamp (`<digits>[.<digits>]:`) anchors the line: what is left of it
 * is read from the right (latency flags, the CPU column, the TGID column,
 * then the task, whose comm may hold blanks and dashes); what is right of
 * it is the event name and its payload.  Nothing here allocates.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cs-text-line.h"

/* include/linux/trace_events.h: enum trace_flag_type. */
#define FLAG_IRQS_OFF        0x01
#define FLAG_NEED_RESCHED    0x04
#define FLAG_HARDIRQ         0x08
#define FLAG_SOFTIRQ         0x10
#define FLAG_PREEMPT_RESCHED 0x20
#define FLAG_NMI             0x40
#define FLAG_BH_OFF          0x80

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static const char *
skip_blanks (const char *p)
{
  while (*p != '\0' && is_blank (*p))
    p++;
  return p;
}

static gboolean
all_digits (const char *p,
            gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (p[i]))
      return FALSE;
  return TRUE;
}

/* Decimal digits to a number, saturating; FALSE when not all digits. */
static gboolean
parse_u64 (const char *p,
           gsize       len,
           guint64    *value)
{
  guint64 v = 0;

  if (!all_digits (p, len))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    v = v > G_MAXUINT64 / 10 - 10 ? G_MAXUINT64 / 10 : v * 10 + (guint64) (p[i] - '0');
  *value = v;
  return TRUE;
}

/* `<secs>.<frac>` (up to 9 decimals taken) or `<ns>`, to ns. */
static gboolean
parse_timestamp (const char *p,
                 gsize       len,
                 gint64     *ts_ns)
{
  const char *dot = memchr (p, '.', len);
  guint64 secs, frac = 0;
  gsize n_frac;

  if (dot == NULL)
    {
      if (!parse_u64 (p, len, &secs) || secs > (guint64) G_MAXINT64)
        return FALSE;
      *ts_ns = (gint64) secs;
      return TRUE;
    }
  n_frac = len - (dot - p) - 1;
  if (!parse_u64 (p, dot - p, &secs) || secs > G_MAXINT64 / 1000000000 - 1 ||
      !all_digits (dot + 1, n_frac))
    return FALSE;
  for (gsize i = 0; i < 9; i++)
    frac = frac * 10 + (i < n_frac ? (guint64) (dot[1 + i] - '0') : 0);
  *ts_ns = (gint64) (secs * 1000000000 + frac);
  return TRUE;
}

/**
 * cs_text_line_parse_flags:
 * @p: the latency columns of a line (trace_print_lat_fmt() in
 *   kernel/trace/trace_output.c): irqs-off, need-resched, hardirq/softirq,
 *   preempt depth and, since Linux 5.14, migrate-disable depth
 * @len: their length, 4 to 6 characters
 * @common_flags: (out): the common_flags they stand for
 * @preempt_count: (out): common_preempt_count (preempt depth in the low
 *   nibble, migrate-disable depth in the high one)
 *
 * Returns: whether @p is such columns; the outs are set only then
 */
gboolean
cs_text_line_parse_flags (const char *p,
                          gsize       len,
                          guint8     *common_flags,
                          guint8     *preempt_count)
{
  guint8 flags = 0, pc = 0;

  if (len < 4 || len > 6)
    return FALSE;
  switch (p[0])
    {
    case 'D': flags |= FLAG_IRQS_OFF | FLAG_BH_OFF; break;
    case 'd': flags |= FLAG_IRQS_OFF; break;
    case 'b': flags |= FLAG_BH_OFF; break;
    case 'X': case '.': break;
    default: return FALSE;
    }
  switch (p[1])
    {
    case 'N': flags |= FLAG_NEED_RESCHED | FLAG_PREEMPT_RESCHED; break;
    case 'n': case 'L': case 'B': case 'b': flags |= FLAG_NEED_RESCHED; break;
    case 'p': flags |= FLAG_PREEMPT_RESCHED; break;
    case 'l': case '.': break;
    default: return FALSE;
    }
  switch (p[2])
    {
    case 'Z': flags |= FLAG_NMI | FLAG_HARDIRQ; break;
    case 'z': flags |= FLAG_NMI; break;
    case 'H': flags |= FLAG_HARDIRQ | FLAG_SOFTIRQ; break;
    case 'h': flags |= FLAG_HARDIRQ; break;
    case 's': flags |= FLAG_SOFTIRQ; break;
    case '.': break;
    default: return FALSE;
    }
  for (gsize i = 3; i < len && i < 5; i++)
    {
      int v = p[i] == '.' ? 0 : g_ascii_xdigit_value (p[i]);
      if (v < 0)
        return FALSE;
      pc |= (guint8) (v << (i == 3 ? 0 : 4));
    }
  *common_flags = flags;
  *preempt_count = pc;
  return TRUE;
}

static gboolean
parse_flags (const char *p,
             gsize       len,
             CsTextLine *out)
{
  if (!cs_text_line_parse_flags (p, len, &out->flags, &out->preempt_count))
    return FALSE;
  out->has_latency = TRUE;
  return TRUE;
}

/* Header and bookkeeping lines; TRUE when @line is one. */
static gboolean
parse_header (const char     *line,
              CsTextLine     *out,
              CsTextLineKind *kind)
{
  const char *p = skip_blanks (line);
  guint64 v;
  unsigned int a;
  unsigned long long b;

  *kind = CS_TEXT_LINE_HEADER;
  if (*p == '\0')
    return TRUE;
  if (*p == '#')
    {
      const char *cpus = strstr (p, "#P:");
      if (cpus != NULL && sscanf (cpus + 3, "%u", &a) == 1 && a > 0 && a <= 8192)
        out->cpus = a;
      return TRUE;
    }
  if (p[0] == '=' && p[1] == '>')
    {
      *kind = CS_TEXT_LINE_CONTINUATION;
      return TRUE;
    }
  if (g_str_has_prefix (p, "cpus="))
    {
      const char *n = p + 5;
      if (parse_u64 (n, strlen (n), &v) && v > 0 && v <= 8192)
        out->cpus = (guint) v;
      return TRUE;
    }
  /* function_graph's context-switch frame: a line of dashes. */
  if (g_str_has_prefix (p, "----------") && strspn (p, "-") == strlen (p))
    return TRUE;
  if (g_str_has_prefix (p, "version = ") || g_str_has_prefix (p, "##### CPU ") ||
      (g_str_has_prefix (p, "CPU ") && g_str_has_suffix (p, " is empty")))
    return TRUE;
  /* tracefs text: "CPU:2 [LOST 12 EVENTS]"; trace-cmd report:
   * "CPU:0 [651 EVENTS DROPPED]". */
  if (g_str_has_prefix (p, "CPU:") &&
      (sscanf (p, "CPU:%u [LOST %llu EVENTS]", &a, &b) == 2 ||
       sscanf (p, "CPU:%u [%llu EVENTS DROPPED]", &a, &b) == 2))
    {
      out->cpu = a;
      out->n_lost = b;
      *kind = CS_TEXT_LINE_LOST;
      return TRUE;
    }
  return FALSE;
}

/* Finds the timestamp token: `<digits>[.<digits>]:` after a blank and
 * followed by a blank or the end.  Sets [*ts, *ts_end) without the colon. */
static gboolean
find_timestamp (const char  *line,
                const char **ts,
                const char **ts_end)
{
  for (const char *p = line + 1; *p != '\0'; p++)
    {
      const char *q = p;

      if (!is_blank (p[-1]) || !g_ascii_isdigit (*p))
        continue;
      while (g_ascii_isdigit (*q))
        q++;
      if (*q == '.')
        {
          q++;
          if (!g_ascii_isdigit (*q))
            continue;
          while (g_ascii_isdigit (*q))
            q++;
        }
      if (*q == ':' && (q[1] == '\0' || is_blank (q[1])))
        {
          *ts = p;
          *ts_end = q;
          return TRUE;
        }
      p = q - 1;
    }
  return FALSE;
}

/* The last blank-separated token of [begin, *end): sets *tok and moves *end
 * to the blank before it. */
static gsize
pop_token (const char  *begin,
           const char **end,
           const char **tok)
{
  const char *e = *end;
  const char *s;

  while (e > begin && is_blank (e[-1]))
    e--;
  s = e;
  while (s > begin && !is_blank (s[-1]))
    s--;
  *tok = s;
  *end = s;
  return e - s;
}

/* The left columns, read from the right. */
static gboolean
parse_left (const char *begin,
            const char *end,
            CsTextLine *out)
{
  const char *tok, *save = end;
  gsize len;
  guint64 v;

  len = pop_token (begin, &end, &tok);
  if (len >= 4 && tok[0] != '[' && parse_flags (tok, len, out))
    {
      save = end;
      len = pop_token (begin, &end, &tok);
    }
  if (len >= 3 && tok[0] == '[' && tok[len - 1] == ']' && parse_u64 (tok + 1, len - 2, &v))
    out->cpu = (guint) MIN (v, G_MAXUINT);
  else
    {
      /* trace-cmd report -l: the CPU number and the flags in one token. */
      gsize n = 0;

      end = save;
      len = pop_token (begin, &end, &tok);
      while (n < len && g_ascii_isdigit (tok[n]))
        n++;
      if (n == 0 || !parse_u64 (tok, n, &v) || !parse_flags (tok + n, len - n, out))
        return FALSE;
      out->cpu = (guint) MIN (v, G_MAXUINT);
    }

  /* The TGID column of the record-tgid option: "(  123)" or "(-----)". */
  while (end > begin && is_blank (end[-1]))
    end--;
  if (end > begin && end[-1] == ')')
    {
      const char *open = end - 1;
      while (open > begin && *open != '(')
        open--;
      if (*open != '(')
        return FALSE;
      end = open;
    }

  /* The task: "comm-pid" (ftrace, trace-cmd) or "comm pid[/tid]" (perf). */
  const char *task_end = end;
  len = pop_token (begin, &end, &tok);
  if (len == 0)
    return FALSE;
  const char *slash = memchr (tok, '/', len);
  gsize pid_len = slash != NULL ? (gsize) (tok + len - slash - 1) : len;
  const char *pid_text = slash != NULL ? slash + 1 : tok;
  if (end > begin && all_digits (tok, slash != NULL ? (gsize) (slash - tok) : len) &&
      parse_u64 (pid_text, pid_len, &v))
    {
      while (end > begin && is_blank (end[-1]))
        end--;
      begin = skip_blanks (begin);
      out->comm = begin;
      out->comm_len = end > begin ? (gsize) (end - begin) : 0;
      out->pid = (gint32) MIN (v, G_MAXINT32);
      return TRUE;
    }

  /* comm-pid: the pid is the digits after the last dash. */
  while (task_end > begin && is_blank (task_end[-1]))
    task_end--;
  begin = skip_blanks (begin);
  const char *dash = task_end;
  while (dash > begin && dash[-1] != '-')
    dash--;
  if (dash <= begin || !parse_u64 (dash, task_end - dash, &v))
    return FALSE;
  out->comm = begin;
  out->comm_len = (gsize) (dash - 1 - begin);
  out->pid = (gint32) MIN (v, G_MAXINT32);
  return TRUE;
}

/**
 * cs_text_line_parse:
 * @line: one line, NUL-terminated, without or with its newline; modified:
 *   trailing blanks are cut
 * @out: (out caller-allocates): filled for %CS_TEXT_LINE_EVENT (and the
 *   counts of header and lost-events lines)
 *
 * Splits a line of trace text into its columns (see cs-text-line.h for
 * the layouts).  Never fails on bad text: it says %CS_TEXT_LINE_BAD.
 * Thread-safe; allocates nothing.
 *
 * Returns: what the line is
 */
CsTextLineKind
cs_text_line_parse (char       *line,
                    CsTextLine *out)
{
  const char *ts, *ts_end, *p, *tok;
  gsize n = strlen (line);
  CsTextLineKind kind;

  memset (out, 0, sizeof *out);
  while (n > 0 && is_blank (line[n - 1]))
    line[--n] = '\0';

  if (parse_header (line, out, &kind))
    return kind;
  if (!find_timestamp (line, &ts, &ts_end) ||
      !parse_timestamp (ts, ts_end - ts, &out->ts_ns) ||
      !parse_left (line, ts, out))
    return CS_TEXT_LINE_BAD;

  p = skip_blanks (ts_end + 1);
  tok = p;
  while (*p != '\0' && !is_blank (*p))
    p++;
  if (p > tok && p[-1] == ':')
    {
      const char *colon = memchr (tok, ':', (p - 1) - tok);

      if (colon != NULL)
        {
          out->system = tok;
          out->system_len = colon - tok;
          tok = colon + 1;
        }
      out->event = tok;
      out->event_len = (p - 1) - tok;
      out->payload = skip_blanks (p);
      if (out->event_len == 0)
        return CS_TEXT_LINE_BAD;
    }
  else if (p > tok)
    {
      /* The function tracer: "func <-parent", no event name. */
      out->event = tok;
      out->event_len = p - tok;
      out->is_function = TRUE;
      out->payload = tok;
    }
  else
    return CS_TEXT_LINE_BAD;
  return CS_TEXT_LINE_EVENT;
}
