/* cs-index-progress.h: how long work reports its progress.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shared by every room that does long work on a recording: converting
 * trace text (index/import/), waiting for another process's index
 * (index/cache/), building the index (index/store/) and loading a
 * document (index/model/).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * CsIndexProgressFunc:
 * @fraction: 0.0 .. 1.0
 * @user_data: closure
 *
 * Called from the building thread, at most about 20 times per second.
 */
typedef void (*CsIndexProgressFunc) (double fraction, gpointer user_data);

/**
 * CsIndexPositionFunc:
 * @cpu: the CPU whose data the position is in
 * @offset: the offset of a record the build read last on @cpu: a byte
 *   offset in the file for an uncompressed recording, a position in the
 *   CPU's decompressed data for a compressed v7 one (see #CsRecord)
 * @user_data: closure
 *
 * Called from the building thread, at most about 20 times per second, when
 * the scan has moved on since the last call.  Of the CPUs being read, it
 * names the one that moved on least recently: when a damaged recording
 * stops the build, the last call names where.
 */
typedef void (*CsIndexPositionFunc) (guint cpu, guint64 offset, gpointer user_data);

G_END_DECLS
