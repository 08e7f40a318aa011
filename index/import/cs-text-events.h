/* cs-text-events.h: event formats for trace text, and records built from
 * the text's fields.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Known events (sched_switch, sched_waking/wakeup/wakeup_new, process
 * fork/exit/free/exec, migrate_task, stat_runtime, irq and softirq,
 * raw_syscalls, cpu_idle, cpu_frequency, print, function, funcgraph) get
 * the fields of the kernel's events/<system>/<event>/format (as Linux 6.x
 * lays them out), filled from the text's `key=value` pairs or from the
 * layouts trace-cmd's plugins print.  Any other event gets a format of its
 * own with one string field, `text`, holding what the line said.  Function
 * names become addresses of a made-up kallsyms, so that `%ps` prints them.
 */
#pragma once

#include <glib.h>

#include "cs-text-line.h"
#include "cs-tracedat-writer.h"

G_BEGIN_DECLS

/**
 * CS_TEXT_EVENTS_MAX_RECORD_BYTES:
 *
 * The largest record cs_text_events_encode() makes; longer text is cut.
 * Ring-buffer pages hold 4080 bytes of events (4096-byte pages).
 */
#define CS_TEXT_EVENTS_MAX_RECORD_BYTES 4000

typedef struct _CsTextEvents CsTextEvents;

CsTextEvents *cs_text_events_new          (void);
void          cs_text_events_free         (CsTextEvents     *self);
gboolean      cs_text_events_encode       (CsTextEvents     *self,
                                           const CsTextLine *line,
                                           const char       *more_text,
                                           GByteArray       *out);
guint         cs_text_events_get_n_types  (CsTextEvents     *self);
void          cs_text_events_add_to_writer (CsTextEvents    *self,
                                           CsTracedatWriter *writer);
guint64       cs_text_events_symbol_address (CsTextEvents   *self,
                                           const char       *name,
                                           gssize            len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextEvents, cs_text_events_free)

G_END_DECLS
