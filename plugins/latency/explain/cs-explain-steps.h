/* cs-explain-steps.h: where explaining a pair spends its CPU time, for
 * CHRONOSCOPE_EXPLAIN_STEPS=1 (cs-explain-steps.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsExplainStep:
 * @CS_EXPLAIN_STEP_MOVES: finding the pair's wakeup and the task's
 *   sched_migrate_task events (where it waited)
 * @CS_EXPLAIN_STEP_PRIME: reading each CPU back to its last sched_switch
 *   before the pair (or a stay), to learn its state
 * @CS_EXPLAIN_STEP_INDEX: listing the state events of the stays from the
 *   index (its chunks found and decoded)
 * @CS_EXPLAIN_STEP_READ: reading those events' records and feeding them to
 *   the tracker
 * @CS_EXPLAIN_STEP_CHAIN: the chain's links after the first: finding each
 *   waker's latest wakeup (the breakdowns of those links count in the
 *   steps above)
 *
 * The steps of explaining a pair, in thread CPU time.
 */
typedef enum {
  CS_EXPLAIN_STEP_MOVES,
  CS_EXPLAIN_STEP_PRIME,
  CS_EXPLAIN_STEP_INDEX,
  CS_EXPLAIN_STEP_READ,
  CS_EXPLAIN_STEP_CHAIN,
  CS_EXPLAIN_N_STEPS,
} CsExplainStep;

gboolean _cs_explain_steps_enabled  (void);
gint64   _cs_explain_steps_now      (void);
void     _cs_explain_steps_add      (CsExplainStep step,
                                     gint64        since_ns);
void     _cs_explain_steps_add_span (CsExplainStep step,
                                     gint64        from_ns,
                                     gint64        to_ns);
void     _cs_explain_steps_reset    (void);
void     _cs_explain_steps_count_stay (gboolean from_slices);
char    *_cs_explain_steps_describe (void);

G_END_DECLS
