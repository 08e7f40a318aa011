/* cs-analysis.c: what one window chose to look at in its recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The window's view-model beyond the visible span and the markers (which
 * the timeline owns): which CPU plots show, which task plots, and the event
 * filter with where it applies.  It pushes every change to the widgets
 * that show it - the timeline's renderer (plots, filtered ticks) and the
 * event list's model (cs_event_list_set_filter(), which counts in the
 * background) - so that the window's actions, the task list, the CPU
 * chooser, the filter dialog and sessions all change the same state the
 * same way.  It holds no SQL: counts and names come from CsDocument.
 *
 * A new recording resets it: CPU plots of the CPUs that recorded events
 * (or those given with --cpu), task plots of --pid / --task, no filter
 * (event type ids belong to one recording).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-analysis.h"
#include "cs-plot-args.h"

struct _CsAnalysis
{
  GObject parent_instance;

  /* borrowed: widgets of the window that owns this */
  CsTimeline *timeline;
  CsEventListView *list_view;

  /* owned */
  CsDocument *document;
  CsEventList *list;            /* the list's model the filter was given to */
  GArray *cpus;                 /* guint */
  GArray *pids;                 /* gint32 */
  CsEventFilter *filter;        /* never NULL; empty passes everything */
  CsFilterTarget targets;
  gboolean hide_filtered;

  /* --cpu, --pid, --task: for the next recording only */
  GArray *startup_cpus;
  GArray *startup_pids;
  GStrv startup_comms;
};

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_FILTER,
  PROP_FILTER_TARGETS,
  PROP_HIDE_FILTERED,
  PROP_FILTER_READY,
  PROP_FILTER_PROGRESS,
  N_PROPS
};

enum {
  PLOTS_CHANGED,
  DOCUMENT_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CsAnalysis, cs_analysis, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Pushing state to the widgets                                              */

static void
cs_analysis_push_plots (CsAnalysis *self)
{
  CsTimelineRenderer *renderer = self->timeline != NULL ? cs_timeline_get_renderer (self->timeline) : NULL;

  if (renderer != NULL)
    {
      cs_timeline_renderer_set_cpus (renderer, (const guint *) self->cpus->data, self->cpus->len);
      cs_timeline_renderer_set_task_plots (renderer, (const gint32 *) self->pids->data,
                                           self->pids->len);
      /* The timeline is as tall as its plots. */
      gtk_widget_queue_resize (GTK_WIDGET (self->timeline));
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
    }
  g_signal_emit (self, signals[PLOTS_CHANGED], 0);
}

static void
list_progress_cb (CsAnalysis *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_PROGRESS]);
}

static void
list_ready_cb (CsAnalysis *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_READY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_PROGRESS]);
}

static void
cs_analysis_push_filter (CsAnalysis *self)
{
  CsTimelineRenderer *renderer = self->timeline != NULL ? cs_timeline_get_renderer (self->timeline) : NULL;
  CsEventList *list = self->list_view != NULL ? cs_event_list_view_get_model (self->list_view) : NULL;
  gboolean empty = cs_event_filter_is_empty (self->filter);

  if (renderer != NULL)
    {
      cs_timeline_renderer_set_event_filter (renderer,
                                             (self->targets & CS_FILTER_TARGET_TIMELINE) && !empty
                                               ? self->filter : NULL,
                                             self->hide_filtered);
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
    }

  if (list != self->list)
    {
      if (self->list != NULL)
        g_signal_handlers_disconnect_by_data (self->list, self);
      g_set_object (&self->list, list);
      if (list != NULL)
        {
          g_signal_connect_object (list, "notify::progress", G_CALLBACK (list_progress_cb), self,
                                   G_CONNECT_SWAPPED);
          g_signal_connect_object (list, "notify::ready", G_CALLBACK (list_ready_cb), self,
                                   G_CONNECT_SWAPPED);
        }
    }

  if (list != NULL)
    {
      CsEventFilter *wanted = (self->targets & CS_FILTER_TARGET_LIST) && !empty ? self->filter : NULL;
      CsEventFilter *current = cs_event_list_get_filter (list);

      /* Setting the same filter again would count all events again. */
      if (!((wanted == NULL && cs_event_filter_is_empty (current)) ||
            (wanted != NULL && current != NULL && cs_event_filter_equal (wanted, current))))
        cs_event_list_set_filter (list, wanted);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_READY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_PROGRESS]);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_analysis_dispose (GObject *object)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  if (self->list != NULL)
    g_signal_handlers_disconnect_by_data (self->list, self);
  g_clear_object (&self->list);
  g_clear_object (&self->document);
  g_clear_weak_pointer (&self->timeline);
  g_clear_weak_pointer (&self->list_view);

  G_OBJECT_CLASS (cs_analysis_parent_class)->dispose (object);
}

static void
cs_analysis_finalize (GObject *object)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  g_array_unref (self->cpus);
  g_array_unref (self->pids);
  g_object_unref (self->filter);
  g_clear_pointer (&self->startup_cpus, g_array_unref);
  g_clear_pointer (&self->startup_pids, g_array_unref);
  g_clear_pointer (&self->startup_comms, g_strfreev);

  G_OBJECT_CLASS (cs_analysis_parent_class)->finalize (object);
}

/**
 * cs_analysis_get_filter_ready:
 * @self: a #CsAnalysis
 *
 * Returns: whether the event list has its rows: %FALSE while it counts the
 *   events passing a new filter
 */
gboolean
cs_analysis_get_filter_ready (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), TRUE);

  return self->list == NULL || cs_event_list_get_ready (self->list);
}

/**
 * cs_analysis_get_filter_progress:
 * @self: a #CsAnalysis
 *
 * Returns: how far the event list is in counting, 0.0 .. 1.0 (1.0 when
 *   ready)
 */
double
cs_analysis_get_filter_progress (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), 1.0);

  if (self->list == NULL || cs_event_list_get_ready (self->list))
    return 1.0;
  return cs_event_list_get_progress (self->list);
}

/**
 * cs_analysis_get_n_list_events:
 * @self: a #CsAnalysis
 *
 * Returns: the rows of the event list (the events passing its filter) when
 *   it is ready, 0 otherwise
 */
guint64
cs_analysis_get_n_list_events (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), 0);

  if (self->list == NULL || !cs_event_list_get_ready (self->list))
    return 0;
  return cs_event_list_get_n_events (self->list);
}

static void
cs_analysis_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_FILTER:
      g_value_set_object (value, self->filter);
      break;
    case PROP_FILTER_TARGETS:
      g_value_set_uint (value, self->targets);
      break;
    case PROP_HIDE_FILTERED:
      g_value_set_boolean (value, self->hide_filtered);
      break;
    case PROP_FILTER_READY:
      g_value_set_boolean (value, cs_analysis_get_filter_ready (self));
      break;
    case PROP_FILTER_PROGRESS:
      g_value_set_double (value, cs_analysis_get_filter_progress (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_analysis_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  CsAnalysis *self = CS_ANALYSIS (object);

  switch (prop_id)
    {
    case PROP_FILTER:
      cs_analysis_set_filter (self, g_value_get_object (value));
      break;
    case PROP_FILTER_TARGETS:
      cs_analysis_set_filter_targets (self, g_value_get_uint (value));
      break;
    case PROP_HIDE_FILTERED:
      cs_analysis_set_hide_filtered (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_analysis_class_init (CsAnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cs_analysis_dispose;
  object_class->finalize = cs_analysis_finalize;
  object_class->get_property = cs_analysis_get_property;
  object_class->set_property = cs_analysis_set_property;

  /**
   * CsAnalysis:document:
   *
   * The recording shown, as cs_analysis_document_changed() found it.
   */
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, CS_TYPE_DOCUMENT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsAnalysis:filter:
   *
   * The event filter (never %NULL; an empty one passes every event).
   * Changes are made with cs_analysis_set_filter(), which copies.
   */
  properties[PROP_FILTER] =
    g_param_spec_object ("filter", NULL, NULL, CS_TYPE_EVENT_FILTER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsAnalysis:filter-targets:
   *
   * Where the filter applies, #CsFilterTarget flags.
   */
  properties[PROP_FILTER_TARGETS] =
    g_param_spec_uint ("filter-targets", NULL, NULL, 0, CS_FILTER_TARGET_BOTH, CS_FILTER_TARGET_BOTH,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsAnalysis:hide-filtered:
   *
   * Whether the timeline leaves out the ticks of filtered events (%TRUE)
   * or draws them faint (%FALSE).
   */
  properties[PROP_HIDE_FILTERED] =
    g_param_spec_boolean ("hide-filtered", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsAnalysis:filter-ready:
   *
   * Whether the event list has finished counting the events that pass.
   */
  properties[PROP_FILTER_READY] =
    g_param_spec_boolean ("filter-ready", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsAnalysis:filter-progress:
   *
   * How far the event list is in counting, 0.0 .. 1.0 (1.0 when ready).
   */
  properties[PROP_FILTER_PROGRESS] =
    g_param_spec_double ("filter-progress", NULL, NULL, 0.0, 1.0, 1.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CsAnalysis::plots-changed:
   *
   * The CPU plots or the task plots changed.
   */
  signals[PLOTS_CHANGED] =
    g_signal_new ("plots-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * CsAnalysis::document-changed:
   *
   * A new recording is shown and the plots and filter were reset for it;
   * handlers may restore a session's state.
   */
  signals[DOCUMENT_CHANGED] =
    g_signal_new ("document-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
cs_analysis_init (CsAnalysis *self)
{
  self->cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  self->filter = cs_event_filter_new ();
  self->targets = CS_FILTER_TARGET_BOTH;
}

/**
 * cs_analysis_new:
 * @timeline: (transfer none): the window's timeline
 * @list_view: (transfer none): the window's event list
 *
 * Returns: (transfer full): the state of a window showing nothing yet; it
 *   holds weak pointers to the widgets
 */
CsAnalysis *
cs_analysis_new (CsTimeline      *timeline,
                 CsEventListView *list_view)
{
  CsAnalysis *self;

  g_return_val_if_fail (CS_IS_TIMELINE (timeline), NULL);
  g_return_val_if_fail (list_view == NULL || CS_IS_EVENT_LIST_VIEW (list_view), NULL);

  self = g_object_new (CS_TYPE_ANALYSIS, NULL);
  g_set_weak_pointer (&self->timeline, timeline);
  g_set_weak_pointer (&self->list_view, list_view);
  return self;
}

/**
 * cs_analysis_get_document:
 * @self: a #CsAnalysis
 *
 * Returns: (transfer none) (nullable): the recording shown
 */
CsDocument *
cs_analysis_get_document (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), NULL);

  return self->document;
}

/**
 * cs_analysis_get_timeline:
 * @self: a #CsAnalysis
 *
 * Returns: (transfer none) (nullable): the timeline whose plots this sets
 */
CsTimeline *
cs_analysis_get_timeline (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), NULL);

  return self->timeline;
}

/**
 * cs_analysis_document_changed:
 * @self: a #CsAnalysis
 *
 * To be called after the timeline and the event list were given a new
 * recording (or none): resets the plots and the filter for it, applying
 * the startup plots once, and emits #CsAnalysis::document-changed.
 */
void
cs_analysis_document_changed (CsAnalysis *self)
{
  CsDocument *document;
  g_autoptr(GArray) cpus = NULL;

  g_return_if_fail (CS_IS_ANALYSIS (self));

  document = self->timeline != NULL ? cs_timeline_get_document (self->timeline) : NULL;
  g_set_object (&self->document, document);

  g_array_set_size (self->cpus, 0);
  g_array_set_size (self->pids, 0);
  cs_event_filter_clear (self->filter);

  if (document != NULL)
    {
      cpus = cs_plot_args_select_cpus (document, self->startup_cpus);
      g_array_append_vals (self->cpus, cpus->data, cpus->len);
      if (self->startup_pids != NULL)
        g_array_append_vals (self->pids, self->startup_pids->data, self->startup_pids->len);
      cs_plot_args_add_tasks_by_comm (document, (const char * const *) self->startup_comms,
                                      self->pids);
      g_clear_pointer (&self->startup_cpus, g_array_unref);
      g_clear_pointer (&self->startup_pids, g_array_unref);
      g_clear_pointer (&self->startup_comms, g_strfreev);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
  cs_analysis_push_plots (self);
  cs_analysis_push_filter (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER]);
  g_signal_emit (self, signals[DOCUMENT_CHANGED], 0);
}

/**
 * cs_analysis_set_startup_plots:
 * @self: a #CsAnalysis
 * @cpus: (nullable) (element-type guint): CPU plots for the next recording
 *   (--cpu), or %NULL for those with events
 * @pids: (nullable) (element-type gint32): task plots for it (--pid)
 * @comms: (nullable) (array zero-terminated=1): and for the tasks with these
 *   command names (--task)
 *
 * What the next recording opened in the window starts with, as KernelShark's
 * command line sets it.  Used once.
 */
void
cs_analysis_set_startup_plots (CsAnalysis         *self,
                               GArray             *cpus,
                               GArray             *pids,
                               const char * const *comms)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  g_clear_pointer (&self->startup_cpus, g_array_unref);
  g_clear_pointer (&self->startup_pids, g_array_unref);
  g_clear_pointer (&self->startup_comms, g_strfreev);
  if (cpus != NULL)
    self->startup_cpus = g_array_ref (cpus);
  if (pids != NULL)
    self->startup_pids = g_array_ref (pids);
  if (comms != NULL)
    self->startup_comms = g_strdupv ((char **) comms);
}

/* ------------------------------------------------------------------------ */
/* CPU plots                                                                 */

/**
 * cs_analysis_get_cpu_plots:
 * @self: a #CsAnalysis
 * @n_cpus: (out): how many
 *
 * Returns: (array length=n_cpus) (transfer none): the CPUs whose plots show,
 *   in order, valid until the plots change
 */
const guint *
cs_analysis_get_cpu_plots (CsAnalysis *self,
                           guint      *n_cpus)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), NULL);

  *n_cpus = self->cpus->len;
  return (const guint *) self->cpus->data;
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint ua = *(const guint *) a, ub = *(const guint *) b;

  return (ua > ub) - (ua < ub);
}

/**
 * cs_analysis_set_cpu_plots:
 * @self: a #CsAnalysis
 * @cpus: (array length=n_cpus) (nullable): CPUs; those the recording lacks
 *   and repeats are left out
 * @n_cpus: how many
 *
 * Chooses the CPU plots; they are drawn in CPU order.
 */
void
cs_analysis_set_cpu_plots (CsAnalysis  *self,
                           const guint *cpus,
                           guint        n_cpus)
{
  guint n_document_cpus;

  g_return_if_fail (CS_IS_ANALYSIS (self));

  n_document_cpus = self->document != NULL ? cs_document_get_n_cpus (self->document) : 0;
  g_array_set_size (self->cpus, 0);
  for (guint i = 0; i < n_cpus; i++)
    if (cpus[i] < n_document_cpus)
      g_array_append_val (self->cpus, cpus[i]);
  g_array_sort (self->cpus, compare_uint);
  for (guint i = 1; i < self->cpus->len; )
    {
      if (g_array_index (self->cpus, guint, i) == g_array_index (self->cpus, guint, i - 1))
        g_array_remove_index (self->cpus, i);
      else
        i++;
    }
  cs_analysis_push_plots (self);
}

/**
 * cs_analysis_has_cpu_plot:
 * @self: a #CsAnalysis
 * @cpu: a CPU number
 *
 * Returns: whether @cpu's plot shows
 */
gboolean
cs_analysis_has_cpu_plot (CsAnalysis *self,
                          guint       cpu)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), FALSE);

  for (guint i = 0; i < self->cpus->len; i++)
    if (g_array_index (self->cpus, guint, i) == cpu)
      return TRUE;
  return FALSE;
}

/**
 * cs_analysis_add_cpu_plot:
 * @self: a #CsAnalysis
 * @cpu: a CPU of the recording
 */
void
cs_analysis_add_cpu_plot (CsAnalysis *self,
                          guint       cpu)
{
  g_autoptr(GArray) cpus = NULL;

  g_return_if_fail (CS_IS_ANALYSIS (self));

  if (cs_analysis_has_cpu_plot (self, cpu))
    return;
  cpus = g_array_copy (self->cpus);
  g_array_append_val (cpus, cpu);
  cs_analysis_set_cpu_plots (self, (const guint *) cpus->data, cpus->len);
}

/**
 * cs_analysis_remove_cpu_plot:
 * @self: a #CsAnalysis
 * @cpu: a CPU number
 */
void
cs_analysis_remove_cpu_plot (CsAnalysis *self,
                             guint       cpu)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  for (guint i = 0; i < self->cpus->len; i++)
    if (g_array_index (self->cpus, guint, i) == cpu)
      {
        g_array_remove_index (self->cpus, i);
        cs_analysis_push_plots (self);
        return;
      }
}

/* ------------------------------------------------------------------------ */
/* Task plots                                                                */

/**
 * cs_analysis_get_task_plots:
 * @self: a #CsAnalysis
 * @n_pids: (out): how many
 *
 * Returns: (array length=n_pids) (transfer none): the tasks whose plots
 *   show, top to bottom, valid until the plots change
 */
const gint32 *
cs_analysis_get_task_plots (CsAnalysis *self,
                            guint      *n_pids)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), NULL);

  *n_pids = self->pids->len;
  return (const gint32 *) self->pids->data;
}

/**
 * cs_analysis_set_task_plots:
 * @self: a #CsAnalysis
 * @pids: (array length=n_pids) (nullable): tasks, top to bottom; repeats
 *   are left out
 * @n_pids: how many
 */
void
cs_analysis_set_task_plots (CsAnalysis   *self,
                            const gint32 *pids,
                            guint         n_pids)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  g_array_set_size (self->pids, 0);
  for (guint i = 0; i < n_pids; i++)
    if (!cs_analysis_has_task_plot (self, pids[i]))
      g_array_append_val (self->pids, pids[i]);
  cs_analysis_push_plots (self);
}

/**
 * cs_analysis_has_task_plot:
 * @self: a #CsAnalysis
 * @pid: a task
 *
 * Returns: whether @pid has a task plot
 */
gboolean
cs_analysis_has_task_plot (CsAnalysis *self,
                           gint32      pid)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), FALSE);

  for (guint i = 0; i < self->pids->len; i++)
    if (g_array_index (self->pids, gint32, i) == pid)
      return TRUE;
  return FALSE;
}

/**
 * cs_analysis_add_task_plot:
 * @self: a #CsAnalysis
 * @pid: a task (thread id); the idle task (0) has no plot
 *
 * Adds a plot for @pid below the others.  Immediate: the plot reads only
 * that task's rows of the index when it is drawn.
 */
void
cs_analysis_add_task_plot (CsAnalysis *self,
                           gint32      pid)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  if (pid <= 0 || cs_analysis_has_task_plot (self, pid))
    return;
  g_array_append_val (self->pids, pid);
  cs_analysis_push_plots (self);
}

/**
 * cs_analysis_remove_task_plot:
 * @self: a #CsAnalysis
 * @pid: a task
 */
void
cs_analysis_remove_task_plot (CsAnalysis *self,
                              gint32      pid)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  for (guint i = 0; i < self->pids->len; i++)
    if (g_array_index (self->pids, gint32, i) == pid)
      {
        g_array_remove_index (self->pids, i);
        cs_analysis_push_plots (self);
        return;
      }
}

/* ------------------------------------------------------------------------ */
/* Filter                                                                    */

/**
 * cs_analysis_get_filter:
 * @self: a #CsAnalysis
 *
 * Returns: (transfer none): the event filter; do not change it, copy it
 *   and give the copy to cs_analysis_set_filter()
 */
CsEventFilter *
cs_analysis_get_filter (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), NULL);

  return self->filter;
}

/**
 * cs_analysis_set_filter:
 * @self: a #CsAnalysis
 * @filter: (nullable): the new filter (copied), %NULL to clear
 *
 * Applies @filter where #CsAnalysis:filter-targets say: the event list
 * counts the passing events in the background (#CsAnalysis:filter-progress),
 * the timeline redraws its ticks at once.
 */
void
cs_analysis_set_filter (CsAnalysis    *self,
                        CsEventFilter *filter)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));
  g_return_if_fail (filter == NULL || CS_IS_EVENT_FILTER (filter));

  if (filter == NULL ? cs_event_filter_is_empty (self->filter)
                     : cs_event_filter_equal (filter, self->filter))
    return;

  g_object_unref (self->filter);
  self->filter = filter != NULL ? cs_event_filter_copy (filter) : cs_event_filter_new ();
  cs_analysis_push_filter (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER]);
}

/**
 * cs_analysis_get_filter_targets:
 * @self: a #CsAnalysis
 *
 * Returns: where the filter applies
 */
CsFilterTarget
cs_analysis_get_filter_targets (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), 0);

  return self->targets;
}

/**
 * cs_analysis_set_filter_targets:
 * @self: a #CsAnalysis
 * @targets: where the filter applies: the list, the timeline, both or
 *   neither (the filter is kept but shows nowhere)
 */
void
cs_analysis_set_filter_targets (CsAnalysis     *self,
                                CsFilterTarget  targets)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  targets &= CS_FILTER_TARGET_BOTH;
  if (self->targets == targets)
    return;
  self->targets = targets;
  cs_analysis_push_filter (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_TARGETS]);
}

/**
 * cs_analysis_get_hide_filtered:
 * @self: a #CsAnalysis
 *
 * Returns: whether the timeline hides filtered events rather than dim them
 */
gboolean
cs_analysis_get_hide_filtered (CsAnalysis *self)
{
  g_return_val_if_fail (CS_IS_ANALYSIS (self), FALSE);

  return self->hide_filtered;
}

/**
 * cs_analysis_set_hide_filtered:
 * @self: a #CsAnalysis
 * @hide: %TRUE to leave filtered events' ticks out of the timeline, %FALSE
 *   to draw them faint
 */
void
cs_analysis_set_hide_filtered (CsAnalysis *self,
                               gboolean    hide)
{
  g_return_if_fail (CS_IS_ANALYSIS (self));

  hide = !!hide;
  if (self->hide_filtered == hide)
    return;
  self->hide_filtered = hide;
  cs_analysis_push_filter (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_FILTERED]);
}

/**
 * cs_analysis_filter_show_only:
 * @self: a #CsAnalysis
 * @field: which set: CPUs, tasks or event types
 * @value: a CPU, pid or event type id
 *
 * KernelShark's "Show only": adds @value to @field's show-only set (which
 * replaces a hide set).
 */
void
cs_analysis_filter_show_only (CsAnalysis    *self,
                              CsFilterField  field,
                              gint64         value)
{
  g_autoptr(CsEventFilter) filter = NULL;

  g_return_if_fail (CS_IS_ANALYSIS (self));

  filter = cs_event_filter_copy (self->filter);
  if (cs_event_filter_get_mode (filter, field) != CS_FILTER_SHOW_ONLY)
    {
      g_autoptr(GArray) values = cs_event_filter_dup_values (filter, field);

      for (guint i = 0; i < values->len; i++)
        cs_event_filter_remove (filter, field, g_array_index (values, gint64, i));
      cs_event_filter_set_mode (filter, field, CS_FILTER_SHOW_ONLY);
    }
  cs_event_filter_add (filter, field, value);
  cs_analysis_set_filter (self, filter);
}

/**
 * cs_analysis_filter_hide:
 * @self: a #CsAnalysis
 * @field: which set: CPUs, tasks or event types
 * @value: a CPU, pid or event type id
 *
 * KernelShark's "Hide": @value's events stop passing.  With a show-only set,
 * @value leaves it (an emptied set shows everything again).
 */
void
cs_analysis_filter_hide (CsAnalysis    *self,
                         CsFilterField  field,
                         gint64         value)
{
  g_autoptr(CsEventFilter) filter = NULL;

  g_return_if_fail (CS_IS_ANALYSIS (self));

  filter = cs_event_filter_copy (self->filter);
  switch (cs_event_filter_get_mode (filter, field))
    {
    case CS_FILTER_SHOW_ONLY:
      cs_event_filter_remove (filter, field, value);
      {
        g_autoptr(GArray) values = cs_event_filter_dup_values (filter, field);

        if (values->len == 0)
          {
            /* Nothing left to show only: hide this one. */
            cs_event_filter_set_mode (filter, field, CS_FILTER_HIDE);
            cs_event_filter_add (filter, field, value);
          }
      }
      break;
    case CS_FILTER_ALL:
      {
        g_autoptr(GArray) values = cs_event_filter_dup_values (filter, field);

        for (guint i = 0; i < values->len; i++)
          cs_event_filter_remove (filter, field, g_array_index (values, gint64, i));
      }
      cs_event_filter_set_mode (filter, field, CS_FILTER_HIDE);
      cs_event_filter_add (filter, field, value);
      break;
    case CS_FILTER_HIDE:
    default:
      cs_event_filter_add (filter, field, value);
      break;
    }
  cs_analysis_set_filter (self, filter);
}
