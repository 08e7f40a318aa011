/* cs-record-options.h: what to record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "cs-record-error.h"

G_BEGIN_DECLS

/**
 * CsRecordOptions:
 * @events: (array zero-terminated=1): event specifications, trace-cmd style:
 *   "system:event", "system/event", "system" (all its events), "event"
 *   (in whatever system has it); shell globs allowed ("sched:sched_wak*").
 *   Matched against tracefs `available_events`.
 * @filters: (array zero-terminated=1): one filter per entry of @events, in
 *   tracefs filter syntax ("prev_pid != 0"), "" for none; written to the
 *   instance's `events/<system>/<event>/filter` of every matching event
 * @pids: (element-type gint): only record these tasks' events
 *   (`set_event_pid`, and `set_ftrace_pid` for a tracer); empty: all tasks
 * @follow_children: also record the children they fork from now on
 *   (`options/event-fork`, `options/function-fork`)
 * @cpumask: (nullable): CPUs to record, a hexadecimal mask as in
 *   `tracing_cpumask` ("3" = CPUs 0 and 1); %NULL: all
 * @buffer_size_kb: ring-buffer size per CPU in KiB (`buffer_size_kb`); 0
 *   keeps the kernel's default for a new instance
 * @clock: (nullable): trace clock (`trace_clock`: "local", "global", "mono",
 *   "boot"…); %NULL: the kernel's default (local)
 * @tracer: (nullable): a tracer for `current_tracer` ("function",
 *   "function_graph"…); %NULL or "nop": events only
 * @tracer_optional: when the kernel refuses @tracer, record the events
 *   anyway (with a warning) instead of failing
 * @stacktrace: record a kernel stack trace with every event
 *   (`options/stacktrace`: ftrace:kernel_stack events)
 * @output: the trace.dat to write
 * @duration_s: stop after this many seconds; 0: until stopped or until
 *   @command exits
 * @command: (array zero-terminated=1) (nullable): a command to run once
 *   tracing is on; the recording ends when it exits
 * @trace_command_only: restrict the events to @command and its children
 *   (adds its pid to @pids and sets @follow_children)
 * @owner_uid: when root records for a user (pkexec), the user: the output
 *   is created with their permissions and @command runs as them; -1: none
 * @owner_gid: the user's group, or -1
 *
 * Everything a recording needs.  Each field mirrors a tracefs file of the
 * private instance (`instances/chronoscope-<pid>/…`).
 */
typedef struct {
  char **events;
  char **filters;
  GArray *pids;
  gboolean follow_children;
  char *cpumask;
  guint buffer_size_kb;
  char *clock;
  char *tracer;
  gboolean tracer_optional;
  gboolean stacktrace;
  char *output;
  double duration_s;
  char **command;
  gboolean trace_command_only;
  gint64 owner_uid;
  gint64 owner_gid;
} CsRecordOptions;

#define CS_TYPE_RECORD_OPTIONS (cs_record_options_get_type ())
GType            cs_record_options_get_type     (void) G_GNUC_CONST;

CsRecordOptions *cs_record_options_new          (void);
CsRecordOptions *cs_record_options_copy         (const CsRecordOptions  *self);
void             cs_record_options_free         (CsRecordOptions        *self);
void             cs_record_options_add_event    (CsRecordOptions        *self,
                                                 const char             *spec,
                                                 const char             *filter);
gboolean         cs_record_options_parse_args   (CsRecordOptions        *self,
                                                 int                    *argc,
                                                 char                 ***argv,
                                                 const char             *command_name,
                                                 const char             *summary,
                                                 const GOptionEntry     *extra_entries,
                                                 GError                **error);
char           **cs_record_options_to_args      (const CsRecordOptions  *self);
gboolean         cs_record_options_validate     (const CsRecordOptions  *self,
                                                 GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsRecordOptions, cs_record_options_free)

G_END_DECLS
