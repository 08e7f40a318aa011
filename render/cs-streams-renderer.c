/* cs-streams-renderer.c: draws every stream of a CsStreamSet on one axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Layout, top to bottom, for each stream that is not hidden:
 *
 *   header     CS_STREAM_HEADER_HEIGHT_PX: "▾ name   host · kernel · clock"
 *              and the alignment note under it; "×" at the right
 *   drawing    the stream's own CsTimelineRenderer (axis + plots), skipped
 *              when the stream is collapsed
 *   vCPUs      for a related KVM guest, CS_VCPU_STRIP_HEIGHT_PX per vCPU:
 *              the host's view of that vCPU (see draw_vcpu_strip())
 *   gap        GROUP_GAP_PX
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cs-cpu-plot-painter-private.h"
#include "cs-streams-renderer.h"
#include "cs-text-cache-private.h"
#include "cs-text-runs-private.h"
#include "cs-vcpu-plot-painter.h"
#include "cs-theme-private.h"

#define GROUP_GAP_PX   6
#define BUTTON_PX      18
#define TITLE_FONT     "Sans Bold 9"
#define NOTE_FONT      "Sans Italic 8"
#define STRIP_FONT     "Sans 7"

struct _CsStreamsRenderer
{
  GObject parent_instance;

  /* owned */
  CsStreamSet *set;
  GHashTable *renderers;      /* CsStream → CsTimelineRenderer */
  PangoContext *pango_context;
  cairo_font_options_t *font_options;
  CsTextCache title_texts;
  CsTextCache note_texts;
  CsTextCache strip_texts;
  CsColorScheme scheme;
};

G_DEFINE_FINAL_TYPE (CsStreamsRenderer, cs_streams_renderer, G_TYPE_OBJECT)

/* Drops the renderers of streams the set no longer holds. */
static void
on_items_changed (GListModel *model, guint position, guint removed, guint added,
                  CsStreamsRenderer *self)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, self->renderers);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!cs_stream_set_find (self->set, key, NULL))
      g_hash_table_iter_remove (&iter);
}

static void
cs_streams_renderer_dispose (GObject *object)
{
  CsStreamsRenderer *self = CS_STREAMS_RENDERER (object);

  if (self->set != NULL)
    g_signal_handlers_disconnect_by_data (self->set, self);
  g_clear_object (&self->set);
  g_clear_pointer (&self->renderers, g_hash_table_unref);
  G_OBJECT_CLASS (cs_streams_renderer_parent_class)->dispose (object);
}

static void
cs_streams_renderer_finalize (GObject *object)
{
  CsStreamsRenderer *self = CS_STREAMS_RENDERER (object);

  _cs_text_cache_free (&self->title_texts);
  _cs_text_cache_free (&self->note_texts);
  _cs_text_cache_free (&self->strip_texts);
  g_clear_pointer (&self->font_options, cairo_font_options_destroy);
  g_clear_object (&self->pango_context);
  G_OBJECT_CLASS (cs_streams_renderer_parent_class)->finalize (object);
}

static void
cs_streams_renderer_class_init (CsStreamsRendererClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cs_streams_renderer_dispose;
  G_OBJECT_CLASS (klass)->finalize = cs_streams_renderer_finalize;
}

static void
cs_streams_renderer_init (CsStreamsRenderer *self)
{
  self->renderers = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  self->pango_context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  _cs_text_cache_init (&self->title_texts, TITLE_FONT, -1);
  _cs_text_cache_init (&self->note_texts, NOTE_FONT, -1);
  _cs_text_cache_init (&self->strip_texts, STRIP_FONT, CS_LABEL_WIDTH_PX - 4);
}

/**
 * cs_streams_renderer_new:
 * @set: the streams to draw
 *
 * Returns: (transfer full): a renderer of @set, holding a reference on it;
 *   it belongs to the thread of the streams' documents
 */
CsStreamsRenderer *
cs_streams_renderer_new (CsStreamSet *set)
{
  CsStreamsRenderer *self;

  g_return_val_if_fail (CS_IS_STREAM_SET (set), NULL);
  self = g_object_new (CS_TYPE_STREAMS_RENDERER, NULL);
  self->set = g_object_ref (set);
  g_signal_connect (set, "items-changed", G_CALLBACK (on_items_changed), self);
  return self;
}

/**
 * cs_streams_renderer_get_stream_set:
 * @self: a renderer
 *
 * Returns: (transfer none): the streams drawn
 */
CsStreamSet *
cs_streams_renderer_get_stream_set (CsStreamsRenderer *self)
{
  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), NULL);
  return self->set;
}

/**
 * cs_streams_renderer_get_stream_renderer:
 * @self: a renderer
 * @stream: a stream of its set
 *
 * The renderer of one stream's drawing, made on first use (every CPU shown),
 * to set its CPU and task plots, filter and plugin rows as for a single
 * recording.  It lives as long as @stream stays in the set.
 *
 * Returns: (transfer none): @stream's renderer
 */
CsTimelineRenderer *
cs_streams_renderer_get_stream_renderer (CsStreamsRenderer *self,
                                         CsStream          *stream)
{
  CsTimelineRenderer *r;

  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), NULL);
  g_return_val_if_fail (CS_IS_STREAM (stream), NULL);
  r = g_hash_table_lookup (self->renderers, stream);
  if (r == NULL)
    {
      r = cs_timeline_renderer_new (cs_stream_get_document (stream));
      cs_timeline_renderer_set_color_scheme (r, self->scheme);
      g_hash_table_insert (self->renderers, g_object_ref (stream), r);
    }
  return r;
}

/**
 * cs_streams_renderer_set_stream_renderer:
 * @self: a renderer
 * @stream: a stream of its set
 * @renderer: the renderer of @stream's document to use, for instance the
 *   one a window already configured for its first recording
 *
 * Replaces the renderer cs_streams_renderer_get_stream_renderer() made.
 */
void
cs_streams_renderer_set_stream_renderer (CsStreamsRenderer  *self,
                                         CsStream           *stream,
                                         CsTimelineRenderer *renderer)
{
  g_return_if_fail (CS_IS_STREAMS_RENDERER (self));
  g_return_if_fail (CS_IS_STREAM (stream));
  g_return_if_fail (cs_timeline_renderer_get_document (renderer) == cs_stream_get_document (stream));
  g_hash_table_replace (self->renderers, g_object_ref (stream), g_object_ref (renderer));
}

/* vCPU strips of a related guest (the reference one too): one per CPU. */
static guint
n_vcpu_strips (CsStream *stream)
{
  if (cs_stream_get_host (stream) == NULL)
    return 0;
  return cs_document_get_n_cpus (cs_stream_get_document (stream));
}

static double
body_height (CsStreamsRenderer *self, CsStream *stream)
{
  if (cs_stream_get_collapsed (stream))
    return 0;
  return cs_timeline_renderer_get_natural_height (cs_streams_renderer_get_stream_renderer (self, stream)) +
         n_vcpu_strips (stream) * (double) CS_VCPU_STRIP_HEIGHT_PX;
}

/* Calls @func on each visible stream with its group's top and height, top
 * to bottom, until it returns FALSE. */
typedef gboolean (*GroupFunc) (CsStreamsRenderer *self, CsStream *stream, double y,
                               double height, gpointer data);

static void
foreach_group (CsStreamsRenderer *self, GroupFunc func, gpointer data)
{
  double y = 0;

  for (guint i = 0; i < cs_stream_set_get_n_streams (self->set); i++)
    {
      CsStream *s = cs_stream_set_get_stream (self->set, i);
      double h;

      if (cs_stream_get_hidden (s))
        continue;
      h = CS_STREAM_HEADER_HEIGHT_PX + body_height (self, s);
      if (!func (self, s, y, h, data))
        return;
      y += h + GROUP_GAP_PX;
    }
}

static gboolean
add_height (CsStreamsRenderer *self, CsStream *stream, double y, double height, gpointer data)
{
  *(double *) data = y + height;
  return TRUE;
}

/**
 * cs_streams_renderer_get_natural_height:
 * @self: a renderer
 *
 * Returns: the height in pixels every visible group needs
 */
int
cs_streams_renderer_get_natural_height (CsStreamsRenderer *self)
{
  double bottom = 0;

  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), 0);
  foreach_group (self, add_height, &bottom);
  return (int) ceil (bottom);
}

typedef struct {
  CsStream *stream;
  double y;
  double height;
  gboolean found;
} FindArea;

static gboolean
find_area (CsStreamsRenderer *self, CsStream *stream, double y, double height, gpointer data)
{
  FindArea *f = data;

  if (stream != f->stream)
    return TRUE;
  f->y = y;
  f->height = height;
  f->found = TRUE;
  return FALSE;
}

/**
 * cs_streams_renderer_get_stream_area:
 * @self: a renderer
 * @stream: a stream of its set
 * @y_px: (out) (optional): top of its group (its header row), px
 * @height_px: (out) (optional): height of its group, header included, px
 *
 * Returns: %FALSE when @stream is hidden or not in the set
 */
gboolean
cs_streams_renderer_get_stream_area (CsStreamsRenderer *self,
                                     CsStream          *stream,
                                     double            *y_px,
                                     double            *height_px)
{
  FindArea f = { stream, 0, 0, FALSE };

  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), FALSE);
  foreach_group (self, find_area, &f);
  if (f.found && y_px != NULL)
    *y_px = f.y;
  if (f.found && height_px != NULL)
    *height_px = f.height;
  return f.found;
}

/**
 * cs_streams_renderer_map_viewport:
 * @self: a renderer
 * @stream: a stream of its set
 * @viewport: a viewport of the common axis
 * @stream_viewport: (out caller-allocates): the same span in @stream's own
 *   clock (both edges mapped with cs_stream_from_axis_ns() of CPU 0), the
 *   same width, and the stream drawing's natural height
 */
void
cs_streams_renderer_map_viewport (CsStreamsRenderer *self,
                                  CsStream          *stream,
                                  const CsViewport  *viewport,
                                  CsViewport        *stream_viewport)
{
  CsTimelineRenderer *r = cs_streams_renderer_get_stream_renderer (self, stream);

  *stream_viewport = *viewport;
  stream_viewport->begin_ns = cs_stream_from_axis_ns (stream, 0, viewport->begin_ns);
  stream_viewport->end_ns = cs_stream_from_axis_ns (stream, 0, viewport->end_ns);
  if (stream_viewport->end_ns <= stream_viewport->begin_ns)
    stream_viewport->end_ns = stream_viewport->begin_ns + 1;
  stream_viewport->height_px = cs_timeline_renderer_get_natural_height (r);
}

/* "host · kernel · clock", the parts the file says. */
static char *
facts_text (CsStream *stream)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();

  g_ptr_array_add (parts, (char *) cs_stream_get_name (stream));
  if (cs_stream_get_host_name (stream) != NULL)
    g_ptr_array_add (parts, (char *) cs_stream_get_host_name (stream));
  if (cs_stream_get_kernel (stream) != NULL)
    g_ptr_array_add (parts, (char *) cs_stream_get_kernel (stream));
  g_ptr_array_add (parts, (char *) cs_stream_get_clock_description (stream));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv ("  ·  ", (char **) parts->pdata);
}

static void
draw_header (CsStreamsRenderer *self, cairo_t *cr, const CsTheme *theme, CsStream *stream,
             double y, int width)
{
  g_autofree char *facts = facts_text (stream);
  PangoLayout *title = _cs_text_cache_get (&self->title_texts, self->pango_context, facts);
  const char *note = cs_stream_get_note (stream);
  double cx = BUTTON_PX / 2.0 + 2, cy = y + 10;

  _cs_theme_set_source (cr, &theme->axis);
  cairo_rectangle (cr, 0, y, width, CS_STREAM_HEADER_HEIGHT_PX);
  cairo_fill (cr);

  /* the collapse triangle: pointing down when open, right when collapsed */
  _cs_theme_set_source (cr, &theme->text);
  if (cs_stream_get_collapsed (stream))
    {
      cairo_move_to (cr, cx - 3, cy - 5);
      cairo_line_to (cr, cx + 4, cy);
      cairo_line_to (cr, cx - 3, cy + 5);
    }
  else
    {
      cairo_move_to (cr, cx - 5, cy - 3);
      cairo_line_to (cr, cx + 5, cy - 3);
      cairo_line_to (cr, cx, cy + 4);
    }
  cairo_close_path (cr);
  cairo_fill (cr);

  /* the close box */
  cairo_set_line_width (cr, 1.5);
  cairo_move_to (cr, width - BUTTON_PX + 4, y + 5);
  cairo_line_to (cr, width - 6, y + 15);
  cairo_move_to (cr, width - 6, y + 5);
  cairo_line_to (cr, width - BUTTON_PX + 4, y + 15);
  cairo_stroke (cr);

  cairo_save (cr);
  cairo_rectangle (cr, BUTTON_PX + 4, y, MAX (width - 2 * BUTTON_PX - 8, 0),
                   CS_STREAM_HEADER_HEIGHT_PX);
  cairo_clip (cr);
  cairo_move_to (cr, BUTTON_PX + 4, y + 2);
  _cs_text_show (cr, title, CS_TEXT_ANCHOR_START);
  if (note[0] != '\0')
    {
      PangoLayout *layout = _cs_text_cache_get (&self->note_texts, self->pango_context, note);

      _cs_theme_set_source (cr, cs_stream_get_alignment (stream) == CS_STREAM_ALIGNMENT_UNRELATED
                                ? &theme->text : &theme->dim_text);
      cairo_move_to (cr, BUTTON_PX + 4, y + 18);
      _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
    }
  cairo_restore (cr);
}

/* The host's view of one guest vCPU: when its host thread was in the guest
 * (kvm_entry → kvm_exit), exited and why, or not running at all, painted
 * by cs-vcpu-plot-painter from the guest stream's #CsVcpuTimeline.  The
 * strip spans [@viewport's begin, end) of the axis, which the host
 * stream's clock maps to the host's own ns (the painter's range). */
static void
draw_vcpu_strip (CsStreamsRenderer *self, cairo_t *cr, const CsTheme *theme,
                 CsStream *guest, guint vcpu, const CsViewport *viewport, double y)
{
  g_autofree char *label = NULL;
  PangoLayout *layout;
  /* built in the background: the set's "stream-updated" asks for a redraw */
  CsVcpuTimeline *timeline = cs_stream_peek_vcpu_timeline (guest);
  CsStream *host = cs_stream_get_host (guest);
  double plot_w = MAX (viewport->width_px - CS_LABEL_WIDTH_PX, 0);

  /* TRANSLATORS: label of the strip showing how the host ran a guest's
   * virtual CPU; keep it short (64 px): the host thread is in the hover */
  label = g_strdup_printf (_("vCPU %u"), vcpu);
  layout = _cs_text_cache_get (&self->strip_texts, self->pango_context, label);
  _cs_theme_set_source (cr, &theme->dim_text);
  cairo_move_to (cr, 4, y + 1);
  _cs_text_show (cr, layout, CS_TEXT_ANCHOR_START);
  _cs_theme_set_source (cr, &theme->plot);
  cairo_rectangle (cr, CS_LABEL_WIDTH_PX, y + 2, plot_w, CS_VCPU_STRIP_HEIGHT_PX - 4);
  cairo_fill (cr);
  if (timeline != NULL && host != NULL && vcpu < cs_vcpu_timeline_get_n_threads (timeline))
    {
      gint64 begin = cs_stream_from_axis_ns (host, 0, viewport->begin_ns);
      gint64 end = cs_stream_from_axis_ns (host, 0, viewport->end_ns);

      if (end > begin)
        cs_vcpu_plot_paint (cr, timeline, vcpu, begin, end, CS_LABEL_WIDTH_PX, y + 2,
                            plot_w, CS_VCPU_STRIP_HEIGHT_PX - 4);
    }
}

typedef struct {
  cairo_t *cr;
  const CsViewport *viewport;
  const CsTheme *theme;
  double clip_y1, clip_y2;
  gboolean ok;
  GError **error;
} DrawData;

static gboolean
draw_group (CsStreamsRenderer *self, CsStream *stream, double y, double height, gpointer data)
{
  DrawData *d = data;
  CsViewport sub;
  double body_y = y + CS_STREAM_HEADER_HEIGHT_PX;

  if (y >= d->clip_y2)
    return FALSE;
  /* the page shows in the gap below the group (the groups paint their own) */
  _cs_theme_set_source (d->cr, &d->theme->page);
  cairo_rectangle (d->cr, 0, y + height, d->viewport->width_px, GROUP_GAP_PX);
  cairo_fill (d->cr);
  if (y + height <= d->clip_y1)
    return TRUE;
  draw_header (self, d->cr, d->theme, stream, y, d->viewport->width_px);
  if (cs_stream_get_collapsed (stream))
    return TRUE;

  cs_streams_renderer_map_viewport (self, stream, d->viewport, &sub);
  cairo_save (d->cr);
  cairo_translate (d->cr, 0, body_y);
  d->ok = cs_timeline_renderer_draw (cs_streams_renderer_get_stream_renderer (self, stream),
                                     d->cr, &sub, d->error);
  cairo_restore (d->cr);
  for (guint v = 0; d->ok && v < n_vcpu_strips (stream); v++)
    draw_vcpu_strip (self, d->cr, d->theme, stream, v, d->viewport,
                     body_y + sub.height_px + v * (double) CS_VCPU_STRIP_HEIGHT_PX);
  return d->ok;
}

static void
update_pango_context (CsStreamsRenderer *self, cairo_t *cr)
{
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_surface_get_font_options (cairo_get_target (cr), options);
  if (self->font_options != NULL && cairo_font_options_equal (options, self->font_options))
    {
      cairo_font_options_destroy (options);
      return;
    }
  g_clear_pointer (&self->font_options, cairo_font_options_destroy);
  self->font_options = options;
  pango_cairo_update_context (cr, self->pango_context);
  _cs_text_cache_clear (&self->title_texts);
  _cs_text_cache_clear (&self->note_texts);
  _cs_text_cache_clear (&self->strip_texts);
}

/**
 * cs_streams_renderer_draw:
 * @self: a renderer
 * @cr: where to draw, in pixels (any surface)
 * @viewport: the span of the common axis and the size drawn on
 * @error: return location for an error of a document (%CS_INDEX_ERROR)
 *
 * Draws every visible stream's group (see the file's comment); groups
 * outside @cr's clip are skipped.  The state of @cr is left as it was.
 *
 * Returns: %FALSE with @error set when a document could not answer (the
 *   drawing is then incomplete)
 */
gboolean
cs_streams_renderer_draw (CsStreamsRenderer *self,
                          cairo_t           *cr,
                          const CsViewport  *viewport,
                          GError           **error)
{
  DrawData d = { cr, viewport, cs_theme_get (self->scheme), 0, 0, TRUE, error };
  double x1, x2;

  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), FALSE);
  g_return_val_if_fail (viewport != NULL, FALSE);
  if (viewport->width_px <= 0 || viewport->height_px <= 0)
    return TRUE;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, viewport->width_px, viewport->height_px);
  cairo_clip (cr);
  cairo_clip_extents (cr, &x1, &d.clip_y1, &x2, &d.clip_y2);
  update_pango_context (self, cr);
  foreach_group (self, draw_group, &d);
  /* below the last group: each group paints its own area, so the page is
   * painted once per pixel, not twice (a full paint is a tenth of a
   * 1920×1080 frame) */
  {
    int bottom = cs_streams_renderer_get_natural_height (self);

    _cs_theme_set_source (cr, &d.theme->page);
    cairo_rectangle (cr, 0, bottom, viewport->width_px, MAX (viewport->height_px - bottom, 0));
    cairo_fill (cr);
  }
  cairo_restore (cr);
  return d.ok;
}

typedef struct {
  CsStreamsRenderer *self;
  const CsViewport *viewport;
  double x, y;
  CsStreamsHit *hit;
  gboolean ok;
  GError **error;
} HitData;

static gboolean
hit_group (CsStreamsRenderer *self, CsStream *stream, double y, double height, gpointer data)
{
  HitData *h = data;
  double body_y = y + CS_STREAM_HEADER_HEIGHT_PX;
  CsViewport sub;

  if (h->y < y || h->y >= y + height)
    return TRUE;
  h->hit->stream = stream;
  if (h->y < body_y)
    {
      h->hit->part = h->x < BUTTON_PX + 4 ? CS_STREAMS_HIT_COLLAPSE
                     : h->x >= h->viewport->width_px - BUTTON_PX ? CS_STREAMS_HIT_CLOSE
                     : CS_STREAMS_HIT_HEADER;
      return FALSE;
    }
  cs_streams_renderer_map_viewport (self, stream, h->viewport, &sub);
  if (h->y >= body_y + sub.height_px)
    {
      h->hit->part = CS_STREAMS_HIT_VCPU_STRIP;
      h->hit->vcpu = (guint) ((h->y - body_y - sub.height_px) / CS_VCPU_STRIP_HEIGHT_PX);
      return FALSE;
    }
  h->hit->part = CS_STREAMS_HIT_PLOTS;
  h->ok = cs_timeline_renderer_hit_test (cs_streams_renderer_get_stream_renderer (self, stream),
                                         &sub, h->x, h->y - body_y, &h->hit->hit, h->error);
  return FALSE;
}

/**
 * cs_streams_renderer_hit_test:
 * @self: a renderer
 * @viewport: the viewport drawn
 * @x_px: pixels from the left of the drawing
 * @y_px: pixels from the top
 * @hit: (out caller-allocates): what lies there
 * @error: return location for an error of a document (%CS_INDEX_ERROR)
 *
 * Returns: %TRUE with @hit filled (possibly %CS_STREAMS_HIT_NONE)
 */
gboolean
cs_streams_renderer_hit_test (CsStreamsRenderer *self,
                              const CsViewport  *viewport,
                              double             x_px,
                              double             y_px,
                              CsStreamsHit      *hit,
                              GError           **error)
{
  HitData h = { self, viewport, x_px, y_px, hit, TRUE, error };
  CsPlotFrame frame;

  g_return_val_if_fail (CS_IS_STREAMS_RENDERER (self), FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);
  memset (hit, 0, sizeof *hit);
  _cs_plot_frame_init (&frame, viewport, 1);
  hit->axis_ns = frame.begin_ns + (gint64) floor ((x_px - frame.time_x) * frame.ns_per_px);
  foreach_group (self, hit_group, &h);
  return h.ok;
}

/**
 * cs_streams_renderer_set_color_scheme:
 * @self: a renderer
 * @scheme: the page's colours, for every stream's drawing
 */
void
cs_streams_renderer_set_color_scheme (CsStreamsRenderer *self,
                                      CsColorScheme      scheme)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (CS_IS_STREAMS_RENDERER (self));
  self->scheme = scheme;
  g_hash_table_iter_init (&iter, self->renderers);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    cs_timeline_renderer_set_color_scheme (value, scheme);
}
