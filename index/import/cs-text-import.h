/* cs-text-import.h: trace text (ftrace, trace-cmd report, perf script)
 * converted into a trace.dat v6 that the rest of Chronoscope reads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-index-progress.h"

G_BEGIN_DECLS

/**
 * CS_TEXT_IMPORT_FORMATS:
 *
 * What Chronoscope opens, for messages about a file that is none of them.
 * Marked with N_() for translators: use it as _(CS_TEXT_IMPORT_FORMATS), in a
 * file that includes <glib/gi18n-lib.h>.
 */
#define CS_TEXT_IMPORT_FORMATS \
  N_("trace-cmd recordings (trace.dat v6 and v7), ftrace text (tracefs trace, trace_pipe, " \
  "function_graph), trace-cmd report output, perf.data and perf script output of tracepoints, " \
  "Android systrace HTML")

/**
 * CsTextImportReport:
 * @format: what the text was, for people: "ftrace text (trace_pipe)",
 *   "ftrace text (trace)", "trace-cmd report text", "perf script text"
 * @n_cpus: CPUs of the converted recording
 * @n_lines: lines read
 * @n_events: events converted
 * @n_bad_lines: lines that were none of the understood kinds
 * @first_bad_line: the line number (1-based) of the first of them, 0 if none
 * @first_bad_text: (nullable): its first 160 bytes
 * @n_late: events out of time order by more than the reordering window,
 *   placed at the time of the event before them
 *
 * What a conversion found, kept next to the converted file.
 */
typedef struct {
  char *format;
  guint n_cpus;
  guint64 n_lines;
  guint64 n_events;
  guint64 n_bad_lines;
  guint64 first_bad_line;
  char *first_bad_text;
  guint64 n_late;
} CsTextImportReport;

void      cs_text_import_report_free  (CsTextImportReport *report);

gboolean  cs_text_import_sniff        (const char          *path,
                                       char               **format,
                                       GError             **error);
char     *cs_text_import_ensure       (const char          *path,
                                       CsIndexProgressFunc  progress,
                                       gpointer             user_data,
                                       GCancellable        *cancellable,
                                       CsTextImportReport **report,
                                       GError             **error);
gboolean  cs_text_import_convert      (const char          *path,
                                       const char          *out_path,
                                       CsIndexProgressFunc  progress,
                                       gpointer             user_data,
                                       GCancellable        *cancellable,
                                       CsTextImportReport **report,
                                       GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextImportReport, cs_text_import_report_free)

G_END_DECLS
