/* cs-index-steps.h: the CPU time of each step of building an index,
 * measured when CHRONOSCOPE_INDEX_STEPS=1 (see cs-index-steps.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsIndexStep:
 * @CS_INDEX_STEP_READ: pread() of ring-buffer pages and decompressing v7
 *   chunks (tracedat/cs-tracedat-cpu.c)
 * @CS_INDEX_STEP_DECODE: walking the pages and taking each record's
 *   common fields and the sched_switch and wakeup fields the index keeps
 *   (store/cs-cpu-scanner.c); for recordings read through libtracecmd
 *   (buffer instances) its reading too
 * @CS_INDEX_STEP_SUMMARISE: per-type and per-task counts, slices, task
 *   rows and the summary pyramid, from the decoded rows
 * @CS_INDEX_STEP_ENCODE: cs_chunk_encode() of event, slice, task and
 *   summary chunks
 * @CS_INDEX_STEP_WRITE: SQLite on the writer thread: the schema, the
 *   chunks' inserts, the derived tables, the secondary indexes, the
 *   commit and the close
 * @CS_INDEX_N_STEPS: how many there are
 *
 * The steps of a first open whose CPU time is measured.  Time spent in
 * none of them (start-up, the event formats, the queue between the
 * threads, opening the finished index) is the process's CPU time minus
 * their sum.
 */
typedef enum {
  CS_INDEX_STEP_READ,
  CS_INDEX_STEP_DECODE,
  CS_INDEX_STEP_SUMMARISE,
  CS_INDEX_STEP_ENCODE,
  CS_INDEX_STEP_WRITE,
  CS_INDEX_N_STEPS
} CsIndexStep;

/* 1 when measuring, 0 when not, -1 before the environment was read. */
extern int _cs_index_steps_state;

void         _cs_index_step_enter_slow (CsIndexStep step);
void         _cs_index_step_leave_slow (void);
void         _cs_index_step_switch_slow (CsIndexStep step);

gboolean     cs_index_steps_enabled    (void);
void         cs_index_steps_get_ns     (gint64 totals_ns[CS_INDEX_N_STEPS]);
const char  *cs_index_step_get_name    (CsIndexStep step);
char        *cs_index_steps_dup_json   (double process_cpu_s);

/**
 * cs_index_step_enter:
 * @step: the step the calling thread starts
 *
 * From now until the matching cs_index_step_leave(), the calling thread's
 * CPU time counts for @step, except what a step entered inside counts
 * (steps nest up to 8 deep).  Call it per batch of records or per chunk,
 * never per record: when measuring it reads the thread's CPU clock (a
 * system call).  When not measuring it costs one load and one branch.
 *
 * Thread: any.
 */
static inline void
cs_index_step_enter (CsIndexStep step)
{
  if (G_UNLIKELY (_cs_index_steps_state != 0))
    _cs_index_step_enter_slow (step);
}

/**
 * cs_index_step_leave:
 *
 * Ends the step the calling thread entered last (cs_index_step_enter()).
 *
 * Thread: the one that entered it.
 */
static inline void
cs_index_step_leave (void)
{
  if (G_UNLIKELY (_cs_index_steps_state != 0))
    _cs_index_step_leave_slow ();
}

/**
 * cs_index_step_switch:
 * @step: the step the calling thread goes on with
 *
 * cs_index_step_leave() then cs_index_step_enter() of @step, with one
 * read of the clock instead of two.  Does nothing outside any step.
 *
 * Thread: any.
 */
static inline void
cs_index_step_switch (CsIndexStep step)
{
  if (G_UNLIKELY (_cs_index_steps_state != 0))
    _cs_index_step_switch_slow (step);
}

G_END_DECLS
