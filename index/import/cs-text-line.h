/* cs-text-line.h: one line of trace text, split into its columns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The layouts are those of tracefs's `trace` and `trace_pipe` files
 * (Documentation/trace/ftrace.rst: "Output format", with the TGID column of
 * the record-tgid option and the latency-format / irq-info columns), of
 * `trace-cmd report` (trace-cmd-report(1), with -l and -R) and of
 * `perf script` (perf-script(1)) for tracepoints:
 *
 *   <comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <secs>.<frac>: <event>: <payload>
 *   <comm> <pid>[/<tid>] [<cpu>] <secs>.<frac>: <system>:<event>: <payload>
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsTextLineKind:
 * @CS_TEXT_LINE_EVENT: an event; the #CsTextLine is filled
 * @CS_TEXT_LINE_CONTINUATION: more text of the previous event (the `=> func`
 *   lines of kernel_stack and user_stack)
 * @CS_TEXT_LINE_HEADER: a comment, blank line or header line the importer
 *   understands but that carries no event (`# tracer:`, `version = 6`,
 *   `CPU 3 is empty`, `##### CPU 2 buffer started ####`); @cpus in
 *   #CsTextLine is set when the line says how many CPUs there are
 * @CS_TEXT_LINE_LOST: `CPU:N [LOST M EVENTS]` (tracefs) or `CPU:N [M EVENTS
 *   DROPPED]` (trace-cmd report); @cpu and @n_lost are set
 * @CS_TEXT_LINE_BAD: none of these
 *
 * What a line of trace text is.
 */
typedef enum {
  CS_TEXT_LINE_EVENT,
  CS_TEXT_LINE_CONTINUATION,
  CS_TEXT_LINE_HEADER,
  CS_TEXT_LINE_LOST,
  CS_TEXT_LINE_BAD,
} CsTextLineKind;

/**
 * CsTextLine:
 * @comm: the task's command name (not NUL-terminated: @comm_len bytes),
 *   pointing into the parsed line
 * @comm_len: its length in bytes
 * @pid: the thread id (common_pid)
 * @cpu: the CPU column
 * @flags: common_flags built from the latency columns (irqs-off 0x01,
 *   need-resched 0x04, hardirq 0x08, softirq 0x10, preempt-resched 0x20,
 *   NMI 0x40, bh-off 0x80, as include/linux/trace_events.h), 0 without them
 * @preempt_count: common_preempt_count: preempt depth in the low nibble,
 *   migrate-disable depth in the high nibble, 0 without the columns
 * @has_latency: whether the line had the latency columns
 * @ts_ns: the timestamp, ns (the text's seconds with up to 9 decimals; a
 *   timestamp without a decimal point is taken as ns, as with counter clocks)
 * @system: (nullable): the event's system when the text names it (perf
 *   script: `sched:sched_switch`), not NUL-terminated
 * @system_len: its length
 * @event: the event's name (not NUL-terminated), or the function name of a
 *   function-tracer line or of a trace_marker line in tracefs text
 * @event_len: its length
 * @is_function: the line is a function tracer's `func <-parent` line
 * @payload: the rest of the line, NUL-terminated, trailing blanks removed
 * @cpus: for %CS_TEXT_LINE_HEADER lines giving the CPU count (`cpus=4`,
 *   `#P:4`), the count; 0 otherwise
 * @n_lost: for %CS_TEXT_LINE_LOST, the events lost (0 when not given)
 *
 * A parsed line; every pointer points into the line given to
 * cs_text_line_parse() and is valid as long as it is.
 */
typedef struct {
  const char *comm;
  gsize comm_len;
  gint32 pid;
  guint cpu;
  guint8 flags;
  guint8 preempt_count;
  gboolean has_latency;
  gint64 ts_ns;
  const char *system;
  gsize system_len;
  const char *event;
  gsize event_len;
  gboolean is_function;
  const char *payload;
  guint cpus;
  guint64 n_lost;
} CsTextLine;

CsTextLineKind cs_text_line_parse       (char       *line,
                                         CsTextLine *out);
gboolean       cs_text_line_parse_flags (const char *p,
                                         gsize       len,
                                         guint8     *common_flags,
                                         guint8     *preempt_count);

G_END_DECLS
