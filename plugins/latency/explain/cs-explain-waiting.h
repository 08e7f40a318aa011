/* cs-explain-waiting.h: what a waiting pair has been delayed by so far:
 * its contributors (parts) and their slices (cs-explain-waiting.c), for
 * the tracker (cs-explain-tracker.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-explain.h"

G_BEGIN_DECLS

/* A slice while its pair waits: its contributor by its index in the
 * pair's parts (renumbered when resolve_unknown() moves parts). */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  guint cpu;
  guint part;
} Slice;

/* A task woken and not run yet, or a window on one CPU. */
typedef struct {
  gint32 pid;
  gint32 prio;
  gint64 a_ns;
  guint a_cpu;
  guint cpu;                    /* where it waits now */
  guint n_queued;
  gint32 waker_pid;
  gint32 waker_flags;
  GArray *parts;                /* CsExplainContributor */
  GHashTable *part_index;       /* contributor key -> index in parts + 1, once many */
  GArray *key_parts;            /* guint64 by the tracker's contributor number: key_gen << 32
                                 * | index in parts + 1; another generation: not known */
  guint32 key_gen;              /* bumped when the parts are emptied or moved, so that
                                 * key_parts is kept without clearing it */
  gint last_part;               /* of the last slice added, -1 */
  guint last_key;               /* its contributor number + 1; 0: not known */
  GArray *slices;               /* Slice, when the tracker records them */
  const gboolean *slice_cpus;   /* the tracker's: CPUs whose slices go to @slices (NULL: all) */
  guint n_slice_cpus;
  guint64 log_from;             /* the first stretch of its CPU's log not added yet */
  gint64 log_from_ns;           /* and the time from which it counts (queued then) */
} Waiting;

/* A stretch of a CPU's time held by one contributor, logged once for all
 * the pairs waiting there when the tracker adds them late (a sweep that
 * keeps only the long pairs): the contributor by the tracker's number,
 * with the prio and source it had then. */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  guint key;
  gint32 prio;
  CsExplainSource source;
} Stretch;

guint _cs_explain_part_hash (gconstpointer key);
gboolean _cs_explain_part_equal (gconstpointer a,
                                 gconstpointer b);
void _cs_explain_index_part (GHashTable                 *index,
                             const CsExplainContributor *c,
                             guint                       i);
gint _cs_explain_find_part (GArray                      *parts,
                            GHashTable                 **index,
                            const CsExplainContributor  *c);
gint _cs_explain_find_part_plain (GArray                     *parts,
                                  const CsExplainContributor *c);
void _cs_explain_waiting_add_slice (Waiting *w,
                                    guint    part,
                                    gint64   begin_ns,
                                    gint64   end_ns,
                                    guint    cpu);
void _cs_explain_waiting_add_part (Waiting                    *w,
                                   const CsExplainContributor *c,
                                   gint64                      begin_ns,
                                   gint64                      end_ns,
                                   guint                       cpu);
void _cs_explain_waiting_add_key_part (Waiting                    *w,
                                       guint                       key,
                                       const CsExplainContributor *c,
                                       gint64                      begin_ns,
                                       gint64                      end_ns,
                                       guint                       cpu);
void _cs_explain_waiting_add_stretches (Waiting                    *w,
                                        const Stretch              *stretches,
                                        guint                       n,
                                        const CsExplainContributor *numbered,
                                        gint64                      from_ns,
                                        guint                       cpu);
void _cs_explain_waiting_forget_keys (Waiting *w);
void _cs_explain_waiting_resolve_unknown (Waiting                    *w,
                                          const CsExplainContributor *known);
void _cs_explain_waiting_reuse_keys (Waiting *w,
                                     GArray  *key_parts,
                                     guint32  key_gen);
CsExplainBreakdown * _cs_explain_waiting_breakdown (Waiting *w,
                                                    gint64   b_ns,
                                                    guint    b_cpu);

G_END_DECLS
