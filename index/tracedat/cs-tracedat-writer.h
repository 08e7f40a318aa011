/* cs-tracedat-writer.h: writes a trace-cmd trace.dat, file version 6.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-record-error.h"

G_BEGIN_DECLS

#define CS_TYPE_TRACEDAT_WRITER (cs_tracedat_writer_get_type ())
G_DECLARE_FINAL_TYPE (CsTracedatWriter, cs_tracedat_writer, CS, TRACEDAT_WRITER, GObject)

CsTracedatWriter *cs_tracedat_writer_new              (const char        *path,
                                                       guint              page_size_bytes,
                                                       guint              n_cpus);
const char       *cs_tracedat_writer_get_path         (CsTracedatWriter  *self);
void              cs_tracedat_writer_set_header_page  (CsTracedatWriter  *self,
                                                       GBytes            *text);
void              cs_tracedat_writer_set_header_event (CsTracedatWriter  *self,
                                                       GBytes            *text);
void              cs_tracedat_writer_add_ftrace_format (CsTracedatWriter *self,
                                                       GBytes            *format);
void              cs_tracedat_writer_add_event_format (CsTracedatWriter  *self,
                                                       const char        *system,
                                                       GBytes            *format);
void              cs_tracedat_writer_set_kallsyms     (CsTracedatWriter  *self,
                                                       GBytes            *text);
void              cs_tracedat_writer_set_printk_formats (CsTracedatWriter *self,
                                                       GBytes            *text);
void              cs_tracedat_writer_set_cmdlines     (CsTracedatWriter  *self,
                                                       GBytes            *text);
void              cs_tracedat_writer_set_trace_clock  (CsTracedatWriter  *self,
                                                       const char        *trace_clock_text);
void              cs_tracedat_writer_add_option       (CsTracedatWriter  *self,
                                                       guint16            id,
                                                       GBytes            *data);
void              cs_tracedat_writer_set_cpu_data     (CsTracedatWriter  *self,
                                                       guint              cpu,
                                                       int                fd,
                                                       guint64            size_bytes);
gboolean          cs_tracedat_writer_finish           (CsTracedatWriter  *self,
                                                       GCancellable      *cancellable,
                                                       GError           **error);
typedef struct _CsTracedatGrowth CsTracedatGrowth;

gboolean          cs_tracedat_writer_finish_growing   (CsTracedatWriter  *self,
                                                       CsTracedatGrowth **growth,
                                                       GCancellable      *cancellable,
                                                       GError           **error);
void              cs_tracedat_growth_free             (CsTracedatGrowth  *growth);
void              cs_tracedat_writer_abort            (CsTracedatWriter  *self);
void              cs_tracedat_writer_set_owner        (CsTracedatWriter  *self,
                                                       gint64             uid,
                                                       gint64             gid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTracedatGrowth, cs_tracedat_growth_free)

G_END_DECLS
