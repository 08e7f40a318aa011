/* cs-streams-renderer.h: draws every stream of a CsStreamSet on one axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Pure cairo + Pango, like CsTimelineRenderer, which it uses once per
 * stream: each visible stream is a group, top to bottom in the set's order,
 * of a header row (a collapse triangle, the stream's name, host, kernel and
 * clock, its alignment note, and a close box) and, unless the stream is
 * collapsed, its own CsTimelineRenderer drawing (its axis, in its own
 * clock, then its CPU, task and plugin plots), then, for a KVM guest, one
 * strip per vCPU reserved for the host's view of that vCPU.  The common
 * viewport is in axis ns (see cs_stream_to_axis_ns()); each group is drawn
 * with the viewport mapped into its stream's clock at both edges.  The cost
 * of a frame is the sum of the groups shown, each following the width of
 * the window as CsTimelineRenderer does.
 */
#pragma once

#include "cs-stream-set.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

/**
 * CS_STREAM_HEADER_HEIGHT_PX:
 *
 * Height of a stream's header row: a line of facts and a line of note.
 */
#define CS_STREAM_HEADER_HEIGHT_PX 34

/**
 * CS_VCPU_STRIP_HEIGHT_PX:
 *
 * Height of the strip under a guest's plots that shows, per vCPU, the
 * host's view of it.
 */
#define CS_VCPU_STRIP_HEIGHT_PX 14

/**
 * CsStreamsHitPart:
 * @CS_STREAMS_HIT_NONE: nothing (outside every group)
 * @CS_STREAMS_HIT_HEADER: a header row, not on its buttons
 * @CS_STREAMS_HIT_COLLAPSE: the header's collapse triangle
 * @CS_STREAMS_HIT_CLOSE: the header's close box
 * @CS_STREAMS_HIT_PLOTS: the stream's own drawing; #CsStreamsHit.hit says what
 * @CS_STREAMS_HIT_VCPU_STRIP: a guest's vCPU strip (#CsStreamsHit.vcpu)
 *
 * Which part of a stream group a point falls in.
 */
typedef enum {
  CS_STREAMS_HIT_NONE,
  CS_STREAMS_HIT_HEADER,
  CS_STREAMS_HIT_COLLAPSE,
  CS_STREAMS_HIT_CLOSE,
  CS_STREAMS_HIT_PLOTS,
  CS_STREAMS_HIT_VCPU_STRIP,
} CsStreamsHitPart;

/**
 * CsStreamsHit:
 * @part: what part of a group is under the point
 * @stream: (nullable): the stream of that group (borrowed)
 * @axis_ns: the axis time under the point
 * @vcpu: the vCPU of a %CS_STREAMS_HIT_VCPU_STRIP
 * @hit: for %CS_STREAMS_HIT_PLOTS, the stream renderer's hit, whose times
 *   are in the stream's own clock
 *
 * What lies under a point of the drawing.
 */
typedef struct {
  CsStreamsHitPart part;
  CsStream *stream;
  gint64 axis_ns;
  guint vcpu;
  CsHit hit;
} CsStreamsHit;

#define CS_TYPE_STREAMS_RENDERER (cs_streams_renderer_get_type ())
G_DECLARE_FINAL_TYPE (CsStreamsRenderer, cs_streams_renderer, CS, STREAMS_RENDERER, GObject)

CsStreamsRenderer  *cs_streams_renderer_new          (CsStreamSet        *set);
CsStreamSet        *cs_streams_renderer_get_stream_set (CsStreamsRenderer *self);
CsTimelineRenderer *cs_streams_renderer_get_stream_renderer (CsStreamsRenderer *self,
                                                      CsStream           *stream);
void                cs_streams_renderer_set_stream_renderer (CsStreamsRenderer *self,
                                                      CsStream           *stream,
                                                      CsTimelineRenderer *renderer);
int                 cs_streams_renderer_get_natural_height (CsStreamsRenderer *self);
gboolean            cs_streams_renderer_get_stream_area (CsStreamsRenderer *self,
                                                      CsStream           *stream,
                                                      double             *y_px,
                                                      double             *height_px);
void                cs_streams_renderer_map_viewport (CsStreamsRenderer  *self,
                                                      CsStream           *stream,
                                                      const CsViewport   *viewport,
                                                      CsViewport         *stream_viewport);
gboolean            cs_streams_renderer_draw         (CsStreamsRenderer  *self,
                                                      cairo_t            *cr,
                                                      const CsViewport   *viewport,
                                                      GError            **error);
gboolean            cs_streams_renderer_hit_test     (CsStreamsRenderer  *self,
                                                      const CsViewport   *viewport,
                                                      double              x_px,
                                                      double              y_px,
                                                      CsStreamsHit       *hit,
                                                      GError            **error);
void                cs_streams_renderer_set_color_scheme (CsStreamsRenderer *self,
                                                      CsColorScheme       scheme);

G_END_DECLS
