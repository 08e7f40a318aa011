/* cs-missed-events.c: the missed-events plugin.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Shows where a CPU's ring buffer was overrun and lost events: the kernel
 * counts them in the header of the next ring-buffer page it hands over
 * (Documentation/trace/ring-buffer-design.rst), and trace-cmd report prints
 * "CPU:N [M EVENTS DROPPED]" before that page's first event.  The index
 * keeps those counts already (cs_plugin_document_get_missed_events()), so
 * this plugin needs no pass of its own: it draws a mark on the CPU plot at
 * the first event after each loss (two pixels wide whatever the zoom, so a
 * loss stays visible on a whole-recording view), says how many were lost
 * in the info bar, in the event list's row of that event, and in
 * `chronoscope info --json` (member "missed-events").
 *
 * Built only against the public API (<chronoscope-plugin.h>), as a plugin
 * written out of tree would be.
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include <chronoscope-plugin.h>


/* Half the width of the mark, and how far from it the pointer still finds
 * it, in px. */
#define MARK_HALF_WIDTH_PX 1.0
#define LOOKUP_SLOP_PX     4.0

typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;   /* borrowed: the host keeps it alive */
} MissedEvents;

/* 1234567 -> "1,234,567" in English, "1.234.567" in German: the locale's
 * grouping (LC_NUMERIC), for people only. */
static char *
format_count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

/* A sentence about a loss: for the info bar ("CPU 1 lost 1,234 events
 * here"), or for the event list's row of the first event after it. */
static char *
format_loss (guint    cpu,
             guint64  n_missed,
             gboolean in_list)
{
  g_autofree char *count = NULL;

  if (n_missed == G_MAXUINT64)
    return in_list ? g_strdup_printf (_("CPU %u lost events before this one"), cpu)
                   : g_strdup_printf (_("CPU %u lost events here (the kernel did not count them)"), cpu);
  count = format_count (n_missed);
  if (in_list)
    /* TRANSLATORS: "CPU 1 lost 1,234 events before this one" */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU %u lost %s event before this one",
                                         "CPU %u lost %s events before this one", (gulong) n_missed),
                            cpu, count);
  /* TRANSLATORS: "CPU 1 lost 1,234 events here" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "CPU %u lost %s event here",
                                       "CPU %u lost %s events here", (gulong) n_missed),
                          cpu, count);
}

/* Next to a mark: "−1,234". */
static char *
format_short (guint64 n_missed)
{
  g_autofree char *count = NULL;

  if (n_missed == G_MAXUINT64)
    /* TRANSLATORS: next to a mark where a CPU lost an unknown number of events */
    return g_strdup (_("lost"));
  count = format_count (n_missed);
  return g_strdup_printf ("\u2212%s", count);
}

static gpointer
missed_open (CsPlugin          *plugin,
             CsPluginDocument  *document,
             GError           **error)
{
  MissedEvents *self = g_new0 (MissedEvents, 1);

  self->plugin = plugin;
  self->document = document;
  return self;
}

static void
missed_close (gpointer instance)
{
  g_free (instance);
}

/* The losses of @cpu in [begin_ns, end_ns), or NULL with @error set. */
static GArray *
get_losses (CsPluginDocument  *document,
            guint              cpu,
            gint64             begin_ns,
            gint64             end_ns,
            GError           **error)
{
  g_autoptr(GArray) missed = g_array_new (FALSE, FALSE, sizeof (CsPluginMissedEvents));

  if (!cs_plugin_document_get_missed_events (document, cpu, begin_ns, end_ns, missed, error))
    return NULL;
  return g_steal_pointer (&missed);
}

static void
set_source (cairo_t             *cr,
            const CsPluginColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static gboolean
marks_draw (gpointer             instance,
            cairo_t             *cr,
            const CsPluginView  *view,
            GError             **error)
{
  MissedEvents *self = instance;
  g_autoptr(GArray) missed = NULL;
  CsPluginColor mark, text;
  double x0, y0, width, height, last_x = -G_MAXDOUBLE;
  gint64 begin_ns, end_ns;
  int cpu = cs_plugin_view_get_cpu (view);

  if (self == NULL || cpu < 0)
    return TRUE;
  cs_plugin_view_get_span (view, &begin_ns, &end_ns);
  cs_plugin_view_get_area (view, &x0, &y0, &width, &height);
  /* A mark just left of the span still shows its right half. */
  begin_ns -= (gint64) (MARK_HALF_WIDTH_PX * cs_plugin_view_get_ns_per_px (view)) + 1;
  missed = get_losses (self->document, cpu, MAX (begin_ns, 0), end_ns, error);
  if (missed == NULL)
    return FALSE;

  cs_plugin_view_get_color (view, CS_PLUGIN_COLOR_VERMILLION, &mark);
  cs_plugin_view_get_color (view, CS_PLUGIN_COLOR_TEXT, &text);
  for (guint i = 0; i < missed->len; i++)
    {
      const CsPluginMissedEvents *m = &g_array_index (missed, CsPluginMissedEvents, i);
      double x = cs_plugin_view_ns_to_x (view, m->ts_ns);
      double next_x = i + 1 < missed->len
                      ? cs_plugin_view_ns_to_x (view, g_array_index (missed, CsPluginMissedEvents, i + 1).ts_ns)
                      : x0 + width;
      g_autofree char *count = NULL;

      /* Losses closer than a pixel share one mark. */
      if (x - last_x < 1.0)
        continue;
      last_x = x;
      set_source (cr, &mark);
      cairo_rectangle (cr, x - MARK_HALF_WIDTH_PX, y0, 2 * MARK_HALF_WIDTH_PX, height);
      /* A small flag at the top, so the mark reads as a mark over busy slices. */
      cairo_move_to (cr, x - 4, y0);
      cairo_line_to (cr, x + 4, y0);
      cairo_line_to (cr, x, y0 + 6);
      cairo_close_path (cr);
      cairo_fill (cr);

      count = format_short (m->n_missed);
      set_source (cr, &text);
      cs_plugin_view_draw_text (view, cr, x + 6, y0 + height / 2, next_x - x - 10,
                                CS_PLUGIN_TEXT_LEFT | CS_PLUGIN_TEXT_SMALL, count);
    }
  return TRUE;
}

static gboolean
marks_lookup (gpointer            instance,
              const CsPluginView *view,
              double              x_px,
              double              y_px,
              CsPluginItem       *item)
{
  MissedEvents *self = instance;
  g_autoptr(GArray) missed = NULL;
  const CsPluginMissedEvents *best = NULL;
  double best_dx = G_MAXDOUBLE;
  int cpu = cs_plugin_view_get_cpu (view);
  gint64 begin_ns, end_ns;

  if (self == NULL || cpu < 0)
    return FALSE;
  begin_ns = cs_plugin_view_x_to_ns (view, x_px - LOOKUP_SLOP_PX);
  end_ns = cs_plugin_view_x_to_ns (view, x_px + LOOKUP_SLOP_PX) + 1;
  missed = get_losses (self->document, cpu, MAX (begin_ns, 0), end_ns, NULL);
  if (missed == NULL)
    return FALSE;
  for (guint i = 0; i < missed->len; i++)
    {
      const CsPluginMissedEvents *m = &g_array_index (missed, CsPluginMissedEvents, i);
      double dx = ABS (cs_plugin_view_ns_to_x (view, m->ts_ns) - x_px);

      if (dx <= LOOKUP_SLOP_PX && dx < best_dx)
        {
          best = m;
          best_dx = dx;
        }
    }
  if (best == NULL)
    return FALSE;
  item->text = format_loss (best->cpu, best->n_missed, FALSE);
  item->begin_ns = best->ts_ns;
  item->end_ns = best->ts_ns;
  item->pid = -1;
  return TRUE;
}

/* The event list: the first event of its CPU after a loss says so. */
static char *
missed_describe_event (gpointer                instance,
                       const CsPluginEventRef *ref)
{
  MissedEvents *self = instance;
  g_autoptr(GArray) missed = NULL;
  const CsPluginMissedEvents *m;

  if (self == NULL)
    return NULL;
  missed = get_losses (self->document, ref->cpu, ref->ts_ns, ref->ts_ns + 1, NULL);
  if (missed == NULL || missed->len == 0)
    return NULL;
  m = &g_array_index (missed, CsPluginMissedEvents, 0);
  /* Only the first of the events that share the loss's timestamp: read
   * the one before (rare: only rows at a loss's time get here). */
  if (ref->row > 0)
    {
      CsPluginEventRef prev = *ref;
      CsPluginEvent event;

      prev.row = ref->row - 1;
      if (cs_plugin_document_read_event (self->document, &prev, &event, NULL) &&
          event.ts_ns >= m->ts_ns)
        return NULL;
    }
  return format_loss (m->cpu, m->n_missed, TRUE);
}

/* `info --json`: {"total": N, "losses": [{"cpu", "ts_ns", "n_missed"}]},
 * n_missed -1 when the kernel did not count. */
static gboolean
missed_json (gpointer      instance,
             JsonBuilder  *builder,
             GError      **error)
{
  MissedEvents *self = instance;
  guint64 total = 0;
  gboolean unknown = FALSE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "losses");
  json_builder_begin_array (builder);
  for (guint cpu = 0; self != NULL && cpu < cs_plugin_document_get_n_cpus (self->document); cpu++)
    {
      g_autoptr(GArray) missed = get_losses (self->document, cpu, G_MININT64, G_MAXINT64, error);

      if (missed == NULL)
        return FALSE;
      for (guint i = 0; i < missed->len; i++)
        {
          const CsPluginMissedEvents *m = &g_array_index (missed, CsPluginMissedEvents, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "cpu");
          json_builder_add_int_value (builder, m->cpu);
          json_builder_set_member_name (builder, "ts_ns");
          json_builder_add_int_value (builder, m->ts_ns);
          json_builder_set_member_name (builder, "n_missed");
          json_builder_add_int_value (builder, m->n_missed == G_MAXUINT64 ? -1 : (gint64) m->n_missed);
          json_builder_end_object (builder);
          if (m->n_missed == G_MAXUINT64)
            unknown = TRUE;
          else
            total += m->n_missed;
        }
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, unknown ? -1 : (gint64) total);
  json_builder_end_object (builder);
  return TRUE;
}

static gboolean
missed_init (CsPlugin  *plugin,
             GError   **error)
{
  static const CsPluginDocumentHooks hooks = {
    .struct_size = sizeof (CsPluginDocumentHooks),
    .open = missed_open,
    .close = missed_close,
    .describe_event = missed_describe_event,
  };
  static const CsPluginLayerInfo marks = {
    .struct_size = sizeof (CsPluginLayerInfo),
    .name = "marks",
    .target = CS_PLUGIN_LAYER_CPU_PLOT,
    .draw = marks_draw,
    .lookup = marks_lookup,
  };

  cs_plugin_set_document_hooks (plugin, &hooks);
  cs_plugin_add_layer (plugin, &marks);
  cs_plugin_add_json_section (plugin, "missed-events", missed_json);
  return TRUE;
}

CS_PLUGIN_DEFINE ("missed-events", N_("Missed events"),
                  N_("Marks where a CPU's ring buffer was overrun and lost events, with how many"),
                  "1.0", missed_init)
