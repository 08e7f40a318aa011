/* cs-latency-rowtab.h: the pairs' rows stored in chunks, read as a table.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <chronoscope-plugin.h>

#include "cs-latency-varints.h"

G_BEGIN_DECLS

/* Rows per chunk of `latency_chunks`: few enough that a lookup by rowid
 * decodes little (a chunk of 4096 took 88 µs a random lookup on the
 * large benchmark recording), enough that the INSERTs cost nothing. */
#define CS_LATENCY_ROWTAB_CHUNK 512

/* The numbers of a row given to cs_latency_rowtab_encode(): the four
 * packed columns of `latency_rows`, how many keys the row has, the keys. */
enum {
  CS_LATENCY_ROWTAB_A_TS, CS_LATENCY_ROWTAB_B_TS, CS_LATENCY_ROWTAB_IDS, CS_LATENCY_ROWTAB_PP,
  CS_LATENCY_ROWTAB_N_KEYS, CS_LATENCY_ROWTAB_K0,
  CS_LATENCY_ROWTAB_FIELDS = CS_LATENCY_ROWTAB_K0 + 4
};

/* The largest encoded chunk, in bytes. */
#define CS_LATENCY_ROWTAB_MAX_BYTES \
  (5 + CS_LATENCY_ROWTAB_CHUNK * CS_LATENCY_ROWTAB_FIELDS * CS_LATENCY_VARINT_MAX_BYTES)

gsize    cs_latency_rowtab_encode   (const gint64  *rows,
                                     gsize          n_rows,
                                     guint8        *out);
gboolean cs_latency_rowtab_register (sqlite3       *db,
                                     GError       **error);

G_END_DECLS
