/* cs-chunk-packer.h: event and slice chunks stored in an order that fills
 * the index's pages (cs-chunk-packer.c), for the index builder.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-index-tables-private.h"

G_BEGIN_DECLS

typedef struct _CsChunkPacker CsChunkPacker;

CsChunkPacker *_cs_chunk_packer_new   (gsize                 page_size);
void           _cs_chunk_packer_free  (CsChunkPacker        *self);
gboolean       _cs_chunk_packer_add   (CsChunkPacker        *self,
                                       const CsIndexInserts *ins,
                                       CsScanChunk          *c,
                                       GError              **error);
gboolean       _cs_chunk_packer_flush (CsChunkPacker        *self,
                                       const CsIndexInserts *ins,
                                       GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsChunkPacker, _cs_chunk_packer_free)

G_END_DECLS
