/* cs-demo-dialog.c: the window's "Classroom Demos" dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Lists the scenarios of index/demo/cs-demo.c with what each shows, and
 * runs the chosen one through the privileged helper (CsRecordJob in demo
 * mode: pkexec, or directly as root), since the window itself never runs
 * as root.  The recording goes to $XDG_CACHE_HOME/chronoscope/demos/; when
 * it is written the dialog emits ::finished and closes, and the window
 * opens it with markers A and B around the latency (cs-window-demo.c).
 * What the helper refuses (no module for this kernel, authentication
 * dismissed) stays in the dialog, in the helper's words.
 *
 * The module: the one installed for the running kernel (DKMS), or a built
 * chronoscope_tracer.ko chosen with "Choose…" (a teacher who built it from
 * kmod/ without installing it), remembered in the "demo-module" setting,
 * or for the window's life when the app runs without its schema.  The
 * dialog says which one the demo will load, and for a file which kernel
 * it was built for.
 *
 * The layout is the template cs-demo-dialog.ui; the scenarios' rows are
 * made here.
 */
#include "config.h"

#include <sys/utsname.h>

#include <glib/gi18n.h>

#include "cs-demo.h"
#include "cs-demo-dialog.h"
#include "cs-record-job.h"

struct _CsDemoDialog
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkListBox *list;
  GtkButton *run_button;
  GtkSpinner *spinner;
  GtkLabel *status_label;
  GtkLabel *module_label;
  GtkButton *installed_button;

  /* owned */
  CsRecordJob *job;
  char *scenario;
  char *module_path;            /* nullable: the installed module */
  GSettings *settings;          /* nullable: no schema */
  GtkFileChooserNative *chooser;
};

#define MODULE_KEY "demo-module"
#define WINDOW_MODULE_KEY "cs-demo-module"

G_DEFINE_FINAL_TYPE (CsDemoDialog, cs_demo_dialog, GTK_TYPE_WINDOW)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Lines kept for the status: the helper's longest messages (a module built
 * for another kernel, with both releases and the file's path) take five. */
#define STATUS_LINES 6

/* The dialog does not grow once it is shown (GTK 4.8 on X11 keeps the
 * window's size when a label's text wraps over more lines, cutting off the
 * message and Run Demo): the status gets its room when the dialog is built,
 * and a longer message ends in "…" with the whole text in its tooltip. */
static void
reserve_status_lines (GtkLabel *label)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (label), "Xg");
  int line_height = 0;

  pango_layout_get_pixel_size (layout, NULL, &line_height);
  gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
  gtk_label_set_lines (label, STATUS_LINES);
  gtk_widget_set_size_request (GTK_WIDGET (label), -1, STATUS_LINES * line_height);
}

static void
set_status (CsDemoDialog *self, const char *text, gboolean busy, gboolean is_error)
{
  gtk_label_set_label (self->status_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), text != NULL && *text != '\0' ? text : NULL);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->list), !busy);
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
}

static gboolean
close_idle_cb (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
job_state_cb (CsRecordJob *job, GParamSpec *pspec, CsDemoDialog *self)
{
  CsRecordJobState state = cs_record_job_get_state (job);

  if (state == CS_RECORD_JOB_STATE_RECORDING)
    set_status (self, _("Recording while the module injects the latency…"), TRUE, FALSE);
  else if (state == CS_RECORD_JOB_STATE_DONE)
    {
      g_autoptr(GFile) file = g_file_new_for_path (cs_record_job_get_output (job));
      g_autofree char *scenario = g_strdup (self->scenario);

      set_status (self, "", FALSE, FALSE);
      g_signal_emit (self, signals[FINISHED], 0, file, scenario);
      /* Not from inside the job's notification: closing drops the job. */
      g_idle_add_full (G_PRIORITY_DEFAULT, close_idle_cb, g_object_ref (self), g_object_unref);
    }
  else if (state == CS_RECORD_JOB_STATE_FAILED)
    {
      const GError *error = cs_record_job_get_error (job);

      set_status (self, error != NULL ? error->message : _("The demo failed"), FALSE, TRUE);
    }
}

static char *
demo_output_path (const char *scenario)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "chronoscope", "demos", NULL);
  g_autofree char *name = g_strdup_printf ("%s-%s.dat", scenario, stamp);

  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

/**
 * cs_demo_dialog_run:
 * @self: a #CsDemoDialog
 * @scenario: the scenario to run (cs_demo_lookup())
 *
 * Runs @scenario through the helper, as the Run button does.  Progress and
 * errors show in the dialog; ::finished follows success.
 */
void
cs_demo_dialog_run (CsDemoDialog *self,
                    const char   *scenario)
{
  g_autofree char *output = NULL;
  g_autoptr(CsRecordOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CS_IS_DEMO_DIALOG (self));
  g_return_if_fail (cs_demo_lookup (scenario) != NULL);

  g_free (self->scenario);
  self->scenario = g_strdup (scenario);
  output = demo_output_path (scenario);
  options = cs_demo_dup_record_options (scenario, output);

  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  self->job = cs_record_job_new (options);
  cs_record_job_set_demo (self->job, scenario, self->module_path);
  g_signal_connect (self->job, "notify::state", G_CALLBACK (job_state_cb), self);
  if (!cs_record_job_start (self->job, &error))
    {
      set_status (self, error->message, FALSE, TRUE);
      return;
    }
  set_status (self, _("Starting the demo (it needs an administrator’s permission)…"), TRUE, FALSE);
}

static char *
kernel_release (void)
{
  struct utsname u;

  return g_strdup (uname (&u) == 0 ? u.release : "?");
}

/* Which module the demo will load, in one sentence. */
static char *
describe_module (const char *module_path)
{
  g_autofree char *release = kernel_release ();
  g_autofree char *built_for = NULL;
  g_autoptr(GError) error = NULL;

  if (module_path == NULL)
    {
      /* NO_MODULE: neither loaded nor installed; NOT_ROOT: it is there. */
      if (!cs_demo_check_module (NULL, &error) &&
          g_error_matches (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE))
        return g_strdup_printf (_("Module: none is installed for kernel %s. Install "
                                  "chronoscope_tracer with DKMS, or choose a built "
                                  "chronoscope_tracer.ko."), release);
      return g_strdup_printf (_("Module: chronoscope_tracer installed for kernel %s."), release);
    }
  built_for = cs_demo_module_dup_kernel_release (module_path, &error);
  if (built_for == NULL)
    return g_strdup_printf (_("Module: %s. %s"), module_path, error->message);
  if (g_strcmp0 (built_for, release) != 0)
    return g_strdup_printf (_("Module: %s, built for kernel %s. This kernel is %s: the "
                              "kernel will refuse it."), module_path, built_for, release);
  return g_strdup_printf (_("Module: %s, built for kernel %s."), module_path, built_for);
}

static void
show_module (CsDemoDialog *self)
{
  g_autofree char *text = describe_module (self->module_path);

  gtk_label_set_label (self->module_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->installed_button), self->module_path != NULL);
}

/**
 * cs_demo_dialog_set_module_path:
 * @self: a #CsDemoDialog
 * @module_path: (nullable): a built chronoscope_tracer.ko, or %NULL for the
 *   one installed for the running kernel
 *
 * Chooses the module the demos load (the helper's --module), as "Choose…"
 * and "Use Installed" do, and remembers it: in the "demo-module" setting,
 * or, without the app's schema, for the life of the dialog's window.
 */
void
cs_demo_dialog_set_module_path (CsDemoDialog *self,
                                const char   *module_path)
{
  GtkWindow *parent;

  g_return_if_fail (CS_IS_DEMO_DIALOG (self));

  if (module_path != NULL && *module_path == '\0')
    module_path = NULL;
  if (module_path != self->module_path)
    {
      g_free (self->module_path);
      self->module_path = g_strdup (module_path);
    }
  parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  if (self->settings != NULL)
    g_settings_set_string (self->settings, MODULE_KEY, module_path != NULL ? module_path : "");
  else if (parent != NULL)
    g_object_set_data_full (G_OBJECT (parent), WINDOW_MODULE_KEY, g_strdup (module_path), g_free);
  show_module (self);
}

/**
 * cs_demo_dialog_get_module_path:
 * @self: a #CsDemoDialog
 *
 * Returns: (nullable) (transfer none): the built module the demos load, or
 *   %NULL for the installed one
 */
const char *
cs_demo_dialog_get_module_path (CsDemoDialog *self)
{
  g_return_val_if_fail (CS_IS_DEMO_DIALOG (self), NULL);
  return self->module_path;
}

/**
 * cs_demo_dialog_get_module_text:
 * @self: a #CsDemoDialog
 *
 * Returns: (transfer none): the line saying which module the demos load
 */
const char *
cs_demo_dialog_get_module_text (CsDemoDialog *self)
{
  g_return_val_if_fail (CS_IS_DEMO_DIALOG (self), NULL);
  return gtk_label_get_label (self->module_label);
}

static void
chooser_response_cb (CsDemoDialog         *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        cs_demo_dialog_set_module_path (self, path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_clicked_cb (CsDemoDialog *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Built Kernel Module"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Use"), NULL);
  gtk_file_filter_set_name (filter, _("Kernel modules (*.ko)"));
  gtk_file_filter_add_pattern (filter, "*.ko");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  if (self->module_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->module_path);

      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (self->chooser), file, NULL);
    }
  g_signal_connect_swapped (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
installed_clicked_cb (CsDemoDialog *self)
{
  cs_demo_dialog_set_module_path (self, NULL);
}

/* The "demo-module" setting when the installed schema has it. */
static GSettings *
lookup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, MODULE_KEY))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static void
cs_demo_dialog_constructed (GObject *object)
{
  CsDemoDialog *self = CS_DEMO_DIALOG (object);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  G_OBJECT_CLASS (cs_demo_dialog_parent_class)->constructed (object);

  self->settings = lookup_settings ();
  if (self->settings != NULL)
    self->module_path = g_settings_get_string (self->settings, MODULE_KEY);
  else if (parent != NULL)
    self->module_path = g_strdup (g_object_get_data (G_OBJECT (parent), WINDOW_MODULE_KEY));
  if (self->module_path != NULL && *self->module_path == '\0')
    g_clear_pointer (&self->module_path, g_free);
  show_module (self);
}

static void
run_clicked_cb (CsDemoDialog *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list);

  if (row != NULL)
    cs_demo_dialog_run (self, gtk_widget_get_name (GTK_WIDGET (row)));
}

/* Appends a scenario's line to @list: cs-demo-scenario-row.ui, the row
 * named for the scenario, with its title and summary (the list takes it
 * before the builder lets it go). */
static void
append_scenario_row (GtkListBox           *list,
                     const CsDemoScenario *scenario)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-demo-scenario-row.ui");
  GtkWidget *row = GTK_WIDGET (gtk_builder_get_object (builder, "row"));

  gtk_widget_set_name (row, scenario->name);
  gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "title")), _(scenario->title));
  gtk_label_set_label (GTK_LABEL (gtk_builder_get_object (builder, "summary")), _(scenario->summary));
  gtk_list_box_append (list, row);
}

static void
cs_demo_dialog_dispose (GObject *object)
{
  CsDemoDialog *self = CS_DEMO_DIALOG (object);

  /* A running helper finishes and restores the module on its own. */
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (cs_demo_dialog_parent_class)->dispose (object);
}

static void
cs_demo_dialog_finalize (GObject *object)
{
  CsDemoDialog *self = CS_DEMO_DIALOG (object);

  g_free (self->scenario);
  g_free (self->module_path);
  G_OBJECT_CLASS (cs_demo_dialog_parent_class)->finalize (object);
}

static void
cs_demo_dialog_class_init (CsDemoDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = cs_demo_dialog_constructed;
  object_class->dispose = cs_demo_dialog_dispose;
  object_class->finalize = cs_demo_dialog_finalize;

  /**
   * CsDemoDialog::finished:
   * @self: the dialog
   * @file: the recording the demo wrote
   * @scenario: the scenario's name
   *
   * The demo's recording is written; the dialog closes after this.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_FILE,
                                    G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-demo-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, list);
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, run_button);
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, status_label);
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, module_label);
  gtk_widget_class_bind_template_child (widget_class, CsDemoDialog, installed_button);
  gtk_widget_class_bind_template_callback (widget_class, choose_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, installed_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
}

static void
cs_demo_dialog_init (CsDemoDialog *self)
{
  guint n;
  const CsDemoScenario *scenarios = cs_demo_get_scenarios (&n);

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < n; i++)
    append_scenario_row (self->list, &scenarios[i]);
  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, 0));
  reserve_status_lines (self->status_label);
}

/**
 * cs_demo_dialog_new:
 * @parent: the window the demo's recording opens in
 *
 * Returns: (transfer full): a dialog, transient for @parent and destroyed
 *   with it; connect to ::finished to open the recording
 */
CsDemoDialog *
cs_demo_dialog_new (GtkWindow *parent)
{
  return g_object_new (CS_TYPE_DEMO_DIALOG,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
}

/**
 * cs_demo_dialog_get_status:
 * @self: a #CsDemoDialog
 *
 * Returns: (transfer none): the status line (progress, or the helper's
 *   error message)
 */
const char *
cs_demo_dialog_get_status (CsDemoDialog *self)
{
  g_return_val_if_fail (CS_IS_DEMO_DIALOG (self), NULL);
  return gtk_label_get_label (self->status_label);
}
