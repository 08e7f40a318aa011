/* cs-latency-open.c: the latency pass's open A events, by pair and key.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Every A event opens under its pair and key until a B event with that
 * key closes it (or a newer A replaces it): millions of insertions,
 * lookups and removals over a pass, among a few thousand open at a time.
 * A GHashTable of allocated entries cost about 6 % of the wakeup pass's
 * CPU time on the large benchmark recording (perf: its lookups, hashing,
 * malloc and free); this is a table of the entries themselves, open
 * addressing with linear probing, at most half full, and removal by
 * shifting the entries after back (no tombstones).
 */
#include <string.h>

#include "cs-latency-open.h"

#define MIN_SLOTS 1024
#define EMPTY G_MAXUINT         /* the pair of a free slot */

struct _CsLatencyOpen
{
  CsLatencyOpenA *slots;
  gsize mask;                   /* slots - 1, slots a power of 2 */
  gsize n;                      /* used slots */
};

static inline gsize
slot_of (const CsLatencyOpen *self,
         guint                pair,
         const gint64        *key)
{
  guint64 h = pair * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  for (guint i = 0; i < CS_LATENCY_MAX_KEYS; i++)
    h = (h ^ (guint64) key[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  /* MurmurHash3's finalizer: the low bits pick the slot. */
  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 33;
  return (gsize) h & self->mask;
}

static void
alloc_slots (CsLatencyOpen *self,
             gsize          n_slots)
{
  self->slots = g_new (CsLatencyOpenA, n_slots);
  self->mask = n_slots - 1;
  for (gsize i = 0; i < n_slots; i++)
    self->slots[i].pair = EMPTY;
}

/**
 * cs_latency_open_new:
 *
 * Returns: (transfer full): an empty table; free it with
 *   cs_latency_open_free()
 */
CsLatencyOpen *
cs_latency_open_new (void)
{
  CsLatencyOpen *self = g_new0 (CsLatencyOpen, 1);

  alloc_slots (self, MIN_SLOTS);
  return self;
}

/**
 * cs_latency_open_free:
 * @open: (nullable): a table
 */
void
cs_latency_open_free (CsLatencyOpen *self)
{
  if (self == NULL)
    return;
  g_free (self->slots);
  g_free (self);
}

/* The slot of @pair and @key, or the free slot where it would go. */
static inline CsLatencyOpenA *
find (CsLatencyOpen *self,
      guint          pair,
      const gint64  *key)
{
  for (gsize i = slot_of (self, pair, key);; i = (i + 1) & self->mask)
    {
      CsLatencyOpenA *s = &self->slots[i];

      if (s->pair == EMPTY ||
          (s->pair == pair && memcmp (s->key, key, sizeof s->key) == 0))
        return s;
    }
}

/**
 * cs_latency_open_lookup:
 * @open: a table
 * @pair: a pair's index in its definition
 * @key: (array fixed-size=4): the key (parts the pair lacks are 0)
 *
 * Returns: (transfer none) (nullable): the A open under @pair and @key,
 *   valid until the table changes, or %NULL
 */
CsLatencyOpenA *
cs_latency_open_lookup (CsLatencyOpen *self,
                        guint          pair,
                        const gint64  *key)
{
  CsLatencyOpenA *s = find (self, pair, key);

  return s->pair == EMPTY ? NULL : s;
}

/**
 * cs_latency_open_remove:
 * @open: a table
 * @a: an entry cs_latency_open_lookup() returned, the table unchanged
 *   since
 *
 * Closes @a.
 */
void
cs_latency_open_remove (CsLatencyOpen  *self,
                        CsLatencyOpenA *a)
{
  gsize hole = (gsize) (a - self->slots);

  g_return_if_fail (hole <= self->mask && a->pair != EMPTY);

  /* Moves back each entry after the hole that may sit there: one whose
   * home slot is not cyclically in (hole, j]. */
  for (gsize j = (hole + 1) & self->mask; self->slots[j].pair != EMPTY; j = (j + 1) & self->mask)
    {
      gsize home = slot_of (self, self->slots[j].pair, self->slots[j].key);

      if (((j - home) & self->mask) >= ((j - hole) & self->mask))
        {
          self->slots[hole] = self->slots[j];
          hole = j;
        }
    }
  self->slots[hole].pair = EMPTY;
  self->n--;
}

/* Doubles the slots. */
static void
grow (CsLatencyOpen *self)
{
  CsLatencyOpenA *old = self->slots;
  gsize n_old = self->mask + 1;

  alloc_slots (self, n_old * 2);
  for (gsize i = 0; i < n_old; i++)
    if (old[i].pair != EMPTY)
      *find (self, old[i].pair, old[i].key) = old[i];
  g_free (old);
}

/**
 * cs_latency_open_put:
 * @open: a table
 * @a: an A to open under its pair (below G_MAXUINT) and key, copied
 *
 * Opens @a; an A open under the same pair and key is replaced (the
 * newer A is the one a B pairs with).
 *
 * Returns: %FALSE when @a replaced an open A, %TRUE when it is new
 */
gboolean
cs_latency_open_put (CsLatencyOpen        *self,
                     const CsLatencyOpenA *a)
{
  CsLatencyOpenA *s;
  gboolean replaced;

  g_return_val_if_fail (a->pair != EMPTY, TRUE);

  if (2 * (self->n + 1) > self->mask + 1)
    grow (self);
  s = find (self, a->pair, a->key);
  replaced = s->pair != EMPTY;
  *s = *a;
  if (!replaced)
    self->n++;
  return !replaced;
}

/**
 * cs_latency_open_drain:
 * @open: a table
 * @n_by_pair: (array length=n_pairs): counts to add each open A to, by
 *   its pair
 * @n_pairs: the pairs of the definition
 *
 * Adds the A events still open to @n_by_pair (they found no B) and
 * empties the table.
 */
void
cs_latency_open_drain (CsLatencyOpen *self,
                       guint64       *n_by_pair,
                       guint          n_pairs)
{
  for (gsize i = 0; i <= self->mask; i++)
    if (self->slots[i].pair != EMPTY)
      {
        if (self->slots[i].pair < n_pairs)
          n_by_pair[self->slots[i].pair]++;
        self->slots[i].pair = EMPTY;
      }
  self->n = 0;
}
