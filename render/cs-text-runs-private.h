/* cs-text-runs-private.h: every text of render/ is drawn here, or kept as
 * SVG <text>.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * cairo 1.16's SVG surface writes text as glyph outlines (<symbol>s placed
 * by <use>), which a slide maker can neither edit nor translate.  So
 * render/ draws each laid-out text with _cs_text_show(): on any surface it
 * is pango_cairo_show_layout(); on a surface that a CsTextRuns is attached
 * to (the SVG export's), it records the run instead (the text shown,
 * ellipsis included; its baseline and anchor in device px; font family,
 * size, weight and style; fill colour; the clip that cuts it) and draws no
 * glyphs.  The exporter then inserts the runs into cairo's SVG as <text>
 * elements with _cs_text_runs_insert_svg().
 *
 * Texts recorded lie above everything cairo drew (they close the
 * document), which is where render/ draws them anyway: over plots and
 * patches, under nothing.  Used from the drawing thread only.
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

G_BEGIN_DECLS

/**
 * CsTextAnchor:
 * @CS_TEXT_ANCHOR_START: the text is placed by its left edge
 * @CS_TEXT_ANCHOR_MIDDLE: centred on a point (tick labels, figures in boxes)
 * @CS_TEXT_ANCHOR_END: placed by its right edge (notes at a plot's right)
 *
 * What a caller keeps fixed when it places a text: the SVG's text-anchor,
 * so that a text in another font (the viewer's, or a translation) stays
 * where the picture puts it.  Drawing as glyphs ignores it.
 */
typedef enum {
  CS_TEXT_ANCHOR_START,
  CS_TEXT_ANCHOR_MIDDLE,
  CS_TEXT_ANCHOR_END,
} CsTextAnchor;

typedef struct _CsTextRuns CsTextRuns;

void        _cs_text_show            (cairo_t         *cr,
                                      PangoLayout     *layout,
                                      CsTextAnchor     anchor);

CsTextRuns *_cs_text_runs_new        (void);
void        _cs_text_runs_free       (CsTextRuns      *runs);
void        _cs_text_runs_attach     (CsTextRuns      *runs,
                                      cairo_surface_t *surface,
                                      double           width_px,
                                      double           height_px);
gboolean    _cs_text_runs_insert_svg (CsTextRuns      *runs,
                                      GString         *svg);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextRuns, _cs_text_runs_free)

G_END_DECLS
