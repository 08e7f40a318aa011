/* cs-view-model.c: what a window shows of its recording, as properties.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The view's state, in one GObject that knows no widget (GIO only, so it
 * can move down to index/ one day), in the manner of Sysprof's
 * SysprofSession: the recording (file, document), the visible span, the
 * markers, the plots, the event filter, the Query page's text and history,
 * the plugin rows below the task plots, and the window's geometry.  The
 * window binds its widgets to it both ways (cs-window-model.c); a session
 * (cs-session.c) is captured from it and restored into it, so a session
 * can be read and checked with no window at all.
 *
 * Every property notifies only on a real change (G_PARAM_EXPLICIT_NOTIFY),
 * which is what keeps the two-way bindings from looping.  Values are kept
 * in one GValue per property and compared generically.
 *
 * Properties (all read-write):
 * - "file" (GFile, nullable): the recording shown;
 * - "document" (CsDocument, nullable): its document, once shown;
 * - "begin-ns", "end-ns" (gint64): the visible span [begin, end) in the
 *   trace clock's ns; end <= begin means none yet;
 * - "marker-a-ns", "marker-b-ns" (gint64): the markers' times in ns, or
 *   %CS_VIEW_MODEL_MARKER_UNSET; "active-marker" (guint): 0 for A, 1 for B
 *   (the values of CsMarker);
 * - "cpu-plots" (GVariant "au", nullable: the default plots), "task-plots"
 *   (GVariant "ai", nullable: none): the plots, top to bottom;
 * - "filter-text" (string, nullable: no filter), as
 *   cs_event_filter_to_string(); "filter-targets" (guint, the bits of
 *   CsFilterTarget: 1 list, 2 timeline); "hide-filtered" (boolean);
 * - "query-text" (string, nullable), "query-history" (strv, newest first);
 * - "plugin-rows" (strv of "PLUGIN:LAYER:KEY");
 * - "streams" (GVariant "a(sxbb)", nullable: none): the recordings shown
 *   on the same axis after the window's own, top to bottom: path, manual
 *   offset in ns, collapsed, hidden (CsStream);
 * - "width", "height" (int, logical px, -1 or 0 unknown: the
 *   window's default size), "maximized"
 *   (boolean), "paned-position" (int, px from the top of the split, -1
 *   unknown);
 * - "selected-event" (GVariant CS_EVENT_VARIANT_TYPE, nullable: none): the
 *   event selected in the event list, as cs_event_to_variant() (not saved
 *   in sessions).
 *
 * Main thread only, as the widgets it mirrors.
 */
#include "config.h"

#include "cs-event-list.h"
#include "cs-view-model.h"

struct _CsViewModel
{
  GObject parent_instance;

  /* owned */
  GValue *values;               /* N_PROPS, index 0 unused */
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_DOCUMENT,
  PROP_BEGIN_NS,
  PROP_END_NS,
  PROP_MARKER_A_NS,
  PROP_MARKER_B_NS,
  PROP_ACTIVE_MARKER,
  PROP_CPU_PLOTS,
  PROP_TASK_PLOTS,
  PROP_FILTER_TEXT,
  PROP_FILTER_TARGETS,
  PROP_HIDE_FILTERED,
  PROP_QUERY_TEXT,
  PROP_QUERY_HISTORY,
  PROP_PLUGIN_ROWS,
  PROP_STREAMS,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_MAXIMIZED,
  PROP_PANED_POSITION,
  PROP_SELECTED_EVENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsViewModel, cs_view_model, G_TYPE_OBJECT)

/* Whether two values of one property's type are the same. */
static gboolean
values_equal (GParamSpec   *pspec,
              const GValue *a,
              const GValue *b)
{
  GType type = G_VALUE_TYPE (a);

  if (type == G_TYPE_STRING)
    return g_strcmp0 (g_value_get_string (a), g_value_get_string (b)) == 0;
  if (type == G_TYPE_STRV)
    {
      const char * const *x = g_value_get_boxed (a);
      const char * const *y = g_value_get_boxed (b);

      if (x == NULL || y == NULL)
        return x == y;
      return g_strv_equal (x, y);
    }
  if (type == G_TYPE_VARIANT)
    {
      GVariant *x = g_value_get_variant (a);
      GVariant *y = g_value_get_variant (b);

      if (x == NULL || y == NULL)
        return x == y;
      return g_variant_equal (x, y);
    }
  return g_param_values_cmp (pspec, a, b) == 0;
}

static void
cs_view_model_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CsViewModel *self = CS_VIEW_MODEL (object);

  g_value_copy (&self->values[prop_id], value);
}

static void
cs_view_model_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  CsViewModel *self = CS_VIEW_MODEL (object);
  GValue *stored = &self->values[prop_id];

  if (G_VALUE_TYPE (stored) == G_TYPE_VARIANT && g_value_get_variant (value) != NULL &&
      !g_variant_is_of_type (g_value_get_variant (value),
                             G_PARAM_SPEC_VARIANT (pspec)->type))
    {
      g_critical ("%s: %s takes %s", G_STRFUNC, pspec->name,
                  (const char *) G_PARAM_SPEC_VARIANT (pspec)->type);
      return;
    }
  if (values_equal (pspec, stored, value))
    return;
  g_value_copy (value, stored);
  g_object_notify_by_pspec (object, pspec);
}

static void
cs_view_model_dispose (GObject *object)
{
  CsViewModel *self = CS_VIEW_MODEL (object);

  /* The recording's objects go first: they may hold much. */
  g_value_reset (&self->values[PROP_FILE]);
  g_value_reset (&self->values[PROP_DOCUMENT]);
  G_OBJECT_CLASS (cs_view_model_parent_class)->dispose (object);
}

static void
cs_view_model_finalize (GObject *object)
{
  CsViewModel *self = CS_VIEW_MODEL (object);

  for (guint i = 1; i < N_PROPS; i++)
    g_value_unset (&self->values[i]);
  g_free (self->values);
  G_OBJECT_CLASS (cs_view_model_parent_class)->finalize (object);
}

static void
cs_view_model_class_init (CsViewModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = cs_view_model_get_property;
  object_class->set_property = cs_view_model_set_property;
  object_class->dispose = cs_view_model_dispose;
  object_class->finalize = cs_view_model_finalize;

  properties[PROP_FILE] = g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, CS_TYPE_DOCUMENT, flags);
  properties[PROP_BEGIN_NS] = g_param_spec_int64 ("begin-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_END_NS] = g_param_spec_int64 ("end-ns", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  properties[PROP_MARKER_A_NS] =
    g_param_spec_int64 ("marker-a-ns", NULL, NULL, -1, G_MAXINT64, CS_VIEW_MODEL_MARKER_UNSET, flags);
  properties[PROP_MARKER_B_NS] =
    g_param_spec_int64 ("marker-b-ns", NULL, NULL, -1, G_MAXINT64, CS_VIEW_MODEL_MARKER_UNSET, flags);
  properties[PROP_ACTIVE_MARKER] = g_param_spec_uint ("active-marker", NULL, NULL, 0, 1, 0, flags);
  properties[PROP_CPU_PLOTS] =
    g_param_spec_variant ("cpu-plots", NULL, NULL, G_VARIANT_TYPE ("au"), NULL, flags);
  properties[PROP_TASK_PLOTS] =
    g_param_spec_variant ("task-plots", NULL, NULL, G_VARIANT_TYPE ("ai"), NULL, flags);
  properties[PROP_FILTER_TEXT] = g_param_spec_string ("filter-text", NULL, NULL, NULL, flags);
  properties[PROP_FILTER_TARGETS] = g_param_spec_uint ("filter-targets", NULL, NULL, 0, 3, 3, flags);
  properties[PROP_HIDE_FILTERED] = g_param_spec_boolean ("hide-filtered", NULL, NULL, FALSE, flags);
  properties[PROP_QUERY_TEXT] = g_param_spec_string ("query-text", NULL, NULL, NULL, flags);
  properties[PROP_QUERY_HISTORY] = g_param_spec_boxed ("query-history", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_PLUGIN_ROWS] = g_param_spec_boxed ("plugin-rows", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_STREAMS] =
    g_param_spec_variant ("streams", NULL, NULL, G_VARIANT_TYPE ("a(sxbb)"), NULL, flags);
  properties[PROP_WIDTH] = g_param_spec_int ("width", NULL, NULL, -1, G_MAXINT, -1, flags);
  properties[PROP_HEIGHT] = g_param_spec_int ("height", NULL, NULL, -1, G_MAXINT, -1, flags);
  properties[PROP_MAXIMIZED] = g_param_spec_boolean ("maximized", NULL, NULL, FALSE, flags);
  properties[PROP_PANED_POSITION] = g_param_spec_int ("paned-position", NULL, NULL, -1, G_MAXINT, -1, flags);
  properties[PROP_SELECTED_EVENT] =
    g_param_spec_variant ("selected-event", NULL, NULL, G_VARIANT_TYPE (CS_EVENT_VARIANT_TYPE), NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_view_model_init (CsViewModel *self)
{
  self->values = g_new0 (GValue, N_PROPS);
  for (guint i = 1; i < N_PROPS; i++)
    {
      g_value_init (&self->values[i], G_PARAM_SPEC_VALUE_TYPE (properties[i]));
      g_param_value_set_default (properties[i], &self->values[i]);
    }
}

/**
 * cs_view_model_new:
 *
 * Returns: (transfer full): a model of a view that shows nothing yet
 */
CsViewModel *
cs_view_model_new (void)
{
  return g_object_new (CS_TYPE_VIEW_MODEL, NULL);
}

/** cs_view_model_get_file: Returns: (transfer none) (nullable): the recording shown */
GFile *
cs_view_model_get_file (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_object (&self->values[PROP_FILE]);
}

/** cs_view_model_get_document: Returns: (transfer none) (nullable): its document, once shown */
CsDocument *
cs_view_model_get_document (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_object (&self->values[PROP_DOCUMENT]);
}

/** cs_view_model_get_begin_ns: Returns: the visible span's first ns (trace clock) */
gint64
cs_view_model_get_begin_ns (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), 0);
  return g_value_get_int64 (&self->values[PROP_BEGIN_NS]);
}

/** cs_view_model_get_end_ns: Returns: the visible span's end (excluded), in ns */
gint64
cs_view_model_get_end_ns (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), 0);
  return g_value_get_int64 (&self->values[PROP_END_NS]);
}

/**
 * cs_view_model_set_span:
 * @self: a view model
 * @begin_ns: the first visible ns, trace clock
 * @end_ns: the end of the visible span (excluded), > @begin_ns
 *
 * Sets "begin-ns" and "end-ns" together: both are stored before either
 * notifies, so a binding sees the whole new span.
 */
void
cs_view_model_set_span (CsViewModel *self,
                        gint64       begin_ns,
                        gint64       end_ns)
{
  gboolean begin_changed, end_changed;

  g_return_if_fail (CS_IS_VIEW_MODEL (self));

  begin_changed = g_value_get_int64 (&self->values[PROP_BEGIN_NS]) != begin_ns;
  end_changed = g_value_get_int64 (&self->values[PROP_END_NS]) != end_ns;
  g_value_set_int64 (&self->values[PROP_BEGIN_NS], begin_ns);
  g_value_set_int64 (&self->values[PROP_END_NS], end_ns);
  if (begin_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BEGIN_NS]);
  if (end_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_END_NS]);
}

/**
 * cs_view_model_get_marker_ns:
 * @self: a view model
 * @marker: 0 for marker A, 1 for B
 *
 * Returns: the marker's time in ns, or %CS_VIEW_MODEL_MARKER_UNSET
 */
gint64
cs_view_model_get_marker_ns (CsViewModel *self,
                             guint        marker)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), CS_VIEW_MODEL_MARKER_UNSET);
  g_return_val_if_fail (marker <= 1, CS_VIEW_MODEL_MARKER_UNSET);
  return g_value_get_int64 (&self->values[marker == 0 ? PROP_MARKER_A_NS : PROP_MARKER_B_NS]);
}

/** cs_view_model_get_active_marker: Returns: 0 when marker A is active, 1 for B */
guint
cs_view_model_get_active_marker (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), 0);
  return g_value_get_uint (&self->values[PROP_ACTIVE_MARKER]);
}

/** cs_view_model_get_filter_text: Returns: (transfer none) (nullable): the event filter as text, %NULL for none */
const char *
cs_view_model_get_filter_text (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_string (&self->values[PROP_FILTER_TEXT]);
}

/** cs_view_model_get_query_text: Returns: (transfer none) (nullable): the Query page's SQL */
const char *
cs_view_model_get_query_text (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_string (&self->values[PROP_QUERY_TEXT]);
}

/** cs_view_model_get_query_history: Returns: (transfer none) (nullable): the queries run, newest first */
const char * const *
cs_view_model_get_query_history (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_boxed (&self->values[PROP_QUERY_HISTORY]);
}

/** cs_view_model_get_plugin_rows: Returns: (transfer none) (nullable): the plugin rows, "PLUGIN:LAYER:KEY" */
const char * const *
cs_view_model_get_plugin_rows (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_boxed (&self->values[PROP_PLUGIN_ROWS]);
}

/** cs_view_model_get_cpu_plots: Returns: (transfer none) (nullable): the CPU plots, "au", %NULL for the default */
GVariant *
cs_view_model_get_cpu_plots (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_variant (&self->values[PROP_CPU_PLOTS]);
}

/** cs_view_model_get_task_plots: Returns: (transfer none) (nullable): the task plots' pids, "ai" */
GVariant *
cs_view_model_get_task_plots (CsViewModel *self)
{
  g_return_val_if_fail (CS_IS_VIEW_MODEL (self), NULL);
  return g_value_get_variant (&self->values[PROP_TASK_PLOTS]);
}

/**
 * cs_view_model_add_task_plot:
 * @self: a view model
 * @pid: a task of the recording; 0 (the idle task) and below are ignored
 *
 * Adds a task plot for @pid below the others, unless it has one.
 */
void
cs_view_model_add_task_plot (CsViewModel *self,
                             gint32       pid)
{
  GVariant *plots;
  const gint32 *pids = NULL;
  gsize n = 0;
  g_autoptr(GArray) added = g_array_new (FALSE, FALSE, sizeof (gint32));

  g_return_if_fail (CS_IS_VIEW_MODEL (self));

  plots = cs_view_model_get_task_plots (self);
  if (plots != NULL)
    pids = g_variant_get_fixed_array (plots, &n, sizeof (gint32));
  if (pid <= 0)
    return;
  for (gsize i = 0; i < n; i++)
    if (pids[i] == pid)
      return;
  g_array_append_vals (added, pids, n);
  g_array_append_val (added, pid);
  g_object_set (self, "task-plots",
                g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, added->data, added->len, sizeof (gint32)),
                NULL);
}
