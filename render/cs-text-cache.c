/* cs-text-cache.c: laid-out texts of one font and width, by content.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-text-cache-private.h"

#include "cs-cpu-plot-painter-private.h"

/* Frames show a few dozen texts of a kind; past this many the cache is
 * emptied rather than grown (zooming through the axis' units makes new
 * tick labels forever). */
#define MAX_CACHED_TEXTS 256

/* @font must outlive the cache (a string constant). */
void
_cs_text_cache_init (CsTextCache *cache,
                     const char  *font,
                     int          width_px)
{
  cache->layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  cache->font = font;
  cache->width_px = width_px;
}

/* Returns: (transfer none): @text laid out in @context, valid until the
 * next call or _cs_text_cache_clear(). */
PangoLayout *
_cs_text_cache_get (CsTextCache  *cache,
                    PangoContext *context,
                    const char   *text)
{
  PangoLayout *layout = g_hash_table_lookup (cache->layouts, text);

  if (layout == NULL)
    {
      if (g_hash_table_size (cache->layouts) >= MAX_CACHED_TEXTS)
        g_hash_table_remove_all (cache->layouts);
      layout = _cs_layout_new (context, cache->font);
      if (cache->width_px > 0)
        {
          pango_layout_set_width (layout, cache->width_px * PANGO_SCALE);
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
        }
      pango_layout_set_text (layout, text, -1);
      g_hash_table_insert (cache->layouts, g_strdup (text), layout);
    }
  return layout;
}

/* Forgets every layout: the context's font options or transform changed. */
void
_cs_text_cache_clear (CsTextCache *cache)
{
  if (cache->layouts != NULL)
    g_hash_table_remove_all (cache->layouts);
}

void
_cs_text_cache_free (CsTextCache *cache)
{
  g_clear_pointer (&cache->layouts, g_hash_table_unref);
}
