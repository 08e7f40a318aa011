/* cs-plugin-document.h: a recording and its index, as plugins read them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Part of the public plugin API's core (chronoscope-plugin-1.pc).  Include
 * <chronoscope-plugin-core.h> (no GTK), <chronoscope-plugin-ui.h> or
 * <chronoscope-plugin.h>, not this file.
 *
 * A #CsPluginDocument is one recording (a trace-cmd trace.dat) opened by
 * Chronoscope: its index answers the questions below without reading the
 * recording, and the results of plugin passes (cs-plugin-pass.h) are
 * SQLite databases kept with the index in the user's cache
 * ($XDG_CACHE_HOME/chronoscope/), one per plugin, pass and parameter,
 * reused whenever the same recording is opened again.  Every function here
 * may be called on the main thread, and in a pass's callbacks in the
 * worker (except those that say otherwise); a document is used by one
 * thread at a time.
 */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

#include "cs-plugin.h"

G_BEGIN_DECLS

struct tep_handle;
struct tep_event;
struct tep_record;

/**
 * CsPluginEvent:
 * @ts_ns: the event's timestamp
 * @cpu: the CPU whose ring buffer held it
 * @pid: its common_pid (0: the idle task, or an interrupt on an idle CPU)
 * @system: its trace system (events/<system>/ of tracefs)
 * @name: its name (events/<system>/<name>/ of tracefs)
 * @row: its position among the events of its CPU (0-based, time order)
 * @tep: the recording's event formats
 * @format: the event's format (events/<system>/<name>/format), for
 *   libtraceevent's tep_get_field_val() and friends
 * @record: the record itself, for libtraceevent
 *
 * An event with its fields, borrowed: valid only during the callback that
 * receives it (or until the next cs_plugin_document_read_event()).  Read
 * fields with cs_plugin_event_get_int() and cs_plugin_event_dup_string()
 * (a search by name each call), with a #CsPluginField found once per
 * @format (cs_plugin_field_lookup(), cs_plugin_event_read_int(),
 * cs_plugin_event_peek_string(): what a pass over millions of events
 * should use), or with libtraceevent (event-parse.h) on @format and
 * @record.
 */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  gint32 pid;
  const char *system;
  const char *name;
  guint64 row;
  struct tep_handle *tep;
  struct tep_event *format;
  struct tep_record *record;
} CsPluginEvent;

/**
 * cs_plugin_event_get_int:
 * @event: an event
 * @field: the name of a field of its format (events/<system>/<name>/format),
 *   or a common field (common_pid, common_flags, common_preempt_count)
 * @value: (out): the field's value; signed fields are sign-extended,
 *   unsigned ones zero-extended (a u64 above %G_MAXINT64 comes out
 *   negative: cast it back to guint64)
 *
 * Reads a number field of the record (1, 2, 4 or 8 bytes, in the
 * recording's byte order), as `trace-cmd report` prints it.
 *
 * Returns: %FALSE when the event has no such field or the field is not a
 *   number (a string, an array)
 */
gboolean cs_plugin_event_get_int     (const CsPluginEvent *event,
                                      const char          *field,
                                      gint64              *value);

/**
 * cs_plugin_event_dup_string:
 * @event: an event
 * @field: the name of a string field: a `char name[N]` array or a
 *   `__data_loc char[] name` string of the event's format
 *
 * Returns: (transfer full) (nullable): the string, valid UTF-8 (invalid
 *   bytes replaced), or %NULL when the event has no such string field
 */
char    *cs_plugin_event_dup_string  (const CsPluginEvent *event,
                                      const char          *field);

/**
 * CsPluginField:
 *
 * A field of one event format (events/<system>/<name>/format), looked up
 * by name once with cs_plugin_field_lookup() and then read from every
 * record of that format with cs_plugin_event_read_int() or
 * cs_plugin_event_peek_string(): no search by name and no allocation per
 * record, for passes that read millions of events.  Caller-allocated (on
 * the stack or in a plugin's per-format cache); its members are private.
 * A field looked up on one format reads only events of that same format
 * (#CsPluginEvent.format): keep one per format.
 *
 * Since: plugin API 1.1 (#CS_PLUGIN_API_MINOR_VERSION)
 */
typedef struct {
  /*< private >*/
  gint32 offset;
  guint32 size;
  guint32 kind;
  guint32 flags;
  gpointer reserved[2];
} CsPluginField;

/**
 * cs_plugin_field_lookup:
 * @field: (out caller-allocates): the field's handle
 * @event: an event of the format to read (any event of it)
 * @name: the name of a field of its format, or a common field
 *   (common_pid, common_flags, common_preempt_count, common_type)
 *
 * Finds @name in @event's format, once per format.  When the format has
 * no such field, @field is set to a handle that reads nothing (the read
 * functions return %FALSE or %NULL), so a pass may keep it as it is.
 *
 * Since: plugin API 1.1
 *
 * Returns: whether the format has the field
 */
gboolean    cs_plugin_field_lookup      (CsPluginField       *field,
                                         const CsPluginEvent *event,
                                         const char          *name);

/**
 * cs_plugin_event_read_int:
 * @event: an event of the format @field was looked up on
 * @field: a field of that format (cs_plugin_field_lookup())
 * @value: (out): the field's value, as cs_plugin_event_get_int() reads it
 *   (signed fields sign-extended, unsigned ones zero-extended, in the
 *   recording's byte order)
 *
 * Reads a number field (1, 2, 4 or 8 bytes) of the record, as
 * cs_plugin_event_get_int() does without the search by name: a few
 * nanoseconds.
 *
 * Since: plugin API 1.1
 *
 * Returns: %FALSE when the field is missing or not a number, or the
 *   record is too short for it
 */
gboolean    cs_plugin_event_read_int    (const CsPluginEvent *event,
                                         const CsPluginField *field,
                                         gint64              *value);

/**
 * cs_plugin_event_peek_string:
 * @event: an event of the format @field was looked up on
 * @field: a string field of that format: a `char name[N]` array or a
 *   `__data_loc char[] name` (or `__rel_loc`) string
 * @len: (out): the string's length in bytes, up to its first NUL
 *
 * The bytes of a string field, borrowed from the record, without a copy:
 * not NUL-terminated and not checked for UTF-8 (copy @len bytes, or use
 * cs_plugin_event_dup_string() for valid UTF-8).
 *
 * Since: plugin API 1.1
 *
 * Returns: (transfer none) (nullable): the bytes, valid as long as
 *   @event; %NULL when the field is missing, not a string, or does not
 *   fit in the record
 */
const char *cs_plugin_event_peek_string (const CsPluginEvent *event,
                                         const CsPluginField *field,
                                         gsize               *len);

/**
 * cs_plugin_event_format:
 * @event: an event
 *
 * Formats the event's fields as the event list's Info column and
 * `trace-cmd report` show them (libtraceevent's print format).
 *
 * Returns: (transfer full): the text
 */
char    *cs_plugin_event_format      (const CsPluginEvent *event);

/**
 * CsPluginMissedEvents:
 * @ts_ns: timestamp of the first event recorded after the loss
 * @cpu: the CPU whose ring buffer lost events
 * @n_missed: how many it lost there, as the ring-buffer page's header
 *   reports them (trace-cmd report's "[LOST n EVENTS]"), or %G_MAXUINT64
 *   when the kernel reported a loss without a count ("[LOST EVENTS]")
 *
 * Where a CPU's ring buffer was overrun and events were lost.
 */
typedef struct {
  gint64 ts_ns;
  guint cpu;
  guint64 n_missed;
} CsPluginMissedEvents;

/**
 * cs_plugin_document_ref:
 * @document: a document
 *
 * Returns: (transfer full): @document, with one more reference
 */
CsPluginDocument  *cs_plugin_document_ref            (CsPluginDocument *document);

/**
 * cs_plugin_document_unref:
 * @document: (transfer full): a document
 *
 * Drops a reference.  Documents handed to callbacks are borrowed; only
 * those a plugin got from cs_plugin_cli_open() or cs_plugin_document_ref()
 * are its to unref.
 */
void               cs_plugin_document_unref          (CsPluginDocument *document);

/**
 * cs_plugin_document_get_path:
 * @document: a document
 *
 * Returns: (transfer none): the recording's file name, absolute
 */
const char        *cs_plugin_document_get_path       (CsPluginDocument *document);

/**
 * cs_plugin_document_get_first_ns:
 * @document: a document
 *
 * Returns: the timestamp of the recording's first event (0 when it has none)
 */
gint64             cs_plugin_document_get_first_ns   (CsPluginDocument *document);

/**
 * cs_plugin_document_get_last_ns:
 * @document: a document
 *
 * Returns: the timestamp of the recording's last event (0 when it has none);
 *   the recording spans [first_ns, last_ns + 1)
 */
gint64             cs_plugin_document_get_last_ns    (CsPluginDocument *document);

/**
 * cs_plugin_document_get_n_cpus:
 * @document: a document
 *
 * Returns: the number of CPUs the recording has ring buffers for; CPUs are
 *   numbered 0 .. n - 1
 */
guint              cs_plugin_document_get_n_cpus     (CsPluginDocument *document);

/**
 * cs_plugin_document_get_cpu_n_events:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1
 *
 * Returns: the number of events recorded on @cpu (0 for a CPU out of range)
 */
guint64            cs_plugin_document_get_cpu_n_events (CsPluginDocument *document,
                                                      guint             cpu);

/**
 * cs_plugin_document_count_cpu_events:
 * @document: a document
 * @cpu: a CPU, 0 .. n_cpus - 1
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @n_events: (out): how many events of every type @cpu recorded with a
 *   timestamp in [@begin_ns, @end_ns) (0 for a CPU out of range or an
 *   empty span)
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Counts a CPU's events of a span from the index, without listing them
 * nor reading the recording: two of the index's chunks (4096 events each)
 * are decoded, whatever the span's length.  For a plugin that reads a
 * span's events only when they are few (cs_plugin_document_foreach_event()
 * lists and reads each).  Main thread or a pass's callbacks.
 *
 * Since: plugin API 1.3
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean           cs_plugin_document_count_cpu_events (CsPluginDocument *document,
                                                      guint             cpu,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      guint64          *n_events,
                                                      GError          **error);

/**
 * cs_plugin_document_count_events:
 * @document: a document
 * @system: a trace system, as in events/<system>/ of tracefs
 * @name: (nullable): an event of that system; %NULL for all its events
 *
 * Counts events by type from the index, without reading the recording.
 *
 * Returns: how many such events the recording holds (0 when the type is
 *   absent)
 */
guint64            cs_plugin_document_count_events   (CsPluginDocument *document,
                                                      const char       *system,
                                                      const char       *name);

/**
 * cs_plugin_document_get_comm:
 * @document: a document
 * @pid: a thread id
 *
 * Returns: (transfer none) (nullable): the last command name the
 *   recording shows for @pid (sched_switch's prev_comm/next_comm and the
 *   saved cmdlines), or %NULL when it shows none
 */
const char        *cs_plugin_document_get_comm       (CsPluginDocument *document,
                                                      gint32            pid);

/**
 * cs_plugin_document_get_tep:
 * @document: a document
 * @error: %CS_PLUGIN_ERROR_FAILED when the recording can no longer be read
 *
 * The formats of the event types the recording holds records of, for
 * choosers that list events and their fields (tep_find_event_by_name(),
 * tep_event_fields()).  A recording made with trace-cmd also carries the
 * formats of every other event its kernel offers (thousands); those are
 * not parsed (since plugin API 1.6), so an event with no record is not
 * found, whether or not its format was saved.  The first call opens the
 * recording (it parses the formats: milliseconds).
 *
 * Returns: (transfer none) (nullable): libtraceevent's handle, owned by
 *   the document
 */
struct tep_handle *cs_plugin_document_get_tep        (CsPluginDocument *document,
                                                      GError          **error);

/**
 * cs_plugin_document_find_function:
 * @document: a document
 * @addr: a kernel address, as a function pointer field holds it
 *   (funcgraph_entry's and funcgraph_exit's func, function's ip and
 *   parent_ip)
 * @start_addr: (out) (optional): the start address of the function @addr
 *   lies in; @addr itself when the function returns %NULL
 *
 * Names a kernel address from the recording's kallsyms (/proc/kallsyms as
 * it was when recording), as `trace-cmd report` names it: the symbol with
 * the greatest address at or below @addr.  The first call parses the
 * symbols into the recording's event formats (up to half a second with a
 * full kallsyms; cs_plugin_document_get_tep() and the events' @tep then
 * have them too, for libtraceevent's tep_find_function()); later calls
 * are a binary search.
 *
 * Returns: (transfer none) (nullable): the function's name, owned by the
 *   document and valid while it is open; %NULL when the recording has no
 *   kallsyms, no symbol at or below @addr, or can no longer be read
 */
const char        *cs_plugin_document_find_function  (CsPluginDocument *document,
                                                      guint64           addr,
                                                      guint64          *start_addr);

/**
 * cs_plugin_document_get_missed_events:
 * @document: a document
 * @cpu: a CPU
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @missed: (element-type CsPluginMissedEvents): where the losses of @cpu
 *   whose @ts_ns lies in [@begin_ns, @end_ns) are appended, in time order
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * Where @cpu's ring buffer lost events, from the index (trace-cmd's
 * missed-events count on each ring-buffer page, see
 * Documentation/trace/ring-buffer-design.rst).  Costs one indexed query;
 * recordings without losses cost nothing more.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean           cs_plugin_document_get_missed_events (CsPluginDocument *document,
                                                      guint             cpu,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      GArray           *missed,
                                                      GError          **error);

/**
 * cs_plugin_document_read_event:
 * @document: a document
 * @ref: an event the views gave (its @cpu and @row identify it)
 * @event: (out caller-allocates): the event with its fields, valid until
 *   the next call on @document
 * @error: %CS_PLUGIN_ERROR_FAILED when the record cannot be read
 *
 * Reads one event's record from the recording, for its fields.  Costs a
 * record read (microseconds); not for loops over many events: use a pass.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean           cs_plugin_document_read_event     (CsPluginDocument *document,
                                                      const CsPluginEventRef *ref,
                                                      CsPluginEvent    *event,
                                                      GError          **error);

/**
 * CsPluginEventFunc:
 * @event: an event with its fields, borrowed for the call
 * @user_data: the caller's data
 *
 * Receives one event of cs_plugin_document_foreach_event().
 *
 * Returns: %TRUE to go on, %FALSE to stop (not an error)
 */
typedef gboolean (*CsPluginEventFunc) (const CsPluginEvent *event,
                                       gpointer             user_data);

/**
 * cs_plugin_document_foreach_event:
 * @document: a document
 * @cpu: a CPU (0 .. n_cpus - 1), or -1 for every CPU
 * @begin_ns: start of the span (inclusive)
 * @end_ns: end of the span (exclusive)
 * @types: (array zero-terminated=1) (nullable): the event types wanted,
 *   as "system:name" or "system:*" (the form of #CsPluginPassInfo.events);
 *   %NULL for every type.  Types the recording lacks are skipped.
 * @func: called for each event, in time order; over several CPUs, ties
 *   in time go in CPU order, then in each CPU's row order (the order a
 *   pass receives them)
 * @user_data: for @func
 * @error: %CS_PLUGIN_ERROR_FAILED when the index or the recording cannot
 *   be read
 *
 * Reads the events of one CPU (or all) whose timestamp lies in
 * [@begin_ns, @end_ns), of the given types, with their fields: the
 * index finds them, and only the records of the wanted types are read
 * from the recording (about a microsecond each), and the index's chunks
 * (4096 events of a CPU) that hold none of them are skipped undecoded, so
 * a type rare in the span (sched_migrate_task, irq_handler_entry) costs
 * little more than finding the span's chunks.  Each record is read at
 * the time the index gives it, without walking its page up to it.  One
 * CPU's events are listed 4096 at a time; over every CPU, the
 * references of the wanted events of the span are held in memory (40
 * bytes each) to merge them in time order: meant for spans around a
 * latency or a task's activity, not for the whole of a large recording
 * (use a pass, cs-plugin-pass.h).  Main thread or a pass's callbacks,
 * like the other functions here; not from inside @func.
 *
 * Returns: %FALSE with @error set on failure (a stop asked by @func is
 *   a success)
 */
gboolean           cs_plugin_document_foreach_event  (CsPluginDocument *document,
                                                      gint              cpu,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      const char *const *types,
                                                      CsPluginEventFunc func,
                                                      gpointer          user_data,
                                                      GError          **error);

/**
 * CsPluginTaskState:
 * @CS_PLUGIN_TASK_RUNNING: on a CPU (#CsPluginTaskInterval.cpu)
 * @CS_PLUGIN_TASK_RUNNABLE: ready to run, waiting for a CPU: after a
 *   wakeup, or preempted while runnable (sched_switch prev_state R / R+)
 * @CS_PLUGIN_TASK_SLEEPING: interruptible sleep (prev_state S)
 * @CS_PLUGIN_TASK_UNINTERRUPTIBLE: uninterruptible sleep (prev_state D)
 * @CS_PLUGIN_TASK_OTHER: stopped, traced, dead or an unknown prev_state
 *
 * What a task did during a #CsPluginTaskInterval (the task plot's states).
 */
typedef enum {
  CS_PLUGIN_TASK_RUNNING,
  CS_PLUGIN_TASK_RUNNABLE,
  CS_PLUGIN_TASK_SLEEPING,
  CS_PLUGIN_TASK_UNINTERRUPTIBLE,
  CS_PLUGIN_TASK_OTHER,
} CsPluginTaskState;

/**
 * CsPluginTaskInterval:
 * @begin_ns: start (inclusive)
 * @end_ns: end (exclusive)
 * @state: what the task did
 * @cpu: the CPU it ran on (running) or was switched out of (the other
 *   states); -1 when unknown
 * @wakeup_ns: for a runnable interval that followed a wakeup, the time of
 *   the wakeup that opened the wait by the wakeup rule (cs-plugin-wakeup.h:
 *   the first sched_waking, sched_wakeup or sched_wakeup_new of the
 *   sleeping task); -1 for a task preempted while runnable.  The wakeup
 *   latency is then @end_ns - @wakeup_ns.
 *
 * One stretch of a task's life, as the task plots draw it.
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  CsPluginTaskState state;
  gint32 cpu;
  gint64 wakeup_ns;
} CsPluginTaskInterval;

/**
 * cs_plugin_document_get_task_intervals:
 * @document: a document
 * @pid: a thread id (not 0: the idle tasks are not tasks here)
 * @begin_ns: start of the span
 * @end_ns: end of the span (exclusive)
 * @intervals: (element-type CsPluginTaskInterval): where the intervals
 *   overlapping the span are appended, in time order, not clipped to it
 * @error: %CS_PLUGIN_ERROR_FAILED when the index cannot be read
 *
 * What @pid did over a span, from sched_switch (prev_state, next_pid) and
 * sched_waking / sched_wakeup (pid), read from the per-task tables of the
 * index (only that task's rows).  Before the first event that says what
 * the task did, nothing is reported; consecutive intervals touch.
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean           cs_plugin_document_get_task_intervals (CsPluginDocument *document,
                                                      gint32            pid,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      GArray           *intervals,
                                                      GError          **error);

/**
 * cs_plugin_document_get_instance:
 * @document: a document
 * @plugin: an enabled plugin
 *
 * Returns: (transfer none) (nullable): what @plugin's
 *   #CsPluginDocumentHooks.open returned for @document (%NULL when it
 *   has no open hook, or is not enabled for @document)
 */
gpointer           cs_plugin_document_get_instance   (CsPluginDocument *document,
                                                      CsPlugin         *plugin);

/**
 * cs_plugin_document_get_pass_db:
 * @document: a document
 * @plugin: the plugin that owns the pass
 * @pass: the pass's #CsPluginPassInfo.name
 * @param: (nullable): its parameter, %NULL for a pass without one
 * @error: %CS_PLUGIN_ERROR_NOT_READY when the pass has not been computed
 *   for this recording and parameter (and for this #CsPluginPassInfo.version),
 *   %CS_PLUGIN_ERROR_FAILED when its database cannot be opened
 *
 * The results of a finished pass: a read-only SQLite connection to the
 * database its callbacks wrote (cs_plugin_pass_get_db()), on which
 * #CsPluginPassInfo.prepare was called (its error is %CS_PLUGIN_ERROR_FAILED
 * here).  Query it with
 * prepared statements; they must be finalized before the document closes.
 * Main thread only.
 *
 * Returns: (transfer none) (nullable): the connection, owned by the
 *   document and open until it closes
 */
sqlite3           *cs_plugin_document_get_pass_db    (CsPluginDocument *document,
                                                      CsPlugin         *plugin,
                                                      const char       *pass,
                                                      const char       *param,
                                                      GError          **error);

/**
 * cs_plugin_document_request_pass:
 * @document: a document
 * @plugin: the plugin that owns the pass
 * @pass: the pass's #CsPluginPassInfo.name
 * @param: (nullable): its parameter (what #CsPluginPassInfo.list_events
 *   receives), %NULL for a pass without one
 *
 * Asks for a pass's results.  When they exist already (from this session
 * or an earlier one), #CsPluginDocumentHooks.pass_ready is called from
 * the main loop soon after; otherwise the window runs the pass in the
 * background, in an indexing worker process, with its progress and a
 * Cancel button, and calls pass_ready when it is done.  A failed pass is
 * shown to the user and pass_ready is not called.  Asking again while it
 * runs does nothing.  Main thread only; never blocks.
 */
void               cs_plugin_document_request_pass   (CsPluginDocument *document,
                                                      CsPlugin         *plugin,
                                                      const char       *pass,
                                                      const char       *param);

/**
 * cs_plugin_document_ensure_pass:
 * @document: a document
 * @plugin: the plugin that owns the pass
 * @pass: the pass's #CsPluginPassInfo.name
 * @param: (nullable): its parameter, %NULL for a pass without one
 * @cancellable: (nullable): stops the pass (%G_IO_ERROR_CANCELLED)
 * @error: %CS_PLUGIN_ERROR_USAGE when @param names an event or field the
 *   recording does not have, %CS_PLUGIN_ERROR_FAILED with the pass's own
 *   message when it failed, %G_IO_ERROR_CANCELLED
 *
 * Computes a pass's results now, in an indexing worker process, unless
 * they exist already, and waits (for the command line: a command's run
 * callback, see cs-plugin-cli.h).  Not for the window's main thread: use
 * cs_plugin_document_request_pass() there.
 *
 * Returns: %TRUE when the results can be read with
 *   cs_plugin_document_get_pass_db()
 */
gboolean           cs_plugin_document_ensure_pass    (CsPluginDocument *document,
                                                      CsPlugin         *plugin,
                                                      const char       *pass,
                                                      const char       *param,
                                                      GCancellable     *cancellable,
                                                      GError          **error);

/**
 * CsPluginVcpuState:
 * @CS_PLUGIN_VCPU_EXIT: the vCPU's host thread was out of the guest,
 *   handling an exit (kvm:kvm_exit .. the next kvm:kvm_entry of the
 *   thread, arch/x86/kvm/trace.h), and running on a host CPU (or the host
 *   recorded no sched_switch to say whether it ran)
 * @CS_PLUGIN_VCPU_NOT_RUNNING: the vCPU's host thread was not running on
 *   any host CPU (switched out by sched:sched_switch)
 *
 * Why a guest's vCPU was out of the guest, as its host recorded it.
 *
 * Since: plugin API 1.2
 */
typedef enum {
  CS_PLUGIN_VCPU_EXIT,
  CS_PLUGIN_VCPU_NOT_RUNNING,
} CsPluginVcpuState;

/**
 * CsPluginVcpuInterval:
 * @begin_ns: start (inclusive), ns of the guest recording's clock
 * @end_ns: end (exclusive), > @begin_ns
 * @state: what the host did with the vCPU
 * @reason: (nullable): the exit being handled, as the host's kvm_exit
 *   event prints its reason ("HLT", "EPT_VIOLATION", ...); for
 *   %CS_PLUGIN_VCPU_NOT_RUNNING the exit the thread was handling when it
 *   was switched out; %NULL when none is known.  Owned by the document,
 *   valid while it is open.
 *
 * A stretch of time a guest's vCPU spent out of the guest.
 *
 * Since: plugin API 1.2
 */
typedef struct {
  gint64 begin_ns;
  gint64 end_ns;
  CsPluginVcpuState state;
  const char *reason;
} CsPluginVcpuInterval;

/**
 * cs_plugin_document_has_vcpu_host:
 * @document: a recording
 *
 * Whether @document is a KVM guest whose host recording is open with it
 * (the guest's TIME_SHIFT option naming that host): the only case in
 * which cs_plugin_document_get_vcpu_out() can answer.  An analysis asks
 * this once before asking cs_plugin_document_get_vcpu_out() for many
 * spans, which a recording alone would each refuse.  Main thread.
 *
 * Since: plugin API 1.6
 *
 * Returns: %TRUE when the host's view of @document's vCPUs is at hand
 */
gboolean           cs_plugin_document_has_vcpu_host  (CsPluginDocument *document);

/**
 * cs_plugin_document_get_vcpu_out:
 * @document: a KVM guest's recording, shown with its host's (the window's
 *   other recordings, or cs_plugin_cli_add_recording() on the command line)
 * @vcpu: a guest CPU (vCPU N is the guest's CPU N)
 * @begin_ns: start of the span, ns of @document's clock
 * @end_ns: its end (exclusive), >= @begin_ns
 * @intervals: (element-type CsPluginVcpuInterval): where the parts of
 *   [@begin_ns, @end_ns) that @vcpu spent out of the guest are appended,
 *   in time order, not overlapping, clipped to the span
 * @exits_known: (out) (optional): whether the host's kvm_entry and
 *   kvm_exit events say for the whole span when @vcpu was in the guest;
 *   %FALSE when only the time it was not running is known (a host that
 *   recorded no kvm events for its thread, as under QEMU TCG, or a span
 *   before its first one): the intervals then hold every
 *   %CS_PLUGIN_VCPU_NOT_RUNNING part, and the exits only where known
 * @error: %CS_PLUGIN_ERROR_NOT_READY when the host's view does not tell:
 *   @document is not a guest whose host recording is open with it (the
 *   guest's TIME_SHIFT option naming that host), the host's GUEST option
 *   names no thread for @vcpu, the span reaches outside the host's
 *   recording, or nothing the host recorded (kvm events or sched_switch)
 *   says what the thread did over all of it
 *
 * The host's view of a guest's vCPU over a span of the guest's time: the
 * span goes to the host's clock as trace-cmd converts guest events (the
 * TIME_SHIFT option's per-vCPU offset and scaling), the host's kvm_entry,
 * kvm_exit and sched_switch of the vCPU's thread say when it was out of
 * the guest, and those edges come back to the guest's clock.  What is not
 * appended the vCPU spent in the guest (or, without @exits_known, in the
 * guest or handling exits).  The same figures as SQL's vcpu_out_ns() (the
 * sum of the intervals, when @exits_known) and vcpu_not_running_ns() (of
 * the %CS_PLUGIN_VCPU_NOT_RUNNING ones).  The first call reads the host's
 * kvm and sched_switch events once (about as long as reading its
 * records); later calls cost O(log n) plus the intervals appended.  Main
 * thread.
 *
 * Since: plugin API 1.2
 *
 * Returns: %FALSE with @error set when the host's view does not cover the
 *   span (nothing appended)
 */
gboolean           cs_plugin_document_get_vcpu_out   (CsPluginDocument *document,
                                                      guint             vcpu,
                                                      gint64            begin_ns,
                                                      gint64            end_ns,
                                                      GArray           *intervals,
                                                      gboolean         *exits_known,
                                                      GError          **error);

G_END_DECLS

/* A CPU's slices, idle time, interrupts and migrations, read from the
 * index's tables of them. */
#include "cs-plugin-cpu-tables.h"
