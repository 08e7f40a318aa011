/* cs-filter-bar.c: the bar that says an event filter is on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shown over the timeline while a filter is set, so that nobody mistakes a
 * filtered view for the recording: what the filter passes, the progress of
 * the event list counting the passing events in the background (a large
 * recording takes a moment), then how many passed, whether the timeline's
 * plots are drawn from summaries the filter does not reach (zoomed out),
 * and Edit / Clear buttons (win.show-filters, win.filter-clear).
 *
 * The layout is the template cs-filter-bar.ui.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-filter-bar.h"
#include "cs-format.h"

struct _CsFilterBar
{
  GtkWidget parent_instance;

  /* template widgets */
  GtkRevealer *revealer;
  GtkLabel *summary_label;
  GtkProgressBar *progress_bar;
  GtkWidget *cancel_button;
  GtkLabel *count_label;
  GtkLabel *note_label;

  /* owned */
  CsAnalysis *analysis;
  GdkFrameClock *frame_clock;
  gulong after_paint_id;
};

G_DEFINE_FINAL_TYPE (CsFilterBar, cs_filter_bar, GTK_TYPE_WIDGET)

static void
append_names (CsDocument *document, GString *text, CsFilterField field, GArray *values)
{
  const guint max_names = 3;

  for (guint i = 0; i < values->len && i < max_names; i++)
    {
      gint64 value = g_array_index (values, gint64, i);

      if (i > 0)
        g_string_append (text, ", ");
      switch (field)
        {
        case CS_FILTER_PID:
          {
            const char *comm = document != NULL ? cs_document_get_comm (document, (gint32) value) : NULL;

            g_string_append_printf (text, "%s-%" G_GINT64_FORMAT, comm != NULL ? comm : "<…>", value);
          }
          break;
        case CS_FILTER_TYPE:
          {
            const CsEventType *type = document != NULL
                                    ? cs_document_get_event_type (document, (guint) value)
                                    : NULL;

            if (type != NULL)
              g_string_append_printf (text, "%s:%s", type->system, type->name);
            else
              g_string_append_printf (text, "#%" G_GINT64_FORMAT, value);
          }
          break;
        case CS_FILTER_CPU:
        default:
          g_string_append_printf (text, "%" G_GINT64_FORMAT, value);
          break;
        }
    }
  if (values->len > max_names)
    /* TRANSLATORS: after the first names of a filter set, "cs-spin-12, bash-7 and 4 more" */
    g_string_append_printf (text, _(" and %u more"), values->len - max_names);
}

/* One line saying what @filter passes ("Only tasks bash-12 · Hiding
 * events sched:sched_wakeup"), NULL for an empty filter; @document (may be
 * NULL) names the tasks and event types. */
static char *
describe_filter (CsEventFilter *filter,
                 CsDocument    *document)
{
  static const struct {
    CsFilterField field;
    const char *only;
    const char *hide;
  } parts[] = {
    /* TRANSLATORS: a part of the filter bar; the list of tasks follows */
    { CS_FILTER_PID, N_("Only tasks "), N_("Hiding tasks ") },
    /* TRANSLATORS: a part of the filter bar; the list of events follows */
    { CS_FILTER_TYPE, N_("Only events "), N_("Hiding events ") },
    /* TRANSLATORS: a part of the filter bar; the list of CPUs follows */
    { CS_FILTER_CPU, N_("Only CPUs "), N_("Hiding CPUs ") },
  };
  g_autoptr(GString) text = NULL;
  const char *expression;

  if (cs_event_filter_is_empty (filter))
    return NULL;

  text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      CsFilterMode mode = cs_event_filter_get_mode (filter, parts[i].field);
      g_autoptr(GArray) values = NULL;

      if (mode == CS_FILTER_ALL)
        continue;
      values = cs_event_filter_dup_values (filter, parts[i].field);
      if (mode == CS_FILTER_HIDE && values->len == 0)
        continue;
      if (text->len > 0)
        g_string_append (text, "  ·  ");
      g_string_append (text, _(mode == CS_FILTER_SHOW_ONLY ? parts[i].only : parts[i].hide));
      if (values->len == 0)
        g_string_append (text, _("(none)"));
      append_names (document, text, parts[i].field, values);
    }

  if (cs_event_filter_get_stream_mode (filter) != CS_FILTER_ALL)
    {
      g_auto(GStrv) paths = cs_event_filter_dup_streams (filter);
      gboolean only = cs_event_filter_get_stream_mode (filter) == CS_FILTER_SHOW_ONLY;

      if (text->len > 0)
        g_string_append (text, "  ·  ");
      /* TRANSLATORS: a part of the filter bar; the list of recordings
       * (file names) follows */
      g_string_append (text, only ? _("Only recordings ") : _("Hiding recordings "));
      for (guint i = 0; paths[i] != NULL; i++)
        {
          g_autofree char *base = g_path_get_basename (paths[i]);

          g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", base);
        }
      if (paths[0] == NULL)
        g_string_append (text, _("(none)"));
    }

  expression = cs_event_filter_get_expression (filter);
  if (expression != NULL && *expression != '\0')
    {
      if (text->len > 0)
        g_string_append (text, "  ·  ");
      /* TRANSLATORS: a part of the filter bar; %s is a libtraceevent filter expression */
      g_string_append_printf (text, _("Matching “%s”"), expression);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static CsTimelineRenderer *
cs_filter_bar_get_renderer (CsFilterBar *self)
{
  CsTimeline *timeline = self->analysis != NULL ? cs_analysis_get_timeline (self->analysis) : NULL;

  return timeline != NULL ? cs_timeline_get_renderer (timeline) : NULL;
}

static void
cs_filter_bar_update_note (CsFilterBar *self)
{
  CsTimelineRenderer *renderer = cs_filter_bar_get_renderer (self);
  gboolean on_timeline = self->analysis != NULL &&
                         (cs_analysis_get_filter_targets (self->analysis) & CS_FILTER_TARGET_TIMELINE);
  gboolean exact = renderer == NULL || !on_timeline || cs_timeline_renderer_get_filter_exact (renderer);

  gtk_widget_set_visible (GTK_WIDGET (self->note_label), !exact);
}

static void
after_paint_cb (GdkFrameClock *clock, CsFilterBar *self)
{
  cs_filter_bar_update_note (self);
}

static void
cs_filter_bar_update (CsFilterBar *self)
{
  g_autofree char *summary = NULL;
  CsFilterTarget targets;
  gboolean ready;

  summary = self->analysis != NULL ? describe_filter (cs_analysis_get_filter (self->analysis),
                                                     cs_analysis_get_document (self->analysis))
                                  : NULL;
  gtk_revealer_set_reveal_child (self->revealer, summary != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self), summary != NULL);
  if (summary == NULL)
    return;

  gtk_label_set_label (self->summary_label, summary);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), summary);

  targets = cs_analysis_get_filter_targets (self->analysis);
  ready = cs_analysis_get_filter_ready (self->analysis);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), !ready);
  gtk_widget_set_visible (self->cancel_button, !ready);
  gtk_progress_bar_set_fraction (self->progress_bar, cs_analysis_get_filter_progress (self->analysis));

  if (!(targets & CS_FILTER_TARGET_LIST))
    gtk_label_set_label (self->count_label, _("Not applied to the list"));
  else if (!ready)
    gtk_label_set_label (self->count_label, _("Filtering the list…"));
  else
    {
      CsDocument *document = cs_analysis_get_document (self->analysis);
      guint64 n_passing = cs_analysis_get_n_list_events (self->analysis);
      guint64 n_total = document != NULL ? cs_document_get_n_events (document) : 0;
      g_autofree char *passing = cs_format_count (n_passing);
      g_autofree char *total = cs_format_count (n_total);
      g_autofree char *text = NULL;

      /* TRANSLATORS: events passing the filter, "1,234 of 2,512 events" */
      text = g_strdup_printf (ngettext ("%s of %s event", "%s of %s events", (gulong) n_total),
                              passing, total);
      gtk_label_set_label (self->count_label, text);
    }
  cs_filter_bar_update_note (self);
}

static void
cs_filter_bar_realize (GtkWidget *widget)
{
  CsFilterBar *self = CS_FILTER_BAR (widget);

  GTK_WIDGET_CLASS (cs_filter_bar_parent_class)->realize (widget);

  self->frame_clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  self->after_paint_id = g_signal_connect (self->frame_clock, "after-paint",
                                           G_CALLBACK (after_paint_cb), self);
}

static void
cs_filter_bar_unrealize (GtkWidget *widget)
{
  CsFilterBar *self = CS_FILTER_BAR (widget);

  g_clear_signal_handler (&self->after_paint_id, self->frame_clock);
  g_clear_object (&self->frame_clock);

  GTK_WIDGET_CLASS (cs_filter_bar_parent_class)->unrealize (widget);
}

static void
cs_filter_bar_dispose (GObject *object)
{
  CsFilterBar *self = CS_FILTER_BAR (object);

  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_clear_object (&self->analysis);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_FILTER_BAR);

  G_OBJECT_CLASS (cs_filter_bar_parent_class)->dispose (object);
}

static void
cs_filter_bar_class_init (CsFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_filter_bar_dispose;
  widget_class->realize = cs_filter_bar_realize;
  widget_class->unrealize = cs_filter_bar_unrealize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "filterbar");

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-filter-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, summary_label);
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, count_label);
  gtk_widget_class_bind_template_child (widget_class, CsFilterBar, note_label);
}

/**
 * cs_filter_bar_get_cancel_button:
 * @self: a #CsFilterBar
 *
 * Returns: (transfer none): the Cancel button, visible beside the progress
 *   bar while the event list counts what the filter passes (for tests)
 */
GtkWidget *
cs_filter_bar_get_cancel_button (CsFilterBar *self)
{
  g_return_val_if_fail (CS_IS_FILTER_BAR (self), NULL);
  return self->cancel_button;
}

/**
 * cs_filter_bar_get_progress_bar:
 * @self: a #CsFilterBar
 *
 * Returns: (transfer none): the progress bar of the count (for tests)
 */
GtkWidget *
cs_filter_bar_get_progress_bar (CsFilterBar *self)
{
  g_return_val_if_fail (CS_IS_FILTER_BAR (self), NULL);
  return GTK_WIDGET (self->progress_bar);
}

static void
cs_filter_bar_init (CsFilterBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * cs_filter_bar_new:
 *
 * Returns: (transfer floating): a hidden filter bar
 */
GtkWidget *
cs_filter_bar_new (void)
{
  return g_object_new (CS_TYPE_FILTER_BAR, NULL);
}

/**
 * cs_filter_bar_set_analysis:
 * @self: a #CsFilterBar
 * @analysis: (transfer none): the window's #CsAnalysis, whose filter the bar
 *   describes
 */
void
cs_filter_bar_set_analysis (CsFilterBar *self,
                            CsAnalysis  *analysis)
{
  static const char * const signals[] = {
    "notify::filter", "notify::filter-targets", "notify::filter-ready",
    "notify::filter-progress", "document-changed",
  };

  g_return_if_fail (CS_IS_FILTER_BAR (self));
  g_return_if_fail (CS_IS_ANALYSIS (analysis));

  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_set_object (&self->analysis, analysis);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_signal_connect_object (analysis, signals[i], G_CALLBACK (cs_filter_bar_update), self,
                             G_CONNECT_SWAPPED);
  cs_filter_bar_update (self);
}

/**
 * cs_filter_bar_get_text:
 * @self: a #CsFilterBar
 *
 * Returns: (transfer none): the filter's description as shown ("" when
 *   hidden)
 */
const char *
cs_filter_bar_get_text (CsFilterBar *self)
{
  g_return_val_if_fail (CS_IS_FILTER_BAR (self), "");

  return gtk_widget_get_visible (GTK_WIDGET (self)) ? gtk_label_get_label (self->summary_label) : "";
}
