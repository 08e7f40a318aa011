/* cs-export-dialog.c: File → Export…, the view as PNG, SVG or PDF.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A small modal window over a CsWindow: the format, the range (the visible
 * span, or markers A..B when both are placed), the size in px (PNG, SVG)
 * or the page (PDF), then a GtkFileChooserNative (GTK 4.8 has no
 * GtkFileDialog) for the file.  The picture is the window's own timeline
 * renderer (its plots, plugin rows and event filter) drawn by
 * cs_export_write(), the code `chronoscope render` uses, with the window's
 * markers.  The few widgets are built in code: a template would hold less
 * than the code that fills it.
 *
 * The legend's tasks (the range statistics of the span: seconds for the
 * whole of a large recording) are computed in a worker thread (GTask) on
 * a CsDocument of its own, opened from the same index, while the dialog
 * shows a spinner and its Cancel button stops the work (the dialog stays,
 * no file is written); the drawing itself then runs on the main thread
 * with the window's renderer (a frame's work).
 *
 * CS_EXPORT_TEST_HANG (tests only): the worker waits until it is
 * cancelled, so that a test can see the progress and press Cancel.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-export-dialog.h"
#include "cs-test-hook.h"
#include "cs-timeline.h"

/* The page choices, in the order of the page drop-down; NULL: px size. */
static const char * const page_names[] = { NULL, "a4-landscape", "a4", "16:9" };

struct _CsExportDialog
{
  GtkWindow parent_instance;

  /* template widgets (cs-export-dialog.ui) */
  GtkDropDown *format;
  GtkCheckButton *range_visible;
  GtkCheckButton *range_markers;
  GtkSpinButton *width;
  GtkSpinButton *height;
  GtkDropDown *page;
  GtkWidget *form;
  GtkWidget *busy_box;
  GtkSpinner *spinner;
  GtkWidget *export_button;
  GtkWidget *cancel_button;

  /* owned: the export that runs, if any; the worker reads the paths,
   * the span and test_hang, which stay as they are while it runs */
  GCancellable *cancellable;
  char *path;
  CsExportOptions options;
  char *trace_path;
  char *index_path;
  char *identity;
  gboolean test_hang;           /* CS_EXPORT_TEST_HANG */
  gboolean disposed;

  /* borrowed */
  CsTimeline *timeline;         /* the view exported: its window outlives us */
};

G_DEFINE_FINAL_TYPE (CsExportDialog, cs_export_dialog, GTK_TYPE_WINDOW)

static CsTimeline *
get_timeline (CsExportDialog *self)
{
  return self->timeline;
}

static gboolean
markers_placed (CsExportDialog *self)
{
  return cs_timeline_get_marker_ns (get_timeline (self), CS_MARKER_A) != CS_MARKER_UNSET &&
         cs_timeline_get_marker_ns (get_timeline (self), CS_MARKER_B) != CS_MARKER_UNSET &&
         cs_timeline_get_marker_ns (get_timeline (self), CS_MARKER_A) !=
         cs_timeline_get_marker_ns (get_timeline (self), CS_MARKER_B);
}

static void
update_sensitivity (CsExportDialog *self)
{
  gboolean pdf = gtk_drop_down_get_selected (self->format) == CS_EXPORT_PDF;
  gboolean pdf_page = pdf && gtk_drop_down_get_selected (self->page) != 0;

  gtk_widget_set_sensitive (GTK_WIDGET (self->page), pdf);
  gtk_widget_set_sensitive (GTK_WIDGET (self->width), !pdf_page);
  gtk_widget_set_sensitive (GTK_WIDGET (self->height), !pdf_page);
  gtk_widget_set_sensitive (GTK_WIDGET (self->range_markers), markers_placed (self));
}

/**
 * cs_export_dialog_get_options:
 * @self: a #CsExportDialog
 * @options: (out caller-allocates): what the dialog's choices export
 *
 * The span is the timeline's visible span, or A..B (ordered) when that
 * range is chosen and both markers are placed; the window's markers are
 * drawn.  Main thread.
 */
void
cs_export_dialog_get_options (CsExportDialog  *self,
                              CsExportOptions *options)
{
  CsTimeline *timeline = get_timeline (self);
  guint page = gtk_drop_down_get_selected (self->page);
  gint64 a_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_A);
  gint64 b_ns = cs_timeline_get_marker_ns (timeline, CS_MARKER_B);

  g_return_if_fail (CS_IS_EXPORT_DIALOG (self));

  cs_export_options_init (options, cs_timeline_get_document (timeline));
  options->format = gtk_drop_down_get_selected (self->format);
  options->width_px = gtk_spin_button_get_value_as_int (self->width);
  options->height_px = gtk_spin_button_get_value_as_int (self->height);
  options->begin_ns = cs_timeline_get_begin_ns (timeline);
  options->end_ns = cs_timeline_get_end_ns (timeline);
  if (gtk_check_button_get_active (self->range_markers) && markers_placed (self))
    {
      options->begin_ns = MIN (a_ns, b_ns);
      options->end_ns = MAX (a_ns, b_ns);
    }
  options->marker_a_ns = a_ns;
  options->marker_b_ns = b_ns;
  if (options->format == CS_EXPORT_PDF && page < G_N_ELEMENTS (page_names) && page_names[page] != NULL)
    cs_export_parse_page (page_names[page], &options->page_width_mm, &options->page_height_mm, NULL);
}

/**
 * cs_export_dialog_write:
 * @self: a #CsExportDialog
 * @path: the file to write (its extension does not matter: the dialog's
 *   format does)
 * @error: as cs_export_write()
 *
 * Writes the dialog's export with the window's timeline renderer, on the
 * main thread (a frame's work: the renderer reads one summary per pixel
 * column).
 *
 * Returns: whether the file was written
 */
gboolean
cs_export_dialog_write (CsExportDialog  *self,
                        const char      *path,
                        GError         **error)
{
  CsExportOptions options;

  g_return_val_if_fail (CS_IS_EXPORT_DIALOG (self), FALSE);

  cs_export_dialog_get_options (self, &options);
  return cs_export_write (cs_timeline_get_renderer (get_timeline (self)), &options, path, error);
}

/**
 * cs_export_dialog_set_format:
 * @self: a #CsExportDialog
 * @format: the format to choose
 */
void
cs_export_dialog_set_format (CsExportDialog *self,
                             CsExportFormat  format)
{
  g_return_if_fail (CS_IS_EXPORT_DIALOG (self));
  gtk_drop_down_set_selected (self->format, format);
}

/**
 * cs_export_dialog_set_range:
 * @self: a #CsExportDialog
 * @range: the range to choose; %CS_EXPORT_RANGE_MARKERS is honoured only
 *   while both markers are placed
 */
void
cs_export_dialog_set_range (CsExportDialog *self,
                            CsExportRange   range)
{
  g_return_if_fail (CS_IS_EXPORT_DIALOG (self));
  gtk_check_button_set_active (range == CS_EXPORT_RANGE_MARKERS ? self->range_markers
                                                                 : self->range_visible, TRUE);
}

static void
show_error (CsExportDialog *self, const GError *error)
{
  GtkWidget *message = gtk_message_dialog_new (GTK_WINDOW (self),
                                               GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s",
                                               _("Could not export the view"));

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s", error->message);
  g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (message));
}

/* ------------------------------------------------------------------------ */
/* Exporting in the background                                              */

static void
set_busy (CsExportDialog *self,
          gboolean        busy)
{
  gtk_widget_set_sensitive (self->form, !busy);
  gtk_widget_set_sensitive (self->export_button, !busy);
  gtk_widget_set_visible (self->busy_box, busy);
  gtk_spinner_set_spinning (self->spinner, busy);
}

/* Worker thread: the legend's tasks, on a document of its own. */
static void
legend_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CsExportDialog *self = source;
  g_autoptr(CsDocument) document = NULL;
  GError *error = NULL;
  GArray *tasks;

  if (self->test_hang)
    cs_test_hook_hold_until_cancelled (cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, &error) ||
      (document = cs_document_open_as (self->trace_path, self->index_path, self->identity,
                                       &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  tasks = cs_export_compute_legend_tasks (document, self->options.begin_ns, self->options.end_ns,
                                          cancellable, &error);
  if (tasks == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tasks, (GDestroyNotify) g_array_unref);
}

static void
legend_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  CsExportDialog *self = CS_EXPORT_DIALOG (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) tasks = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *path = g_steal_pointer (&self->path);

  g_clear_object (&self->cancellable);
  if (self->disposed)
    return;
  set_busy (self, FALSE);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;     /* Cancel: the dialog stays for another try */

  /* As the synchronous export: a span the index cannot answer for leaves
   * only the task plots in the legend. */
  self->options.legend_tasks = tasks;
  if (!cs_export_write (cs_timeline_get_renderer (get_timeline (self)), &self->options, path, &error))
    {
      self->options.legend_tasks = NULL;
      show_error (self, error);
      return;
    }
  self->options.legend_tasks = NULL;
  {
    g_autofree char *basename = g_path_get_basename (path);
    /* TRANSLATORS: a toast; %s is the exported file's name */
    g_autofree char *title = g_strdup_printf (_("Exported to “%s”"), basename);

    GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

    if (parent != NULL)
      gtk_widget_activate_action (GTK_WIDGET (parent), "win.show-toast", "s", title);
  }
  gtk_window_destroy (GTK_WINDOW (self));
}

/**
 * cs_export_dialog_start:
 * @self: a #CsExportDialog
 * @path: the file to write (its extension does not matter: the dialog's
 *   format does)
 *
 * Exports as the Export… button does once a file is chosen: the legend's
 * tasks are computed in a worker thread while the dialog shows a spinner
 * and Cancel stops the work; then the file is written on the main thread,
 * the window shows a toast and the dialog closes.  An error is shown in a
 * message dialog, and the dialog stays.  Does nothing while an export
 * runs.  Main thread.
 */
void
cs_export_dialog_start (CsExportDialog *self,
                        const char     *path)
{
  CsDocument *document;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (CS_IS_EXPORT_DIALOG (self));
  g_return_if_fail (path != NULL);

  if (self->cancellable != NULL)
    return;

  document = cs_timeline_get_document (get_timeline (self));
  cs_export_dialog_get_options (self, &self->options);
  self->path = g_strdup (path);
  g_free (self->trace_path);
  self->trace_path = g_strdup (cs_document_get_trace_path (document));
  g_free (self->index_path);
  g_free (self->identity);
  self->index_path = g_strdup (cs_document_get_index_path (document));
  self->identity = g_strdup (cs_document_get_identity (document));
  self->test_hang = cs_test_hook_is_set ("CS_EXPORT_TEST_HANG");
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, legend_done_cb, NULL);
  set_busy (self, TRUE);
  g_task_run_in_thread (task, legend_thread);
}

/** cs_export_dialog_is_busy: Returns: whether an export runs (main thread) */
gboolean
cs_export_dialog_is_busy (CsExportDialog *self)
{
  g_return_val_if_fail (CS_IS_EXPORT_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

/**
 * cs_export_dialog_get_cancel_button:
 * @self: a #CsExportDialog
 *
 * Returns: (transfer none): the Cancel button: it stops a running export,
 *   else closes the dialog (for tests)
 */
GtkWidget *
cs_export_dialog_get_cancel_button (CsExportDialog *self)
{
  g_return_val_if_fail (CS_IS_EXPORT_DIALOG (self), NULL);
  return self->cancel_button;
}

/**
 * cs_export_dialog_get_progress:
 * @self: a #CsExportDialog
 *
 * Returns: (transfer none): the spinner and its "Exporting…" label,
 *   visible while an export runs (for tests)
 */
GtkWidget *
cs_export_dialog_get_progress (CsExportDialog *self)
{
  g_return_val_if_fail (CS_IS_EXPORT_DIALOG (self), NULL);
  return self->busy_box;
}

static void
cancel_clicked_cb (CsExportDialog *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
chooser_response_cb (GtkNativeDialog *chooser, int response, CsExportDialog *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_object_unref (chooser);
  if (file == NULL)
    return;

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("Only local files can be written"));
      show_error (self, error);
      return;
    }
  cs_export_dialog_start (self, path);
}

static void
export_clicked_cb (CsExportDialog *self)
{
  static const char * const extensions[] = { "png", "svg", "pdf" };
  CsDocument *document = cs_timeline_get_document (get_timeline (self));
  guint format = gtk_drop_down_get_selected (self->format);
  g_autofree char *base = g_path_get_basename (cs_document_get_trace_path (document));
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  char *dot = strrchr (base, '.');

  if (dot != NULL)
    *dot = '\0';
  name = g_strdup_printf ("%s.%s", base, extensions[MIN (format, 2u)]);
  chooser = gtk_file_chooser_native_new (_("Export the View"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  /* Next to the recording, as Save Session… does. */
  {
    g_autoptr(GFile) recording = g_file_new_for_path (cs_document_get_trace_path (document));
    g_autoptr(GFile) folder = g_file_get_parent (recording);

    if (folder != NULL)
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  }
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
cs_export_dialog_dispose (GObject *object)
{
  CsExportDialog *self = CS_EXPORT_DIALOG (object);

  /* The GTask holds a reference: legend_done_cb() sees this flag. */
  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (cs_export_dialog_parent_class)->dispose (object);
}

static void
cs_export_dialog_finalize (GObject *object)
{
  CsExportDialog *self = CS_EXPORT_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_free (self->path);
  g_free (self->trace_path);
  g_free (self->index_path);
  g_free (self->identity);
  G_OBJECT_CLASS (cs_export_dialog_parent_class)->finalize (object);
}

static void
cs_export_dialog_class_init (CsExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_export_dialog_dispose;
  object_class->finalize = cs_export_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, format);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, range_visible);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, range_markers);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, width);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, height);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, page);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, form);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, busy_box);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, export_button);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, cancel_button);
  gtk_widget_class_bind_template_callback (widget_class, update_sensitivity);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
}

static void
cs_export_dialog_init (CsExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The largest picture is the renderer's rule (render/cs-export.h). */
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->width), CS_EXPORT_MAX_SIZE_PX);
  gtk_adjustment_set_upper (gtk_spin_button_get_adjustment (self->height), CS_EXPORT_MAX_SIZE_PX);
}

/**
 * cs_export_dialog_new:
 * @parent: the window that shows @timeline; the dialog is transient for
 *   it and destroyed with it, and tells it what it wrote through its
 *   win.show-toast action
 * @timeline: the view to export (its span, markers and renderer)
 *
 * Returns: (transfer none): a new dialog, not yet shown (a toplevel:
 *   GTK keeps it until it is destroyed)
 */
GtkWindow *
cs_export_dialog_new (GtkWindow  *parent,
                      CsTimeline *timeline)
{
  CsExportDialog *self;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (CS_IS_TIMELINE (timeline), NULL);

  self = g_object_new (CS_TYPE_EXPORT_DIALOG,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  self->timeline = timeline;
  gtk_spin_button_set_value (self->width, MAX (gtk_widget_get_width (GTK_WIDGET (timeline)), 800));
  update_sensitivity (self);
  return GTK_WINDOW (self);
}
