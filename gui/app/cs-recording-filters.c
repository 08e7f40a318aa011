/* cs-recording-filters.c: the file chooser filters for the recordings
 * Chronoscope reads, shared by File → Open and Compare with….
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Recordings are recognised by their content, not their names (see
 * index/import/cs-trace-file.c and index/import/); the patterns are only the names
 * such files usually have, so "All files" is always offered too.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-recording-filters.h"

typedef struct {
  const char *name;                 /* N_() */
  const char *patterns[7];          /* NULL-terminated */
  const char *mime_type;            /* or NULL */
} Filter;

static const Filter filters[] = {
  { N_("Trace recordings (trace.dat)"), { "*.dat", NULL }, NULL },
  { N_("Trace text (ftrace trace or trace_pipe, trace-cmd report, perf script)"),
    { "*.txt", "*.trace", "*.log", "trace", "trace_pipe", NULL }, "text/plain" },
  { N_("perf recordings (perf.data, read with perf script)"), { "perf.data*", "*.data", NULL }, NULL },
  { N_("Android systrace (HTML)"), { "*.html", "*.htm", NULL }, NULL },
  { N_("All files"), { "*", NULL }, NULL },
};

/**
 * cs_recording_filters_add:
 * @chooser: a file chooser (dialog or native) asking for a recording
 *
 * Adds one filter per kind of recording Chronoscope reads (trace.dat,
 * trace text, perf.data, systrace HTML) and "All files"; the first is
 * the chooser's current filter.
 */
void
cs_recording_filters_add (GtkFileChooser *chooser)
{
  g_return_if_fail (GTK_IS_FILE_CHOOSER (chooser));

  for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(filters[i].name));
      for (guint p = 0; filters[i].patterns[p] != NULL; p++)
        gtk_file_filter_add_pattern (filter, filters[i].patterns[p]);
      if (filters[i].mime_type != NULL)
        gtk_file_filter_add_mime_type (filter, filters[i].mime_type);
      gtk_file_chooser_add_filter (chooser, filter);
    }
}
