/* cs-latency-def.h: what a latency pair is, as the user names it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A definition is the latency pass's parameter: a preset name (wakeup,
 * irq, softirq, softirq-raise, syscall, block, funcgraph, kmod-irqs-off,
 * kmod-preempt-off, kmod-wakeup) or a pair written
 *
 *   SYSTEM:EVENT[.KEY[,KEY...]]>SYSTEM:EVENT[.KEY[,KEY...]]
 *
 * where each KEY is a number field of the event's format
 * (events/SYSTEM/EVENT/format, common_pid included), `@pid` (the event's
 * common_pid) or `@cpu` (the CPU whose ring buffer holds it).  Both sides
 * have as many keys; a side without keys takes the other side's, and a
 * pair without any is keyed by `@pid`.  A definition resolves against a
 * recording into one or more CsLatencyPair (the syscall preset without
 * raw_syscalls becomes one pair per syscalls:sys_enter_X/sys_exit_X).
 *
 * The rule every pair follows (README.md in this folder, and the oracle
 * tests/oracle/latency-pairs.py, implement it independently):
 *
 * - events are taken in time order over all CPUs, ties in CPU order, then
 *   in each CPU's ring-buffer order (the order passes receive them);
 * - an event that is a B of a pair closes the open A with its key, if
 *   any: that makes one pair, lasting B's time − A's time (ns, ≥ 0);
 *   a B without an open A is ignored;
 * - then, an event that is an A opens its key; an A whose key is already
 *   open replaces it (the older A is counted unmatched): a pair is
 *   measured from the latest A before its B;
 * - A's still open at the end are counted unmatched.
 *
 * An event that is both A and B of one pair (the same event on both
 * sides) first closes, then opens.
 *
 * The wakeup preset is the exception: its pair follows Chronoscope's
 * wakeup latency rule (<cs-plugin-wakeup.h>, the rule of statistics for a
 * range and task plots; cs-latency-wakeup.c): every wakeup event the
 * recording has (sched_waking, sched_wakeup, sched_wakeup_new) is an A,
 * but only the first wakeup of a sleeping task opens a wait (the others
 * count unmatched), and each sched_switch switches prev_pid out (an open
 * wait is then dropped, unmatched) before it ends next_pid's wait as B.
 */
#pragma once

#include <chronoscope-plugin.h>
#include <event-parse.h>

G_BEGIN_DECLS

#define CS_LATENCY_MAX_KEYS 4

/**
 * CsLatencyPair:
 * @a_system: A's trace system
 * @a_event: A's event name
 * @b_system: B's trace system
 * @b_event: B's event name
 * @n_keys: how many key parts, 1 .. %CS_LATENCY_MAX_KEYS
 * @a_keys: A's key parts (field names, `@pid`, `@cpu`), %NULL-terminated
 * @b_keys: B's key parts, as many, %NULL-terminated
 * @pid_key: index of the key part that names the pair's task (a `pid`,
 *   `*_pid`, `common_pid` or `@pid` part of A), or -1 to take A's
 *   common_pid
 * @wakeup_rule: the pair follows the wakeup latency rule (the wakeup
 *   preset; see above) instead of the latest A before its B
 * @a_more: other events of @a_system that are A's too, with the same keys
 *   (the wakeup rule's other wakeup events), %NULL-terminated
 *
 * One A → B pair of event types, resolved against a recording.
 */
typedef struct {
  char *a_system;
  char *a_event;
  char *b_system;
  char *b_event;
  guint n_keys;
  char *a_keys[CS_LATENCY_MAX_KEYS + 1];
  char *b_keys[CS_LATENCY_MAX_KEYS + 1];
  int pid_key;
  gboolean wakeup_rule;
  char *a_more[3];
} CsLatencyPair;

/**
 * CsLatencyDef:
 * @param: the definition as given (a preset name or a pair)
 * @preset: (nullable): the preset's name when @param is one
 * @pairs: (element-type CsLatencyPair): the pairs, at least one
 *
 * A definition resolved against one recording.
 */
typedef struct {
  char *param;
  const char *preset;
  GPtrArray *pairs;
} CsLatencyDef;

/**
 * cs_latency_def_new:
 * @document: the recording, whose event formats and counts decide which
 *   events a preset uses
 * @param: a preset name or a pair (see above)
 * @error: %CS_PLUGIN_ERROR_USAGE naming what is wrong: malformed text, an
 *   event the recording's formats lack, a key that is not a number field
 *   of its event, sides with different numbers of keys, a preset none of
 *   whose events the recording has; %CS_PLUGIN_ERROR_FAILED when the
 *   formats cannot be read
 *
 * Parses and checks a definition.  Main thread or the pass's worker.
 *
 * Returns: (transfer full) (nullable): the definition
 */
CsLatencyDef *cs_latency_def_new          (CsPluginDocument  *document,
                                           const char        *param,
                                           GError           **error);

/**
 * cs_latency_def_free:
 * @def: (nullable) (transfer full): a definition
 */
void          cs_latency_def_free         (CsLatencyDef      *def);

/**
 * cs_latency_def_dup_events:
 * @def: a definition
 *
 * Returns: (transfer full): the event types its pairs read, as
 *   "system:name", each once, %NULL-terminated
 */
char        **cs_latency_def_dup_events   (const CsLatencyDef *def);

/**
 * cs_latency_pair_describe:
 * @pair: a pair
 *
 * Returns: (transfer full): the pair as a definition reads it, for
 *   example "irq:irq_handler_entry.irq,@cpu>irq:irq_handler_exit.irq,@cpu"
 */
char         *cs_latency_pair_describe    (const CsLatencyPair *pair);

/**
 * cs_latency_preset_names:
 *
 * Returns: (transfer none): the preset names, %NULL-terminated
 */
const char * const *cs_latency_preset_names (void);

/**
 * cs_latency_field_is_number:
 * @field: a field of an event's format
 *
 * Returns: whether a key part can name @field (a number of 1, 2, 4 or 8
 *   bytes): what cs_latency_def_new() accepts, and what the dialog offers
 */
gboolean      cs_latency_field_is_number  (const struct tep_format_field *field);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLatencyDef, cs_latency_def_free)

G_END_DECLS
