/* cs-text-cache-private.h: laid-out texts of one font and width, by content.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shaping a label costs tens of microseconds; tick labels, CPU names and
 * notes repeat from frame to frame (scrolling keeps most of them), so the
 * renderer shapes each once.  Used from the renderer's thread only.
 */
#pragma once

#include <pango/pango.h>

G_BEGIN_DECLS

typedef struct {
  GHashTable *layouts;        /* text → PangoLayout */
  const char *font;           /* static string */
  int width_px;               /* ellipsized beyond, or -1 */
} CsTextCache;

void         _cs_text_cache_init  (CsTextCache  *cache,
                                   const char   *font,
                                   int           width_px);
PangoLayout *_cs_text_cache_get   (CsTextCache  *cache,
                                   PangoContext *context,
                                   const char   *text);
void         _cs_text_cache_clear (CsTextCache  *cache);
void         _cs_text_cache_free  (CsTextCache  *cache);

G_END_DECLS
