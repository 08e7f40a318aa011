/* cs-kmod-plugin.c: the kmod plugin's entry point and its `info --json`
 * member.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What kmod/, Chronoscope's kernel module, recorded: its irqs-off and
 * preempt-off sections as bands on CPU plots, the wakeup latencies it
 * measured in the kernel as brackets on task plots, their figures in the
 * info bar, A/B on a double-click, and a "kmod" member in
 * `chronoscope info FILE --json` (what the kmod guest test checks).  See
 * cs-kmod-plugin-private.h for the files.
 */
#include <glib/gi18n-lib.h>

#include "cs-kmod-plugin-private.h"

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_section (JsonBuilder       *b,
             const KmodSection *s)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kmod_section_kind_to_string (s->kind));
  add_int (b, "cpu", s->cpu);
  add_int (b, "begin_ns", s->begin_ns);
  add_int (b, "end_ns", s->end_ns);
  add_int (b, "requested_ns", (gint64) s->requested_ns);
  add_int (b, "measured_ns", (gint64) s->measured_ns);
  json_builder_end_object (b);
}

static void
add_latency (JsonBuilder             *b,
             const KmodWakeupLatency *l)
{
  json_builder_begin_object (b);
  add_int (b, "time_ns", l->time_ns);
  add_int (b, "cpu", l->cpu);
  add_int (b, "pid", l->pid);
  json_builder_set_member_name (b, "comm");
  json_builder_add_string_value (b, l->comm);
  add_int (b, "target_cpu", l->target_cpu);
  add_int (b, "latency_ns", (gint64) l->latency_ns);
  add_int (b, "threshold_ns", (gint64) l->threshold_ns);
  json_builder_end_object (b);
}

/* {"sections": [{kind ("irqs-off"|"preempt-off"), cpu, begin_ns, end_ns,
 * requested_ns, measured_ns}...], "wakeup_latencies": [{time_ns, cpu, pid,
 * comm, target_cpu, latency_ns, threshold_ns}...]}, sorted by time, times
 * in ns of the trace clock; both arrays empty for a recording without the
 * module's events. */
static gboolean
build_json (gpointer      instance,
            JsonBuilder  *builder,
            GError      **error)
{
  KmodInstance *self = instance;
  g_autoptr(GArray) sections = g_array_new (FALSE, FALSE, sizeof (KmodSection));
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (KmodWakeupLatency));

  if (self != NULL &&
      (!kmod_instance_ensure_results (self, error) ||
       !kmod_instance_get_sections (self, G_MININT64, G_MAXINT64, sections, error) ||
       !kmod_instance_get_latencies (self, -1, G_MININT64, G_MAXINT64, latencies, error)))
    return FALSE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sections");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sections->len; i++)
    add_section (builder, &g_array_index (sections, KmodSection, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "wakeup_latencies");
  json_builder_begin_array (builder);
  for (guint i = 0; i < latencies->len; i++)
    add_latency (builder, &g_array_index (latencies, KmodWakeupLatency, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return TRUE;
}

static const CsPluginDocumentHooks kmod_document_hooks = {
  .struct_size = sizeof (CsPluginDocumentHooks),
  .open = kmod_instance_open,
  .close = kmod_instance_close,
  .pass_ready = kmod_instance_pass_ready,
};

static gboolean
kmod_init (CsPlugin  *plugin,
           GError   **error)
{
  cs_plugin_set_document_hooks (plugin, &kmod_document_hooks);
  cs_plugin_add_pass (plugin, &kmod_pass_info);
  /* Registered in drawing order: bands on CPU plots, brackets on task
   * plots. */
  cs_plugin_add_layer (plugin, &kmod_sections_layer);
  cs_plugin_add_layer (plugin, &kmod_latencies_layer);
  cs_plugin_add_json_section (plugin, "kmod", build_json);
  return TRUE;
}

CS_PLUGIN_DEFINE ("kmod", N_("Kernel module"),
                  N_("Sections and wakeup latencies recorded by Chronoscope's kernel module (kmod/)"),
                  "1.0", kmod_init)
