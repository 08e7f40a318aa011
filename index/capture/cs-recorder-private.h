/* cs-recorder-private.h: CsRecorder's fields, shared by cs-recorder.c (its
 * life: start, stop, statistics) and cs-recorder-setup.c (tracefs and the
 * command).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <tracefs.h>

#include "cs-record-private.h"
#include "cs-recorder.h"
#include "cs-tracedat-writer.h"

G_BEGIN_DECLS

struct _CsRecorder
{
  GObject parent_instance;

  /* immutable after start() */
  CsRecordOptions *options;
  char *tracing_dir;
  char *instance_name;
  struct tracefs_instance *instance;
  GPtrArray *events;              /* CsRecordEvent */
  guint n_cpus;
  guint page_size;
  guint kernel_long_size;
  CsTracedatWriter *writer;
  GBytes *kallsyms;               /* nullable, for every writer */
  GBytes *printk_formats;         /* nullable */
  GPtrArray *streams;             /* CsRecordStream, index = CPU */
  char *trace_clock_text;
  gboolean tracer_set;
  GPtrArray *warnings;            /* char*, NULL-terminated */
  gboolean command_stdin_null;

  /* main thread */
  CsRecorderState state;
  gint64 start_us;
  gint64 stop_us;
  GPid command_pid;
  int command_sync_fd;
  gboolean command_exited;
  int command_status;
  guint command_watch_id;
  guint duration_id;
  guint health_id;
  guint health_ticks;
  GHashTable *comms;              /* pid → comm; the finishing thread's once stopping */
  GList *waiters;                 /* GTask */
  GError *error;
  GArray *final_stats;            /* CsRecordCpuStats, once stopped */
  char **final_stats_text;        /* per_cpu/cpuN/stats at the end */
  GCancellable *cancellable;
  CsTracedatGrowth *snapshots;    /* the live snapshots' layout (cs-recorder-snapshot.c) */
};

/* cs-recorder-setup.c */
char     *_cs_recorder_instance_file      (CsRecorder  *self,
                                           const char  *file);
int       _cs_recorder_instance_write     (CsRecorder  *self,
                                           const char  *file,
                                           const char  *value);
char     *_cs_recorder_instance_read      (CsRecorder  *self,
                                           const char  *file);
void      _cs_recorder_add_warning        (CsRecorder  *self,
                                           const char  *message);
gboolean  _cs_recorder_create_instance    (CsRecorder  *self,
                                           GError     **error);
gboolean  _cs_recorder_configure_instance (CsRecorder  *self,
                                           GError     **error);
void      _cs_recorder_restore_tracefs    (CsRecorder  *self);
gboolean  _cs_recorder_spawn_command      (CsRecorder  *self,
                                           GError     **error);
void      _cs_recorder_release_command    (CsRecorder  *self);
void      _cs_recorder_kill_command       (CsRecorder  *self,
                                           int          signo);

/* cs-recorder.c */
CsTracedatWriter *_cs_recorder_new_writer  (CsRecorder        *self,
                                            const char        *path,
                                            GError           **error);
void      _cs_recorder_add_options        (CsRecorder        *self,
                                           CsTracedatWriter  *writer,
                                           char             **stats_text);

G_END_DECLS
