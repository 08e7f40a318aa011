/* cs-cli-render.c: `chronoscope render FILE -o OUT.png|OUT.svg|OUT.pdf`.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Draws the view the options describe (CPU plots, task plots, plugin rows,
 * span, markers) through cs_export_write(), the code the window's
 * File → Export… uses: the file's kind comes from its extension.  A PNG or
 * SVG is --width × --height px (height by default: room for every plot and
 * the legend); a PDF is one page of --page (a4, a4-landscape, 16:9 or
 * WxHmm), or without --page the px size at 96 dpi.  --plain leaves out the
 * title line, the markers' letters and the legend: the window's timeline
 * pixels, as the tests of the plots' layout read them.  --add FILE draws
 * more recordings on the same axis (cs-cli-render-streams.c).
 */
#include "config.h"

#include <inttypes.h>

#include <stdio.h>

#include <glib/gi18n.h>

#include "cs-cli-plugins.h"
#include "cs-cli-private.h"
#include "cs-cli-progress.h"
#include "cs-cli-render-streams.h"
#include "cs-export.h"
#include "cs-plot-args.h"
#include "cs-timeline-renderer.h"

#define DEFAULT_RENDER_WIDTH_PX 1600

/* Checks what can be checked before the recording is read. */
static gboolean
check_options (const char       *output,
               const char       *page,
               int               width_px,
               int               height_px,
               CsExportOptions  *options,
               GError          **error)
{
  if (output == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                           _("Missing -o OUT.png, OUT.svg or OUT.pdf (see --help)"));
      return FALSE;
    }
  if (!cs_export_format_from_path (output, &options->format, error))
    return FALSE;
  if (page != NULL)
    {
      if (options->format != CS_EXPORT_PDF)
        {
          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                               _("--page is only for a PDF (-o OUT.pdf)"));
          return FALSE;
        }
      if (!cs_export_parse_page (page, &options->page_width_mm, &options->page_height_mm, error))
        return FALSE;
    }
  if (width_px < 1 || width_px > CS_EXPORT_MAX_SIZE_PX ||
      height_px < 0 || height_px > CS_EXPORT_MAX_SIZE_PX)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--width and --height must be between 1 and %d pixels"),
                   CS_EXPORT_MAX_SIZE_PX);
      return FALSE;
    }
  options->width_px = width_px;
  options->height_px = height_px;
  return TRUE;
}

int
cs_cli_render (int    argc,
               char **argv)
{
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsTimelineRenderer) renderer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *page = NULL;
  const char *path = NULL;
  gint64 begin_ns = G_MININT64;
  gint64 end_ns = G_MININT64;
  gint64 marker_a_ns = CS_EXPORT_NO_MARKER;
  gint64 marker_b_ns = CS_EXPORT_NO_MARKER;
  int width_px = DEFAULT_RENDER_WIDTH_PX;
  int height_px = 0;
  gboolean plain = FALSE;
  gboolean written;
  g_autofree char *cpu_list = NULL;
  g_autofree char *pid_list = NULL;
  g_autofree char *comm_list = NULL;
  g_autoptr(GArray) requested_cpus = NULL;
  g_autoptr(GArray) cpus = NULL;
  g_autoptr(GArray) pids = NULL;
  g_auto(GStrv) comms = NULL;
  g_auto(GStrv) plugin_rows = NULL;
  g_auto(GStrv) added = NULL;
  gboolean span_given;
  g_autoptr(CsPluginDocument) plugins = NULL;
  CsExportOptions options = { 0 };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the picture to FILE: .png, .svg or .pdf"), N_("FILE") },
    { "begin", 0, 0, G_OPTION_ARG_INT64, &begin_ns, N_("First visible time, ns in the trace clock (default: the first event)"), N_("NS") },
    { "end", 0, 0, G_OPTION_ARG_INT64, &end_ns, N_("End of the visible span, exclusive (default: just after the last event)"), N_("NS") },
    { "width", 0, 0, G_OPTION_ARG_INT, &width_px, N_("Width of the picture in pixels (default: 1600)"), N_("PX") },
    { "height", 0, 0, G_OPTION_ARG_INT, &height_px, N_("Height of the picture in pixels (default: room for every plot and the legend)"), N_("PX") },
    { "page", 0, 0, G_OPTION_ARG_STRING, &page, N_("PDF page size: a4, a4-landscape, 16:9 or WxHmm (default: the pixel size at 96 dpi)"), N_("SIZE") },
    { "marker-a", 0, 0, G_OPTION_ARG_INT64, &marker_a_ns, N_("Draw marker A at this time, ns in the trace clock"), N_("NS") },
    { "marker-b", 0, 0, G_OPTION_ARG_INT64, &marker_b_ns, N_("Draw marker B at this time (with B − A when A is given)"), N_("NS") },
    { "plain", 0, 0, G_OPTION_ARG_NONE, &plain, N_("Only the plots, as the window's timeline draws them: no title line, marker letters or legend"), NULL },
    { "cpu", 0, 0, G_OPTION_ARG_STRING, &cpu_list, N_("CPU plots to draw, as 1,4-7 (default: every CPU with events)"), N_("LIST") },
    { "pid", 0, 0, G_OPTION_ARG_STRING, &pid_list, N_("Add task plots for these pids"), N_("PID[,PID]") },
    { "task", 0, 0, G_OPTION_ARG_STRING, &comm_list, N_("Add task plots for the tasks with these command names"), N_("COMM[,COMM]") },
    { "row", 0, 0, G_OPTION_ARG_STRING_ARRAY, &plugin_rows, N_("Add the row KEY of the plugin PLUGIN below the plots (repeatable)"), N_("PLUGIN:KEY") },
    { "add", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &added, N_("Draw the recording FILE too, on the same time axis, as the window shows several (repeatable)"), N_("FILE") },
    { NULL }
  };

  if (!_cs_cli_parse ("render", _("FILE -o OUT.png|OUT.svg|OUT.pdf"),
                      _("Draws the CPU and task plots of a recording, as the window shows "
                        "them, with a title line, markers and a legend of the tasks, into "
                        "a PNG, SVG or PDF file (the kind follows the file name)."),
                      entries, argc, argv, &path))
    return 1;

  if (!check_options (output, page, width_px, height_px, &options, &error) ||
      (cpu_list != NULL && (requested_cpus = cs_plot_args_parse_cpus (cpu_list, &error)) == NULL) ||
      (pids = pid_list != NULL ? cs_plot_args_parse_pids (pid_list, &error)
                               : g_array_new (FALSE, FALSE, sizeof (gint32))) == NULL)
    {
      _cs_cli_fail ("render", error->message);
      return 1;
    }

  document = _cs_cli_load_document ("render", path);
  if (document == NULL)
    return 1;

  span_given = begin_ns != G_MININT64 || end_ns != G_MININT64;
  if (begin_ns == G_MININT64)
    begin_ns = cs_document_get_first_ns (document);
  if (end_ns == G_MININT64)
    end_ns = MAX (cs_document_get_last_ns (document) + 1, begin_ns + 1);
  if (end_ns <= begin_ns)
    {
      g_autofree char *message =
        g_strdup_printf (_("--end (%" PRId64 ") must be after --begin (%" PRId64 ")"),
                         end_ns, begin_ns);
      _cs_cli_fail ("render", message);
      return 1;
    }
  options.begin_ns = begin_ns;
  options.end_ns = end_ns;
  options.marker_a_ns = marker_a_ns;
  options.marker_b_ns = marker_b_ns;
  options.plain = plain;

  renderer = cs_timeline_renderer_new (document);
  cpus = cs_plot_args_select_cpus (document, requested_cpus);
  cs_timeline_renderer_set_cpus (renderer, (const guint *) cpus->data, cpus->len);
  comms = cs_plot_args_split_comms (comm_list);
  cs_plot_args_add_tasks_by_comm (document, (const char * const *) comms, pids);
  cs_timeline_renderer_set_task_plots (renderer, (const gint32 *) pids->data, pids->len);
  plugins = cs_cli_plugins_open (document, NULL, &error);
  if (plugins == NULL)
    {
      _cs_cli_fail_file ("render", path, error);
      return 1;
    }
  cs_timeline_renderer_set_plugins (renderer, plugins);
  if (!cs_cli_plugins_set_rows (renderer, plugins, (const char * const *) plugin_rows, &error))
    {
      _cs_cli_fail ("render", error->message);
      return 1;
    }

  if (added != NULL)
    {
      /* every recording's events on the axis unless told */
      if (!span_given)
        options.begin_ns = options.end_ns = 0;
      return cs_cli_render_streams (renderer, (const char * const *) added, &options, output);
    }

  {
    g_autofree char *basename = g_path_get_basename (output);
    /* TRANSLATORS: the progress line on stderr, %s is the picture's name */
    g_autofree char *label = g_strdup_printf (_("Drawing %s"), basename);
    g_autoptr(CsCliProgress) progress = cs_cli_progress_new_activity (label);

    written = cs_export_write (renderer, &options, output, &error);
  }
  if (!written)
    {
      if (error->domain == G_FILE_ERROR ||
          error->domain == CS_EXPORT_ERROR)
        _cs_cli_fail ("render", error->message);
      else
        _cs_cli_fail_file ("render", path, error);
      return 1;
    }
  return 0;
}
