/* cs-explain-waiting.c: a waiting pair's contributors and slices.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The tracker (cs-explain-tracker.c) charges each stretch of a CPU's time
 * to the pairs waiting there; here a stretch finds or makes its
 * contributor (a task, an IRQ, a section...), adds to its time and, when
 * asked, keeps the slice, and a pair that ends becomes a breakdown with
 * its contributors sorted and its slices pointing at them.
 */
#include <string.h>

#include "cs-explain-waiting.h"

/* Parts are keyed by kind, id and name; the name (a task's comm, an
 * IRQ's name) rarely differs for one kind and id, so it is left out of
 * the hash. */
guint
_cs_explain_part_hash (gconstpointer key)
{
  const CsExplainContributor *c = key;

  return ((guint) c->id * 2654435761u) ^ (guint) c->kind;
}

gboolean
_cs_explain_part_equal (gconstpointer a,
                        gconstpointer b)
{
  const CsExplainContributor *x = a, *y = b;

  return x->kind == y->kind && x->id == y->id && strcmp (x->name, y->name) == 0;
}

/* Above this many parts, they are found through a hash table: a long
 * wait crossed by thousands of tasks would otherwise cost the parts
 * times the slices. */
#define PARTS_INDEXED 16

void
_cs_explain_index_part (GHashTable                 *index,
                        const CsExplainContributor *c,
                        guint                       i)
{
  g_hash_table_insert (index, g_memdup2 (c, sizeof *c), GUINT_TO_POINTER (i + 1));
}

/* The index of @c's part in @parts, or -1; @index (nullable) caches the
 * lookup for long lists and is kept up to date by the caller on append. */
gint
_cs_explain_find_part (GArray                      *parts,
                       GHashTable                 **index,
                       const CsExplainContributor  *c)
{
  if (index == NULL || (*index == NULL && parts->len <= PARTS_INDEXED))
    {
      for (guint i = 0; i < parts->len; i++)
        if (_cs_explain_part_equal (&g_array_index (parts, CsExplainContributor, i), c))
          return i;
      return -1;
    }
  if (*index == NULL)
    {
      *index = g_hash_table_new_full (_cs_explain_part_hash, _cs_explain_part_equal, g_free, NULL);
      /* Backwards, so that the first of equal keys (none in practice)
       * wins, as in the linear search. */
      for (guint i = parts->len; i-- > 0;)
        _cs_explain_index_part (*index, &g_array_index (parts, CsExplainContributor, i), i);
    }
  return GPOINTER_TO_INT (g_hash_table_lookup (*index, c)) - 1;
}

gint
_cs_explain_find_part_plain (GArray                     *parts,
                             const CsExplainContributor *c)
{
  return _cs_explain_find_part (parts, NULL, c);
}

/* A long wait logs many slices (large-v6.dat's worst pair: 150,914, 3.5
 * MiB): grown from nothing, the array was copied and faulted in again at
 * each doubling, 5 % of the pair's time.  Its first slice reserves room
 * for this many, untouched until used (a breakdown with few slices gets
 * a copy of its size: _cs_explain_waiting_breakdown()). */
#define SLICES_RESERVED (1u << 17)

void
_cs_explain_waiting_add_slice (Waiting *w,
                               guint    part,
                               gint64   begin_ns,
                               gint64   end_ns,
                               guint    cpu)
{
  Slice *last = w->slices->len > 0 ? &g_array_index (w->slices, Slice, w->slices->len - 1) : NULL;
  Slice slice = { begin_ns, end_ns, cpu, part };

  if (last != NULL && last->end_ns == begin_ns && last->cpu == cpu && last->part == part)
    {
      last->end_ns = end_ns;
      return;
    }
  if (last == NULL)
    {
      g_array_set_size (w->slices, SLICES_RESERVED);
      g_array_set_size (w->slices, 0);
    }
  g_array_append_val (w->slices, slice);
}

/* Adds [begin_ns, end_ns) to part @i of @w, or to a new part for @c when
 * @i is -1; @prio is @c's (read when @i is not -1, @c then unread). */
static void
add_to_part_prio (Waiting                    *w,
                  gint                        i,
                  const CsExplainContributor *c,
                  gint32                      prio,
                  gint64                      begin_ns,
                  gint64                      end_ns,
                  guint                       cpu)
{
  gint64 ns = end_ns - begin_ns;
  CsExplainContributor *p;

  if (i < 0)
    {
      g_array_append_val (w->parts, *c);
      i = w->parts->len - 1;
      if (w->part_index != NULL)
        _cs_explain_index_part (w->part_index, c, i);
      p = &g_array_index (w->parts, CsExplainContributor, i);
      p->ns = 0;
      p->n_slices = 0;
      p->n_pairs = 1;
    }
  if (w->slices != NULL &&
      (w->slice_cpus == NULL || (cpu < w->n_slice_cpus && w->slice_cpus[cpu])))
    _cs_explain_waiting_add_slice (w, i, begin_ns, end_ns, cpu);
  p = &g_array_index (w->parts, CsExplainContributor, i);
  p->ns += ns;
  if (p->prio < 0)
    p->prio = prio;
  if (w->last_part != i)
    p->n_slices++;
  w->last_part = i;
  w->last_key = 0;
}

static inline void
add_to_part (Waiting                    *w,
             gint                        i,
             const CsExplainContributor *c,
             gint64                      begin_ns,
             gint64                      end_ns,
             guint                       cpu)
{
  add_to_part_prio (w, i, c, c->prio, begin_ns, end_ns, cpu);
}

void
_cs_explain_waiting_add_part (Waiting                    *w,
                              const CsExplainContributor *c,
                              gint64                      begin_ns,
                              gint64                      end_ns,
                              guint                       cpu)
{
  gint i = w->last_part >= 0 &&
           _cs_explain_part_equal (&g_array_index (w->parts, CsExplainContributor, w->last_part), c)
           ? w->last_part : _cs_explain_find_part (w->parts, &w->part_index, c);

  add_to_part (w, i, c, begin_ns, end_ns, cpu);
}

/* The index of the part numbered @key in @w's parts, or -1: with @c
 * NULL, when the number is not remembered; else when the part is new
 * (add_to_part() then appends it: remembered as such). */
static inline gint
part_of_key (Waiting                    *w,
             guint                       key,
             const CsExplainContributor *c)
{
  guint64 e;
  gint i;

  if (w->last_part >= 0 && w->last_key == key + 1)
    return w->last_part;
  if (w->key_parts == NULL)
    w->key_parts = g_array_new (FALSE, TRUE, sizeof (guint64));
  if (w->key_gen == 0)
    w->key_gen = 1;
  e = key < w->key_parts->len ? g_array_index (w->key_parts, guint64, key) : 0;
  i = (e >> 32) == w->key_gen ? (gint) (e & G_MAXUINT32) - 1 : -1;
  if (i < 0 && c != NULL)
    {
      i = _cs_explain_find_part (w->parts, &w->part_index, c);
      if (key >= w->key_parts->len)
        g_array_set_size (w->key_parts, MAX (key + 1, 2 * w->key_parts->len));
      /* A new part: add_to_part() appends it at parts->len. */
      g_array_index (w->key_parts, guint64, key) =
        ((guint64) w->key_gen << 32) | ((i < 0 ? w->parts->len : (guint) i) + 1);
    }
  return i;
}

/**
 * _cs_explain_waiting_add_key_part:
 * @w: a waiting pair
 * @key: the tracker's number for @c (the same contributor, the same
 *   number: cs-explain-tracker.c numbers them once per change of a CPU)
 * @c: the contributor
 * @begin_ns: start of the stretch
 * @end_ns: its end
 * @cpu: its CPU
 *
 * _cs_explain_waiting_add_part() with the part found by its number: an
 * array read rather than a hash of the contributor and a comparison of
 * its name, for a sweep that adds every stretch of a CPU to each pair
 * waiting there.
 */
void
_cs_explain_waiting_add_key_part (Waiting                    *w,
                                  guint                       key,
                                  const CsExplainContributor *c,
                                  gint64                      begin_ns,
                                  gint64                      end_ns,
                                  guint                       cpu)
{
  add_to_part (w, part_of_key (w, key, c), c, begin_ns, end_ns, cpu);
  w->last_key = key + 1;
}

/**
 * _cs_explain_waiting_add_stretches:
 * @w: a waiting pair
 * @stretches: (array length=n): stretches of @cpu's time, in time order
 * @n: their count
 * @numbered: the contributors by the tracker's number (#Stretch.key)
 * @from_ns: when @w was queued on @cpu: the stretches count from then
 *   (the first may have begun before)
 * @cpu: the CPU
 *
 * Adds each stretch as _cs_explain_waiting_add_key_part() would have when
 * it was logged, had the CPU's time been cut at @from_ns: the same parts,
 * sums and slices' counts.
 */
void
_cs_explain_waiting_add_stretches (Waiting                    *w,
                                   const Stretch              *stretches,
                                   guint                       n,
                                   const CsExplainContributor *numbered,
                                   gint64                      from_ns,
                                   guint                       cpu)
{
  for (guint i = 0; i < n; i++)
    {
      const Stretch *e = &stretches[i];
      gint64 begin_ns = MAX (e->begin_ns, from_ns);
      gint part;

      if (e->end_ns <= begin_ns)
        continue;
      /* The contributor is made only for a part not known by its number. */
      part = part_of_key (w, e->key, NULL);
      if (part >= 0)
        add_to_part_prio (w, part, NULL, e->prio, begin_ns, e->end_ns, cpu);
      else
        {
          CsExplainContributor c = numbered[e->key];

          c.prio = e->prio;
          c.source = e->source;
          add_to_part (w, part_of_key (w, e->key, &c), &c, begin_ns, e->end_ns, cpu);
        }
      w->last_key = e->key + 1;
    }
}

/**
 * _cs_explain_waiting_forget_keys:
 * @w: a waiting pair whose parts moved (resolve_unknown())
 *
 * Drops what _cs_explain_waiting_add_key_part() remembered of them.
 */
void
_cs_explain_waiting_forget_keys (Waiting *w)
{
  w->last_key = 0;
  if (++w->key_gen == 0 && w->key_parts != NULL)
    {
      /* Generations wrapped: clear what they told apart. */
      memset (w->key_parts->data, 0, w->key_parts->len * sizeof (guint64));
      w->key_gen = 1;
    }
}

/**
 * _cs_explain_waiting_reuse_keys:
 * @w: a waiting pair just cleared
 * @key_parts: (transfer full) (nullable): the key_parts of the pair @w
 *   was before
 * @key_gen: its key_gen
 *
 * Gives a cleared pair the number-to-part table it had, in a generation
 * of its own: no clearing, no allocation per wakeup.
 */
void
_cs_explain_waiting_reuse_keys (Waiting *w,
                                GArray  *key_parts,
                                guint32  key_gen)
{
  w->key_parts = key_parts;
  w->key_gen = key_gen;
  _cs_explain_waiting_forget_keys (w);
}

/**
 * _cs_explain_waiting_resolve_unknown:
 * @w: a pair waiting on a CPU whose first sched_switch came now
 * @known: who ran there before it (the switch's prev_pid: a task, or idle)
 *
 * Gives @known the time @w counted as unknown on that CPU.
 */
void
_cs_explain_waiting_resolve_unknown (Waiting                    *w,
                                     const CsExplainContributor *known)
{
  CsExplainContributor unknown = { .kind = CS_EXPLAIN_UNKNOWN, .id = -1 };
  gint u = _cs_explain_find_part_plain (w->parts, &unknown);
  gint k;
  CsExplainContributor moved;

  if (u < 0)
    return;
  moved = g_array_index (w->parts, CsExplainContributor, u);
  g_array_remove_index (w->parts, u);
  g_clear_pointer (&w->part_index, g_hash_table_unref);
  _cs_explain_waiting_forget_keys (w);
  w->last_part = -1;
  k = _cs_explain_find_part_plain (w->parts, known);
  if (k < 0)
    {
      CsExplainContributor c = *known;

      c.ns = moved.ns;
      c.n_slices = moved.n_slices;
      c.n_pairs = 1;
      g_array_append_val (w->parts, c);
      k = w->parts->len - 1;
    }
  else
    {
      g_array_index (w->parts, CsExplainContributor, k).ns += moved.ns;
      g_array_index (w->parts, CsExplainContributor, k).n_slices += moved.n_slices;
    }
  /* The unknown slices are now @known's; the parts after the
   * unknown one moved down by one. */
  for (guint k2 = 0; w->slices != NULL && k2 < w->slices->len; k2++)
    {
      Slice *slice = &g_array_index (w->slices, Slice, k2);

      if (slice->part == (guint) u)
        slice->part = k;
      else if (slice->part > (guint) u)
        slice->part--;
    }
  w->last_part = k;
}

/* A Slice becomes a CsExplainSlice in place: its part, an index into the
 * pair's parts, becomes one into the sorted contributors. */
G_STATIC_ASSERT (sizeof (Slice) == sizeof (CsExplainSlice));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Slice, begin_ns) == G_STRUCT_OFFSET (CsExplainSlice, begin_ns));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Slice, end_ns) == G_STRUCT_OFFSET (CsExplainSlice, end_ns));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Slice, cpu) == G_STRUCT_OFFSET (CsExplainSlice, cpu));
G_STATIC_ASSERT (G_STRUCT_OFFSET (Slice, part) == G_STRUCT_OFFSET (CsExplainSlice, contributor));

/**
 * _cs_explain_waiting_breakdown:
 * @w: a pair that ends here (closed or a window), not used after but to
 *   be recycled or freed
 * @b_ns: its end
 * @b_cpu: the CPU it ended on
 *
 * The breakdown of @w: its parts sorted, and its slices (taken from @w,
 * which keeps none: a pair explained alone has one per switch of the
 * CPUs it waited on, a hundred thousand for a long wait, so they are not
 * copied).
 *
 * Returns: (transfer full): the breakdown
 */
CsExplainBreakdown *
_cs_explain_waiting_breakdown (Waiting *w,
                               gint64   b_ns,
                               guint    b_cpu)
{
  CsExplainBreakdown *b = g_new0 (CsExplainBreakdown, 1);

  b->pid = w->pid;
  b->prio = w->prio;
  b->a_ns = w->a_ns;
  b->b_ns = b_ns;
  b->a_cpu = w->a_cpu;
  b->b_cpu = b_cpu;
  b->n_cpus_queued = w->n_queued;
  b->waker_pid = w->waker_pid;
  b->waker_flags = w->waker_flags;
  b->contributors = g_array_copy (w->parts);
  for (guint i = 0; i < b->contributors->len; i++)
    {
      CsExplainContributor *p = &g_array_index (b->contributors, CsExplainContributor, i);

      p->outranks = (p->kind == CS_EXPLAIN_TASK || p->kind == CS_EXPLAIN_IRQS_OFF ||
                     p->kind == CS_EXPLAIN_PREEMPT_OFF) &&
                    p->prio >= 0 && w->prio >= 0 && p->prio < w->prio;
    }
  cs_explain_sort_contributors (b->contributors);
  if (w->slices != NULL)
    {
      g_autoptr(GHashTable) index = NULL;
      g_autofree guint *sorted = g_new (guint, MAX (w->parts->len, 1));

      /* Where each part went in the sorted contributors. */
      for (guint i = 0; i < w->parts->len; i++)
        sorted[i] = MAX (_cs_explain_find_part (b->contributors, &index,
                                            &g_array_index (w->parts, CsExplainContributor, i)),
                         0);
      b->slices = g_steal_pointer (&w->slices);
      if (b->slices->len <= SLICES_RESERVED / 8)
        {
          /* Only the room it uses (add_slice() reserved more). */
          GArray *fit = g_array_sized_new (FALSE, FALSE, sizeof (Slice), b->slices->len);

          g_array_append_vals (fit, b->slices->data, b->slices->len);
          g_array_unref (b->slices);
          b->slices = fit;
        }
      for (guint i = 0; i < b->slices->len; i++)
        {
          Slice *slice = &g_array_index (b->slices, Slice, i);

          slice->part = slice->part < w->parts->len ? sorted[slice->part] : 0;
        }
    }
  return b;
}
