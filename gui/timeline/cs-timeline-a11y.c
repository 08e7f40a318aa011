/* cs-timeline-a11y.c: what CsTimeline tells assistive technology, and its
 * keyboard cursor and focus ring.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of CsTimeline.  The timeline is one widget drawing every plot with
 * cairo; here it becomes a tree a screen reader can walk (GTK 4.8's
 * GtkAccessible API, no custom GtkATContext):
 *
 *   the timeline      GTK_ACCESSIBLE_ROLE_GROUP, labelled with the
 *                     recording's name and the visible span ("Timeline of
 *                     trace.dat, 1.250 ms to 3.500 ms"), described with
 *                     what lies under the keyboard cursor on the focused
 *                     plot, the event last selected (on the timeline, or
 *                     by the window: cs_timeline_set_selected_event()) and
 *                     where the markers are,
 *                     its ACTIVE_DESCENDANT the focused plot
 *   each plot         a CsTimelinePlotItem child (GTK_ACCESSIBLE_ROLE_IMG)
 *                     labelled as the plot's label column reads ("CPU 0",
 *                     "bash (1234)", a plugin row's label), allocated the
 *                     plot's rectangle, never drawn; the focused one is
 *                     described as the timeline is
 *
 * The keyboard cursor is a time (#CsTimelineA11y.cursor_ns, the middle of
 * the view until a key moves it) on the focused plot; the keys that move
 * them are in cs-timeline-keys.c.  With visible focus the timeline draws
 * a ring around the focused plot and the cursor as a vertical line.
 *
 * Everything is brought up to date in one idle after a change (span,
 * plots, cursor, selection), so that zooming with the wheel costs one
 * hit test per frame at most.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-timeline-plot-item.h"
#include "cs-timeline-private.h"

#define FOCUS_RING_PX 2.0

static GtkWidgetClass *widget_parent_class;

/* ------------------------------------------------------------------------ */
/* Plots                                                                     */

/**
 * cs_timeline_get_n_plots:
 * @self: a #CsTimeline
 *
 * Returns: how many plots the timeline shows: CPU plots, task plots and
 *   plugin rows (0 without a recording)
 */
guint
cs_timeline_get_n_plots (CsTimeline *self)
{
  CsTimelineRenderer *renderer;
  guint n_cpus = 0, n_tasks = 0;

  g_return_val_if_fail (CS_IS_TIMELINE (self), 0);

  renderer = cs_timeline_get_renderer (self);
  if (renderer == NULL)
    return 0;

  cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  cs_timeline_renderer_get_task_plots (renderer, &n_tasks);
  return n_cpus + n_tasks + cs_timeline_renderer_get_n_plugin_rows (renderer);
}

/**
 * cs_timeline_dup_plot_name:
 * @self: a #CsTimeline
 * @index: a plot, top to bottom, below cs_timeline_get_n_plots()
 *
 * The plot's name as its label column reads: "CPU 2" for a CPU plot,
 * "comm (pid)" for a task plot, the plugin's label for a plugin row.
 *
 * Returns: (transfer full): the name ("" for an index past the plots)
 */
char *
cs_timeline_dup_plot_name (CsTimeline *self,
                           guint       index)
{
  CsTimelineRenderer *renderer;
  const guint *cpus;
  const gint32 *pids;
  guint n_cpus = 0, n_tasks = 0;

  g_return_val_if_fail (CS_IS_TIMELINE (self), g_strdup (""));

  renderer = cs_timeline_get_renderer (self);
  if (renderer == NULL)
    return g_strdup ("");

  cpus = cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  pids = cs_timeline_renderer_get_task_plots (renderer, &n_tasks);

  if (index < n_cpus)
    return g_strdup_printf (_("CPU %u"), cpus[index]);

  index -= n_cpus;
  if (index < n_tasks)
    {
      const char *comm = cs_document_get_comm (cs_timeline_get_document (self), pids[index]);

      if (pids[index] == 0)
        return g_strdup (_("idle"));
      /* TRANSLATORS: a task plot's accessible name: command name and pid */
      return g_strdup_printf (_("%s (%d)"), comm != NULL ? comm : "<…>", pids[index]);
    }

  index -= n_tasks;
  if (index < cs_timeline_renderer_get_n_plugin_rows (renderer))
    {
      CsPluginRowSpec spec;
      const char *label = NULL;

      cs_timeline_renderer_get_plugin_row (renderer, index, &spec, &label);
      return g_strdup (label != NULL ? label : spec.key);
    }

  return g_strdup ("");
}

/**
 * _cs_timeline_get_plot_area:
 * @self: a #CsTimeline
 * @index: a plot, top to bottom
 * @y_px: (out): its top, widget pixels
 * @height_px: (out): its height, pixels
 *
 * Returns: %FALSE when there is no such plot
 */
gboolean
_cs_timeline_get_plot_area (CsTimeline *self,
                            guint       index,
                            double     *y_px,
                            double     *height_px)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  guint n_cpus = 0, n_tasks = 0;

  if (renderer == NULL)
    return FALSE;

  cs_timeline_renderer_get_cpus (renderer, &n_cpus);
  cs_timeline_renderer_get_task_plots (renderer, &n_tasks);

  if (index < n_cpus)
    cs_timeline_renderer_get_cpu_plot_area (renderer, index, y_px, height_px);
  else if (index < n_cpus + n_tasks)
    cs_timeline_renderer_get_task_plot_area (renderer, index - n_cpus, y_px, height_px);
  else if (index < n_cpus + n_tasks + cs_timeline_renderer_get_n_plugin_rows (renderer))
    cs_timeline_renderer_get_plugin_row_area (renderer, index - n_cpus - n_tasks, y_px, height_px);
  else
    return FALSE;
  if (y_px != NULL)
    *y_px += _cs_timeline_get_plots_y (self);
  return TRUE;
}

/* One child per plot, named as the plot reads. */
static void
sync_plot_items (CsTimeline *self)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);
  guint n_plots = cs_timeline_get_n_plots (self);
  gboolean changed = a11y->plots->len != n_plots;

  while (a11y->plots->len > n_plots)
    {
      GtkWidget *item = g_ptr_array_index (a11y->plots, a11y->plots->len - 1);

      gtk_widget_unparent (item);
      g_ptr_array_set_size (a11y->plots, a11y->plots->len - 1);
    }
  while (a11y->plots->len < n_plots)
    {
      GtkWidget *item = cs_timeline_plot_item_new ();

      gtk_widget_set_parent (item, GTK_WIDGET (self));
      g_ptr_array_add (a11y->plots, item);
    }

  for (guint i = 0; i < n_plots; i++)
    {
      g_autofree char *name = cs_timeline_dup_plot_name (self, i);

      cs_timeline_plot_item_set_name (g_ptr_array_index (a11y->plots, i), name);
    }

  if (n_plots > 0 && a11y->focused_plot >= n_plots)
    a11y->focused_plot = n_plots - 1;
  if (changed)
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/**
 * _cs_timeline_a11y_allocate:
 * @self: a #CsTimeline being allocated
 * @width_px: its width
 *
 * Gives each plot item its plot's rectangle, and has the items brought
 * up to date afterwards (plots come and go with a resize: the callers of
 * cs_timeline_renderer_set_cpus() and the like queue one).
 */
void
_cs_timeline_a11y_allocate (CsTimeline *self,
                            int         width_px)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);

  if (a11y->plots == NULL)
    return;

  for (guint i = 0; i < a11y->plots->len; i++)
    {
      GtkWidget *item = g_ptr_array_index (a11y->plots, i);
      double y = 0, height = 0;

      gtk_widget_measure (item, GTK_ORIENTATION_HORIZONTAL, -1, NULL, NULL, NULL, NULL);
      if (!_cs_timeline_get_plot_area (self, i, &y, &height))
        y = height = 0;
      gtk_widget_size_allocate (item,
                                &(GtkAllocation) { 0, (int) y, width_px, MAX ((int) height, 0) },
                                -1);
    }

  if (a11y->plots->len != cs_timeline_get_n_plots (self))
    _cs_timeline_a11y_queue_update (self);
}

/* ------------------------------------------------------------------------ */
/* The keyboard cursor                                                       */

/**
 * cs_timeline_get_cursor_ns:
 * @self: a #CsTimeline
 *
 * Returns: the keyboard cursor's time, ns in the trace clock: always in
 *   the visible span (the middle of it until a key moved the cursor)
 */
gint64
cs_timeline_get_cursor_ns (CsTimeline *self)
{
  CsTimelineA11y *a11y;
  gint64 begin_ns, end_ns;

  g_return_val_if_fail (CS_IS_TIMELINE (self), 0);

  a11y = _cs_timeline_get_a11y (self);
  begin_ns = cs_timeline_get_begin_ns (self);
  end_ns = cs_timeline_get_end_ns (self);
  if (a11y->cursor_ns == CS_MARKER_UNSET || a11y->cursor_ns < begin_ns || a11y->cursor_ns >= end_ns)
    return begin_ns + (end_ns - begin_ns) / 2;
  return a11y->cursor_ns;
}

/**
 * cs_timeline_set_cursor_ns:
 * @self: a #CsTimeline
 * @ts_ns: a time, ns in the trace clock, or %CS_MARKER_UNSET for the
 *   middle of the view
 *
 * Moves the keyboard cursor; the view does not move (a time outside it
 * reads as the middle of the view).
 */
void
cs_timeline_set_cursor_ns (CsTimeline *self,
                           gint64      ts_ns)
{
  CsTimelineA11y *a11y;

  g_return_if_fail (CS_IS_TIMELINE (self));

  a11y = _cs_timeline_get_a11y (self);
  if (a11y->cursor_ns == ts_ns)
    return;
  a11y->cursor_ns = ts_ns;
  _cs_timeline_a11y_queue_update (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * cs_timeline_get_focused_plot:
 * @self: a #CsTimeline
 *
 * Returns: the plot the keyboard works on, top to bottom (0 when there
 *   are no plots)
 */
guint
cs_timeline_get_focused_plot (CsTimeline *self)
{
  CsTimelineA11y *a11y;
  guint n_plots;

  g_return_val_if_fail (CS_IS_TIMELINE (self), 0);

  a11y = _cs_timeline_get_a11y (self);
  n_plots = cs_timeline_get_n_plots (self);
  return n_plots == 0 ? 0 : MIN (a11y->focused_plot, n_plots - 1);
}

/**
 * cs_timeline_set_focused_plot:
 * @self: a #CsTimeline
 * @index: a plot, top to bottom; clamped to the plots shown
 *
 * Moves the keyboard to another plot and scrolls an enclosing
 * #GtkScrolledWindow to show it.
 */
void
cs_timeline_set_focused_plot (CsTimeline *self,
                              guint       index)
{
  CsTimelineA11y *a11y;
  GtkWidget *scrolled;
  guint n_plots;
  double y, height;

  g_return_if_fail (CS_IS_TIMELINE (self));

  a11y = _cs_timeline_get_a11y (self);
  n_plots = cs_timeline_get_n_plots (self);
  index = n_plots == 0 ? 0 : MIN (index, n_plots - 1);
  if (index == a11y->focused_plot)
    return;
  a11y->focused_plot = index;

  scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (scrolled != NULL && _cs_timeline_get_plot_area (self, index, &y, &height))
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      gtk_adjustment_clamp_page (adjustment, y, y + height);
    }

  _cs_timeline_a11y_queue_update (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What lies under the keyboard cursor on the focused plot, one line. */
static char *
describe_cursor (CsTimeline *self)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  CsDocument *document = cs_timeline_get_document (self);
  g_autoptr(GError) error = NULL;
  gint64 cursor_ns = cs_timeline_get_cursor_ns (self);
  CsViewport viewport;
  CsHit hit = { 0 };
  double y, height;

  _cs_timeline_fill_viewport (self, &viewport);
  if (!_cs_timeline_get_plot_area (self, cs_timeline_get_focused_plot (self), &y, &height))
    return cs_hover_text_for_time (document, cursor_ns);

  if (!cs_timeline_renderer_hit_test (renderer, &viewport,
                                      cs_timeline_renderer_ns_to_x (renderer, &viewport, cursor_ns),
                                      y - _cs_timeline_get_plots_y (self) + height / 2,
                                      &hit, &error))
    return g_strdup (error->message);
  if (hit.kind == CS_HIT_NONE)
    return cs_hover_text_for_time (document, cursor_ns);
  return cs_hover_text_for_hit (document, &hit);
}

/* ------------------------------------------------------------------------ */
/* Bringing the accessible tree up to date                                   */

static char *
describe_span (CsTimeline *self)
{
  CsDocument *document = cs_timeline_get_document (self);
  gint64 first_ns = cs_document_get_first_ns (document);
  g_autofree char *name = g_path_get_basename (cs_document_get_trace_path (document));
  g_autofree char *begin = cs_format_offset (cs_timeline_get_begin_ns (self) - first_ns);
  g_autofree char *end = cs_format_offset (cs_timeline_get_end_ns (self) - first_ns);

  /* TRANSLATORS: the timeline's accessible name: the recording's file
   * name, then the visible span as times since the recording's start */
  return g_strdup_printf (_("Timeline of %s, %s to %s"), name, begin, end);
}

/* Where the markers are, and the span between them ("" with neither). */
static char *
describe_markers (CsTimeline *self)
{
  CsDocument *document = cs_timeline_get_document (self);
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 a_ns = cs_timeline_get_marker_ns (self, CS_MARKER_A);
  gint64 b_ns = cs_timeline_get_marker_ns (self, CS_MARKER_B);
  g_autofree char *a = a_ns != CS_MARKER_UNSET ? cs_format_offset (a_ns - first_ns) : NULL;
  g_autofree char *b = b_ns != CS_MARKER_UNSET ? cs_format_offset (b_ns - first_ns) : NULL;

  if (a != NULL && b != NULL)
    {
      g_autofree char *delta = cs_format_duration (ABS (b_ns - a_ns));

      /* TRANSLATORS: part of the timeline's accessible description */
      return g_strdup_printf (_(" Marker A at %s, marker B at %s, %s apart."), a, b, delta);
    }
  if (a != NULL)
    /* TRANSLATORS: part of the timeline's accessible description */
    return g_strdup_printf (_(" Marker A at %s."), a);
  if (b != NULL)
    /* TRANSLATORS: part of the timeline's accessible description */
    return g_strdup_printf (_(" Marker B at %s."), b);
  return g_strdup ("");
}

static gboolean
update_cb (gpointer data)
{
  CsTimeline *self = data;
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);
  g_autofree char *label = NULL;
  g_autofree char *cursor = NULL;
  g_autofree char *description = NULL;
  guint focused;

  a11y->update_id = 0;
  sync_plot_items (self);

  if (cs_timeline_get_document (self) == NULL)
    {
      label = g_strdup (_("Timeline, no recording open"));
      description = g_strdup ("");
    }
  else
    {
      g_autofree char *markers = describe_markers (self);

      label = describe_span (self);
      cursor = describe_cursor (self);
      if (a11y->selected_text != NULL)
        /* TRANSLATORS: the timeline's accessible description: what lies
         * under the keyboard cursor, the event selected, then where the
         * markers are (a sentence of its own) */
        description = g_strdup_printf (_("Cursor: %s. Selected: %s.%s"), cursor, a11y->selected_text, markers);
      else
        /* TRANSLATORS: the timeline's accessible description: what lies
         * under the keyboard cursor, then where the markers are */
        description = g_strdup_printf (_("Cursor: %s.%s"), cursor, markers);
    }

  if (g_strcmp0 (label, a11y->label) != 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      -1);
      g_free (a11y->label);
      a11y->label = g_steal_pointer (&label);
    }

  if (g_strcmp0 (description, a11y->description) != 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                      -1);
      g_free (a11y->description);
      a11y->description = g_steal_pointer (&description);
    }

  focused = cs_timeline_get_focused_plot (self);
  for (guint i = 0; i < a11y->plots->len; i++)
    {
      GtkAccessible *item = g_ptr_array_index (a11y->plots, i);

      if (i == focused)
        gtk_accessible_update_property (item,
                                        GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, cursor != NULL ? cursor : "",
                                        -1);
      else
        gtk_accessible_reset_property (item, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    }

  if (focused < a11y->plots->len)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT,
                                    g_ptr_array_index (a11y->plots, focused),
                                    -1);
  else
    gtk_accessible_reset_relation (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT);

  return G_SOURCE_REMOVE;
}

/**
 * _cs_timeline_a11y_queue_update:
 * @self: a #CsTimeline whose span, plots, cursor or selection changed
 *
 * Brings the accessible label, descriptions and plot items up to date in
 * an idle (once for any number of changes before it runs).
 */
void
_cs_timeline_a11y_queue_update (CsTimeline *self)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);

  if (a11y->plots != NULL && a11y->update_id == 0)
    a11y->update_id = g_idle_add_full (G_PRIORITY_LOW, update_cb, self, NULL);
}

/**
 * cs_timeline_set_selected_event:
 * @self: a #CsTimeline
 * @event: (nullable): the event selected in the window, of the recording
 *   shown (copied), or %NULL when none is
 *
 * Tells the timeline which event the window has selected, wherever it was
 * selected (a click or Enter on the timeline, a row of the event list, a
 * search, the latency page), so that its accessible description announces
 * it as "Selected: CPU n · time · task · …" (the info bar's words, see
 * cs_hover_text_for_hit()).  Main thread only.
 */
void
cs_timeline_set_selected_event (CsTimeline    *self,
                                const CsEvent *event)
{
  CsTimelineA11y *a11y;
  CsDocument *document;
  CsHit hit = { .kind = CS_HIT_CPU_PLOT, .has_event = TRUE };

  g_return_if_fail (CS_IS_TIMELINE (self));

  a11y = _cs_timeline_get_a11y (self);
  document = cs_timeline_get_document (self);
  g_clear_pointer (&a11y->selected_text, g_free);
  if (document != NULL && event != NULL)
    {
      hit.event = *event;
      hit.cpu = event->cpu;
      hit.ts_ns = event->ts_ns;
      a11y->selected_text = cs_hover_text_for_hit (document, &hit);
    }
  _cs_timeline_a11y_queue_update (self);
}

/* The timeline's own ::event-clicked: a click or Enter selected an event. */
static void
event_clicked_cb (CsTimeline    *self,
                  const CsEvent *event,
                  gpointer       user_data)
{
  if (event != NULL)
    cs_timeline_set_selected_event (self, event);
}

/* ------------------------------------------------------------------------ */
/* Focus ring                                                                */

/**
 * _cs_timeline_a11y_snapshot:
 * @self: a #CsTimeline
 * @snapshot: where it draws, after the plots and markers
 *
 * With visible focus (the keyboard was used): a ring around the focused
 * plot and the keyboard cursor as a line across the plots.
 */
void
_cs_timeline_a11y_snapshot (CsTimeline  *self,
                            GtkSnapshot *snapshot)
{
  CsTimelineRenderer *renderer = cs_timeline_get_renderer (self);
  GdkRGBA accent = { 0.21, 0.52, 0.89, 1.0 };
  GdkRGBA colors[4] = { accent, accent, accent, accent };
  float widths[4] = { FOCUS_RING_PX, FOCUS_RING_PX, FOCUS_RING_PX, FOCUS_RING_PX };
  CsViewport viewport;
  GskRoundedRect ring;
  double x0, width, y, height, cursor_x;

  if (renderer == NULL || !gtk_widget_has_visible_focus (GTK_WIDGET (self)))
    return;

  _cs_timeline_fill_viewport (self, &viewport);
  cs_timeline_renderer_get_time_area (renderer, &viewport, &x0, &width);

  if (_cs_timeline_get_plot_area (self, cs_timeline_get_focused_plot (self), &y, &height))
    {
      gsk_rounded_rect_init_from_rect (&ring,
                                       &GRAPHENE_RECT_INIT (x0 - FOCUS_RING_PX, y - FOCUS_RING_PX,
                                                            width + 2 * FOCUS_RING_PX,
                                                            height + 2 * FOCUS_RING_PX),
                                       0);
      gtk_snapshot_append_border (snapshot, &ring, widths, colors);
    }

  cursor_x = cs_timeline_renderer_ns_to_x (renderer, &viewport, cs_timeline_get_cursor_ns (self));
  accent.alpha = 0.8;
  gtk_snapshot_append_color (snapshot, &accent,
                             &GRAPHENE_RECT_INIT (floor (cursor_x), 0, 1, viewport.height_px));
}

static void
cs_timeline_a11y_state_flags_changed (GtkWidget     *widget,
                                      GtkStateFlags  previous_flags)
{
  GtkStateFlags changed = previous_flags ^ gtk_widget_get_state_flags (widget);

  if (changed & (GTK_STATE_FLAG_FOCUSED | GTK_STATE_FLAG_FOCUS_VISIBLE | GTK_STATE_FLAG_FOCUS_WITHIN))
    gtk_widget_queue_draw (widget);

  if (widget_parent_class->state_flags_changed != NULL)
    widget_parent_class->state_flags_changed (widget, previous_flags);
}

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                */

/**
 * _cs_timeline_a11y_class_init:
 * @widget_class: CsTimeline's class
 *
 * Sets the accessible role and redraws the focus ring as focus changes.
 */
void
_cs_timeline_a11y_class_init (GtkWidgetClass *widget_class)
{
  widget_parent_class = g_type_class_peek_parent (widget_class);
  widget_class->state_flags_changed = cs_timeline_a11y_state_flags_changed;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

/**
 * _cs_timeline_a11y_init:
 * @self: a #CsTimeline being initialised
 */
void
_cs_timeline_a11y_init (CsTimeline *self)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);

  a11y->plots = g_ptr_array_new ();
  a11y->cursor_ns = CS_MARKER_UNSET;
  g_signal_connect (self, "event-clicked", G_CALLBACK (event_clicked_cb), NULL);
  /* The event list moves the markers too when it selects an event. */
  g_signal_connect (self, "notify::marker-a-ns", G_CALLBACK (_cs_timeline_a11y_queue_update), NULL);
  g_signal_connect (self, "notify::marker-b-ns", G_CALLBACK (_cs_timeline_a11y_queue_update), NULL);
  _cs_timeline_a11y_queue_update (self);
}

/**
 * _cs_timeline_a11y_reset:
 * @self: a #CsTimeline showing another recording
 *
 * Forgets the cursor, the focused plot and the selected event.
 */
void
_cs_timeline_a11y_reset (CsTimeline *self)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);

  a11y->cursor_ns = CS_MARKER_UNSET;
  a11y->focused_plot = 0;
  g_clear_pointer (&a11y->selected_text, g_free);
  _cs_timeline_a11y_queue_update (self);
}

/**
 * _cs_timeline_a11y_dispose:
 * @self: a #CsTimeline being disposed
 *
 * Removes the plot items and the pending update; frees the texts.
 */
void
_cs_timeline_a11y_dispose (CsTimeline *self)
{
  CsTimelineA11y *a11y = _cs_timeline_get_a11y (self);

  g_clear_handle_id (&a11y->update_id, g_source_remove);
  if (a11y->plots != NULL)
    {
      for (guint i = 0; i < a11y->plots->len; i++)
        gtk_widget_unparent (g_ptr_array_index (a11y->plots, i));
      g_clear_pointer (&a11y->plots, g_ptr_array_unref);
    }
  g_clear_pointer (&a11y->selected_text, g_free);
  g_clear_pointer (&a11y->label, g_free);
  g_clear_pointer (&a11y->description, g_free);
}
