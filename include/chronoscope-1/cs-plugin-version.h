/* cs-plugin-version.h: the version of Chronoscope's plugin API.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 */
#pragma once

/**
 * CS_PLUGIN_API_VERSION:
 *
 * The plugin API this header describes.  A plugin reports the version it
 * was built against in #CsPluginEntry.api_version; Chronoscope loads only
 * plugins built for its own version, and refuses the others with a message
 * that names both.  The version changes whenever a structure, a callback
 * or a function of the API changes incompatibly.
 */
#define CS_PLUGIN_API_VERSION 1

/**
 * CS_PLUGIN_API_MINOR_VERSION:
 *
 * Compatible additions to #CS_PLUGIN_API_VERSION: a plugin built against
 * an older minor version loads, and one that calls a function added later
 * can test this at build time.  1.1 added #CsPluginField
 * (cs_plugin_field_lookup(), cs_plugin_event_read_int(),
 * cs_plugin_event_peek_string()): fields found once per format, read per
 * record without a search or an allocation.  1.2 added recordings seen
 * together: cs_plugin_document_get_vcpu_out() (a KVM guest's vCPU out of
 * the guest, from its host's recording), cs_plugin_cli_add_recording(),
 * and a window's several recordings for its pages
 * (cs_plugin_window_get_n_documents(), cs_plugin_window_get_nth_document(),
 * cs_plugin_window_to_axis_ns(), cs_plugin_window_from_axis_ns()).
 * 1.3 added cs_plugin_document_count_cpu_events() (a CPU's events of a
 * span counted from the index) and cs_plugin_pass_get_document_is_idle()
 * (whether a pass's own thread may read the document while its events
 * are handed out).  1.4 added cs_plugin_pass_get_plugin() (the plugin
 * that registered a running pass).  1.5 added
 * cs_plugin_document_foreach_slice() (a CPU's slices from the index,
 * with what they tell of their sched_switch records).  1.6 added
 * cs_plugin_document_has_vcpu_host() (whether a recording's vCPUs can be
 * asked of its host's), and cs_plugin_document_get_tep() gives only the
 * formats of the event types the recording has records of.  1.7 added
 * cs_plugin_document_foreach_interrupt() (a CPU's interrupt entries and
 * exits from the index, with their irq, vec and handler name).  1.8
 * added #CsPluginSlice's @next_prio and @next_comm (who began a slice,
 * as its sched_switch named them, without reading its record) and
 * cs_plugin_document_foreach_migration() (a CPU's sched_migrate_task
 * events from the index, with who moved where).  1.9 added
 * cs_plugin_document_foreach_unswitched() (where a CPU's slices do not
 * stand in for its sched_switch records, without decoding the slices)
 * and cs_plugin_document_foreach_idle() (where a CPU was idle, from the
 * slices' times alone).
 */
#define CS_PLUGIN_API_MINOR_VERSION 9

/**
 * CS_PLUGIN_ENTRY_SYMBOL:
 *
 * The one symbol every plugin exports: a function
 * `const CsPluginEntry *chronoscope_plugin_entry (void)`.  Its name never
 * changes between API versions, so that any Chronoscope can read which
 * version a plugin was built for.  #CS_PLUGIN_DEFINE writes it.
 */
#define CS_PLUGIN_ENTRY_SYMBOL "chronoscope_plugin_entry"
