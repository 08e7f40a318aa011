/* test-export-dialog.c: File → Export… in a real window, under Xvfb.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Runs the real CsWindow in-process, as test-task-plots.c does, on
 * tests/data/sched-irq-v6.dat.  The export's plots are compared with the
 * window's own timeline pixels (GSK's cairo renderer under Xvfb, the
 * export's image surface: the same renderer at the same size, so only
 * antialiasing may differ), and the range choice with the markers.
 */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>
#include <glib/gstdio.h>

#include "cs-cli.h"
#include "cs-export-dialog.h"
#include "cs-timeline.h"
#include "cs-window-actions.h"
#include "cs-window.h"
#include "gui-test-util.h"
#include "cs-test-hook.h"

static CsExportDialog *
open_dialog (CsWindow *window)
{
  GtkWindow *dialog;

  cs_test_activate (window, "export", NULL);
  dialog = _cs_window_actions_get_dialog (window, "export");
  g_assert_true (CS_IS_EXPORT_DIALOG (dialog));
  cs_test_wait_until (cs_test_widget_is_drawable, dialog, "the export dialog");
  return CS_EXPORT_DIALOG (dialog);
}

static gboolean
is_toast_label (GtkWidget *widget, gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0 &&
         gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY) != NULL;
}

static gboolean
window_shows_exported_toast (gpointer window)
{
  return cs_test_find_where (window, is_toast_label, "Exported to “background.png”") != NULL;
}

/* The PNG of the visible span at the timeline's width holds the window's
 * timeline pixels below its title line. */
static void
test_png_matches_window (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *png = g_build_filename (cs_test_work_dir, "view.png", NULL);
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  g_autoptr(GError) error = NULL;
  CsExportDialog *dialog;
  CsExportOptions options;
  CsTestPixels pixels;
  cairo_surface_t *exported;
  const guchar *data;
  int stride, y0, rows;
  guint n_differ = 0, n_compared = 0;

  cs_test_pixels_init (&pixels, GTK_WIDGET (timeline));
  dialog = open_dialog (window);
  cs_export_dialog_set_format (dialog, CS_EXPORT_PNG);
  cs_export_dialog_get_options (dialog, &options);
  g_assert_cmpint (options.begin_ns, ==, cs_timeline_get_begin_ns (timeline));
  g_assert_cmpint (options.end_ns, ==, cs_timeline_get_end_ns (timeline));
  /* The width the dialog offers is the timeline's. */
  g_assert_cmpint (options.width_px, ==, pixels.width);
  g_assert_true (cs_export_dialog_write (dialog, png, &error));
  g_assert_no_error (error);

  exported = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (exported), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (exported), ==, pixels.width);
  data = cairo_image_surface_get_data (exported);
  stride = cairo_image_surface_get_stride (exported);
  y0 = (int) cs_export_get_timeline_y (&options);
  rows = MIN (pixels.height,
              cs_timeline_renderer_get_natural_height (cs_timeline_get_renderer (timeline)));
  g_assert_cmpint (cairo_image_surface_get_height (exported), >, y0 + rows);
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < pixels.width; x++)
      {
        const guchar *p = pixels.pixels + (gsize) y * pixels.stride + (gsize) x * 4;
        guint32 window_rgb = ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
        guint32 export_rgb = *(const guint32 *) (data + (y + y0) * stride + 4 * x) & 0xffffff;

        n_compared++;
        n_differ += !cs_test_same_color (window_rgb, export_rgb, 8);
      }
  g_test_message ("%u of %u pixels differ", n_differ, n_compared);
  if (n_differ > n_compared / 200)
    {
      g_autofree char *out = g_build_filename (cs_test_screenshot_dir, "export-window.out.png", NULL);

      cairo_surface_write_to_png (exported, out);
      cs_test_save_screenshot (GTK_WIDGET (timeline), "export-window-timeline");
      g_error ("%u of %u pixels of the export differ from the window's (written to %s)",
               n_differ, n_compared, out);
    }

  cairo_surface_destroy (exported);
  cs_test_pixels_clear (&pixels);
  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_test_destroy_window (window);
}

/* With both markers placed the range A..B is offered and exported, as a
 * PDF of the chosen page; without them only the visible span. */
static void
test_marker_range (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *pdf = g_build_filename (cs_test_work_dir, "range.pdf", NULL);
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  CsTimeline *timeline = cs_window_get_timeline (window);
  gint64 begin_ns = cs_timeline_get_begin_ns (timeline);
  gint64 span_ns = cs_timeline_get_end_ns (timeline) - begin_ns;
  g_autoptr(GError) error = NULL;
  CsExportDialog *dialog;
  CsExportOptions options;

  dialog = open_dialog (window);
  cs_export_dialog_set_range (dialog, CS_EXPORT_RANGE_MARKERS);
  cs_export_dialog_get_options (dialog, &options);
  g_assert_cmpint (options.begin_ns, ==, begin_ns);
  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_test_spin (50);

  cs_timeline_set_marker_ns (timeline, CS_MARKER_A, begin_ns + span_ns / 2);
  cs_timeline_set_marker_ns (timeline, CS_MARKER_B, begin_ns + span_ns / 4);
  dialog = open_dialog (window);
  cs_export_dialog_set_range (dialog, CS_EXPORT_RANGE_MARKERS);
  cs_export_dialog_set_format (dialog, CS_EXPORT_PDF);
  cs_test_spin (100);
  cs_test_save_screenshot (GTK_WIDGET (dialog), "export-dialog.png");
  cs_export_dialog_get_options (dialog, &options);
  g_assert_cmpint (options.begin_ns, ==, begin_ns + span_ns / 4);
  g_assert_cmpint (options.end_ns, ==, begin_ns + span_ns / 2);
  g_assert_cmpint (options.marker_a_ns, ==, begin_ns + span_ns / 2);
  g_assert_cmpfloat (options.page_width_mm, ==, 297);
  g_assert_true (cs_export_dialog_write (dialog, pdf, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));

  gtk_window_destroy (GTK_WINDOW (dialog));
  cs_test_destroy_window (window);
}

static gboolean
export_idle (gpointer data)
{
  return !cs_export_dialog_is_busy (CS_EXPORT_DIALOG (data));
}

/* Export… runs the slow part in a worker: the dialog shows it is busy and
 * Cancel stops it without writing a file, leaving the dialog open; an
 * export left to run writes the same picture as the synchronous one and
 * closes the dialog, and the window's toast names the file.  CS_EXPORT_TEST_HANG holds the worker until Cancel. */
static void
test_cancel_then_finish (void)
{
  g_autofree char *path = cs_test_find_recording ();
  g_autofree char *cancelled = g_build_filename (cs_test_work_dir, "cancelled.png", NULL);
  g_autofree char *background = g_build_filename (cs_test_work_dir, "background.png", NULL);
  g_autofree char *direct = g_build_filename (cs_test_work_dir, "direct.png", NULL);
  g_autofree char *background_bytes = NULL;
  g_autofree char *direct_bytes = NULL;
  gsize background_len = 0, direct_len = 0;
  CsWindow *window = cs_test_open_window (path, 1200, 760);
  g_autoptr(GError) error = NULL;
  g_autoptr(CsExportDialog) dialog = NULL;
  CsExportDialog *second;

  dialog = g_object_ref (open_dialog (window));
  cs_export_dialog_set_format (dialog, CS_EXPORT_PNG);

  cs_test_hook_set ("CS_EXPORT_TEST_HANG", TRUE);
  cs_export_dialog_start (dialog, cancelled);
  g_assert_true (cs_export_dialog_is_busy (dialog));
  cs_test_spin (20);
  /* Still working: the hook holds it until Cancel; the progress shows. */
  g_assert_true (cs_export_dialog_is_busy (dialog));
  g_assert_true (gtk_widget_get_visible (cs_export_dialog_get_progress (dialog)));
  gtk_widget_activate (cs_export_dialog_get_cancel_button (dialog));
  cs_test_wait_until (export_idle, dialog, "the cancelled export to stop");
  g_assert_false (g_file_test (cancelled, G_FILE_TEST_EXISTS));
  g_assert_false (gtk_widget_get_visible (cs_export_dialog_get_progress (dialog)));
  /* Cancel stopped the work; it did not close the dialog. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  cs_test_hook_set ("CS_EXPORT_TEST_HANG", FALSE);

  cs_export_dialog_start (dialog, background);
  cs_test_wait_until (export_idle, dialog, "the export to finish");
  g_assert_true (g_file_test (background, G_FILE_TEST_IS_REGULAR));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  /* The window tells what was written (win.show-toast). */
  cs_test_wait_until (window_shows_exported_toast, window, "the window's toast about the export");

  second = open_dialog (window);
  cs_export_dialog_set_format (second, CS_EXPORT_PNG);
  g_assert_true (cs_export_dialog_write (second, direct, &error));
  g_assert_no_error (error);
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_true (g_file_get_contents (background, &background_bytes, &background_len, NULL));
  g_assert_true (g_file_get_contents (direct, &direct_bytes, &direct_len, NULL));
  g_assert_cmpmem (background_bytes, background_len, direct_bytes, direct_len);
  cs_test_destroy_window (window);
}

int
main (int argc, char *argv[])
{
  /* The window runs /proc/self/exe index-worker FILE: be that worker. */
  if (argc > 1 && strcmp (argv[1], "index-worker") == 0)
    return cs_cli_run (argc, argv);

  cs_test_gui_init (&argc, &argv, "test-export-dialog", TRUE);

  g_test_add_func ("/cs/gui/ExportDialog/png-matches-window", test_png_matches_window);
  g_test_add_func ("/cs/gui/ExportDialog/marker-range", test_marker_range);
  g_test_add_func ("/cs/gui/ExportDialog/cancel-then-finish", test_cancel_then_finish);

  return cs_test_gui_run ();
}
