/* cs-record-panel.c: the window's record panel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Events come from tracefs `available_events`, grouped by system in a tree
 * with a search; a system's check box records the whole system (-e sched),
 * an event's just that event.  The filter entry under the tree belongs to
 * the selected system or event.  The options on the right mirror the
 * tracefs files of CsRecordOptions; everything is remembered in GSettings
 * (the "record-*" keys) when a recording starts.
 *
 * The panel stays unprivileged: it reads `available_events` itself when it
 * can, and otherwise asks the helper (`chronoscope-record-helper --list`,
 * through pkexec).  Start runs a CsRecordJob; its statistics show once a second;
 * Stop asks the helper to finish.  When the file is written the panel
 * emits #CsRecordPanel::recorded, and the window opens it.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-format.h"
#include "cs-record-event-tree.h"
#include "cs-record-live.h"
#include "cs-record-panel.h"
#include "cs-recorder.h"

#define PANEL_KEY   "cs-record-panel"

static const char * const default_clocks[] = {
  "local", "global", "mono", "mono_raw", "boot", "uptime", "perf", "counter", NULL
};
static const char * const default_tracers[] = { "function", "function_graph", NULL };

struct _CsRecordPanel
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkRevealer *message_revealer;
  GtkLabel *message_label;
  GtkWidget *load_events_button;
  CsRecordEventTree *event_tree;
  GtkEntry *output_entry;
  GtkEntry *extra_events_entry;
  GtkSpinButton *duration_spin;
  GtkEntry *command_entry;
  GtkCheckButton *command_only_check;
  GtkEntry *pids_entry;
  GtkCheckButton *follow_check;
  GtkEntry *cpumask_entry;
  GtkSpinButton *buffer_spin;
  GtkDropDown *clock_dropdown;
  GtkDropDown *tracer_dropdown;
  GtkCheckButton *tracer_optional_check;
  GtkCheckButton *stacktrace_check;
  GtkLabel *status_label;
  GtkLabel *cpu_stats_label;
  GtkWidget *options_grid;

  /* owned */
  GSettings *settings;
  CsRecordJob *job;
  CsRecordLive *live;         /* the job's live timeline */
  GCancellable *cancellable;
  GtkFileChooserNative *chooser;
  char *status;
  gboolean close_when_done;
};

G_DEFINE_FINAL_TYPE (CsRecordPanel, cs_record_panel, GTK_TYPE_WINDOW)

enum {
  SIGNAL_RECORDED,
  SIGNAL_LIVE_DOCUMENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_sensitivity (CsRecordPanel *self);

/* ------------------------------------------------------------------------ */
/* Messages and status                                                       */

static void
show_message (CsRecordPanel *self,
              const char    *message,
              gboolean       offer_listing)
{
  gtk_label_set_label (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (self->load_events_button, offer_listing);
  gtk_revealer_set_reveal_child (self->message_revealer, message != NULL);
}

static void
set_status (CsRecordPanel *self,
            const char    *status)
{
  g_free (self->status);
  self->status = g_strdup (status);
  gtk_label_set_label (self->status_label, status);
}

/* ------------------------------------------------------------------------ */
/* Settings: optional, so that the panel also runs uninstalled              */

static GSettings *
lookup_settings (void)
{
  static const char * const keys[] = {
    "record-events", "record-filters", "record-extra-events", "record-directory",
    "record-duration", "record-command", "record-command-only", "record-pids",
    "record-follow-children", "record-cpumask", "record-buffer-size-kb", "record-clock",
    "record-tracer", "record-tracer-optional", "record-stacktrace",
  };
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL || (schema = g_settings_schema_source_lookup (source, APP_ID, TRUE)) == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (!g_settings_schema_has_key (schema, keys[i]))
      return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

static char *
new_output_path (const char *directory)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "trace-%Y%m%d-%H%M%S.dat");
  const char *dir = directory != NULL && *directory != '\0' && g_file_test (directory, G_FILE_TEST_IS_DIR)
    ? directory : g_get_home_dir ();

  return g_build_filename (dir, name, NULL);
}

static void
select_string (GtkDropDown *dropdown, const char *value)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), value) == 0)
        {
          gtk_drop_down_set_selected (dropdown, i);
          return;
        }
    }
}

static const char *
selected_string (GtkDropDown *dropdown)
{
  GObject *item = gtk_drop_down_get_selected_item (dropdown);

  return item != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
}

static void
restore_settings (CsRecordPanel *self)
{
  g_auto(GStrv) events = NULL;
  g_autoptr(GVariant) filters = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *output = NULL;
  g_autofree char *clock = NULL;
  g_autofree char *tracer = NULL;

  if (self->settings == NULL)
    {
      const char * const sched[] = { "sched", NULL };

      output = new_output_path (NULL);
      gtk_editable_set_text (GTK_EDITABLE (self->output_entry), output);
      cs_record_event_tree_restore (self->event_tree, sched, NULL);
      return;
    }

  events = g_settings_get_strv (self->settings, "record-events");
  filters = g_settings_get_value (self->settings, "record-filters");
  cs_record_event_tree_restore (self->event_tree, (const char * const *) events, filters);

  dir = g_settings_get_string (self->settings, "record-directory");
  output = new_output_path (dir);
  gtk_editable_set_text (GTK_EDITABLE (self->output_entry), output);
  {
    g_autofree char *extra = g_settings_get_string (self->settings, "record-extra-events");
    g_autofree char *command = g_settings_get_string (self->settings, "record-command");
    g_autofree char *pids = g_settings_get_string (self->settings, "record-pids");
    g_autofree char *cpumask = g_settings_get_string (self->settings, "record-cpumask");

    gtk_editable_set_text (GTK_EDITABLE (self->extra_events_entry), extra);
    gtk_editable_set_text (GTK_EDITABLE (self->command_entry), command);
    gtk_editable_set_text (GTK_EDITABLE (self->pids_entry), pids);
    gtk_editable_set_text (GTK_EDITABLE (self->cpumask_entry), cpumask);
  }
  gtk_spin_button_set_value (self->duration_spin, g_settings_get_double (self->settings, "record-duration"));
  gtk_spin_button_set_value (self->buffer_spin, g_settings_get_uint (self->settings, "record-buffer-size-kb"));
  gtk_check_button_set_active (self->command_only_check, g_settings_get_boolean (self->settings, "record-command-only"));
  gtk_check_button_set_active (self->follow_check, g_settings_get_boolean (self->settings, "record-follow-children"));
  gtk_check_button_set_active (self->tracer_optional_check, g_settings_get_boolean (self->settings, "record-tracer-optional"));
  gtk_check_button_set_active (self->stacktrace_check, g_settings_get_boolean (self->settings, "record-stacktrace"));
  clock = g_settings_get_string (self->settings, "record-clock");
  tracer = g_settings_get_string (self->settings, "record-tracer");
  select_string (self->clock_dropdown, clock);
  select_string (self->tracer_dropdown, *tracer != '\0' ? tracer : "none");
}

static void
save_settings (CsRecordPanel *self, const CsRecordOptions *options)
{
  g_auto(GStrv) keys = NULL;
  g_autofree char *dir = g_path_get_dirname (options->output);

  if (self->settings == NULL)
    return;

  keys = cs_record_event_tree_dup_enabled (self->event_tree);
  g_settings_delay (self->settings);
  g_settings_set_strv (self->settings, "record-events", (const char * const *) keys);
  g_settings_set_value (self->settings, "record-filters",
                        cs_record_event_tree_dup_filters (self->event_tree));
  g_settings_set_string (self->settings, "record-directory", dir);
  g_settings_set_string (self->settings, "record-extra-events",
                         gtk_editable_get_text (GTK_EDITABLE (self->extra_events_entry)));
  g_settings_set_double (self->settings, "record-duration", options->duration_s);
  g_settings_set_string (self->settings, "record-command",
                         gtk_editable_get_text (GTK_EDITABLE (self->command_entry)));
  g_settings_set_boolean (self->settings, "record-command-only", options->trace_command_only);
  g_settings_set_string (self->settings, "record-pids",
                         gtk_editable_get_text (GTK_EDITABLE (self->pids_entry)));
  g_settings_set_boolean (self->settings, "record-follow-children", options->follow_children);
  g_settings_set_string (self->settings, "record-cpumask", options->cpumask != NULL ? options->cpumask : "");
  g_settings_set_uint (self->settings, "record-buffer-size-kb", options->buffer_size_kb);
  g_settings_set_string (self->settings, "record-clock", options->clock != NULL ? options->clock : "");
  g_settings_set_string (self->settings, "record-tracer", options->tracer != NULL ? options->tracer : "");
  g_settings_set_boolean (self->settings, "record-tracer-optional", options->tracer_optional);
  g_settings_set_boolean (self->settings, "record-stacktrace", options->stacktrace);
  g_settings_apply (self->settings);
}

/* ------------------------------------------------------------------------ */
/* What tracefs offers                                                       */

static void
set_dropdown_strings (GtkDropDown *dropdown, const char *first,
                      const char * const *strings, const char *skip)
{
  g_autofree char *keep = g_strdup (selected_string (dropdown));
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  if (first != NULL)
    gtk_string_list_append (list, first);
  for (guint i = 0; strings != NULL && strings[i] != NULL; i++)
    if (g_strcmp0 (strings[i], skip) != 0 && *strings[i] != '\0')
      gtk_string_list_append (list, strings[i]);
  gtk_drop_down_set_model (dropdown, G_LIST_MODEL (list));
  if (keep != NULL)
    select_string (dropdown, keep);
}

/**
 * cs_record_panel_set_available:
 * @self: a #CsRecordPanel
 * @events: (array zero-terminated=1): "system:event" names, as in tracefs
 *   `available_events`
 * @tracers: (array zero-terminated=1) (nullable): `available_tracers`
 * @clocks: (array zero-terminated=1) (nullable): the clocks of `trace_clock`
 *
 * Fills the event tree and the tracer and clock choices.
 */
void
cs_record_panel_set_available (CsRecordPanel      *self,
                               const char * const *events,
                               const char * const *tracers,
                               const char * const *clocks)
{
  g_return_if_fail (CS_IS_RECORD_PANEL (self));

  cs_record_event_tree_set_available (self->event_tree, events);
  set_dropdown_strings (self->tracer_dropdown, "none",
                        tracers != NULL ? tracers : default_tracers, "nop");
  set_dropdown_strings (self->clock_dropdown, NULL,
                        clocks != NULL ? clocks : default_clocks, NULL);
}

static gboolean
load_events_directly (CsRecordPanel *self)
{
  g_autofree char *events = NULL;
  g_autofree char *tracers = NULL;
  g_autofree char *clocks = NULL;
  g_auto(GStrv) event_list = NULL;
  g_auto(GStrv) tracer_list = NULL;
  g_auto(GStrv) clock_list = NULL;

  const char *dir = cs_recorder_find_tracing_dir ();
  g_autofree char *events_path = NULL;
  g_autofree char *tracers_path = NULL;
  g_autofree char *clocks_path = NULL;

  if (dir == NULL)
    return FALSE;
  events_path = g_build_filename (dir, "available_events", NULL);
  tracers_path = g_build_filename (dir, "available_tracers", NULL);
  clocks_path = g_build_filename (dir, "trace_clock", NULL);
  if (!g_file_get_contents (events_path, &events, NULL, NULL))
    return FALSE;
  g_file_get_contents (tracers_path, &tracers, NULL, NULL);
  g_file_get_contents (clocks_path, &clocks, NULL, NULL);

  event_list = g_strsplit (g_strstrip (events), "\n", -1);
  tracer_list = tracers != NULL ? g_strsplit (g_strstrip (tracers), " ", -1) : NULL;
  if (clocks != NULL)
    {
      g_strdelimit (clocks, "[]", ' ');
      clock_list = g_strsplit_set (g_strstrip (clocks), " ", -1);
    }
  cs_record_panel_set_available (self, (const char * const *) event_list,
                                 (const char * const *) tracer_list,
                                 (const char * const *) clock_list);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Listing through the helper                                                */

static char **
json_strv (JsonObject *object, const char *member)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array = json_object_has_member (object, member)
    ? json_object_get_array_member (object, member) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    g_strv_builder_add (builder, json_array_get_string_element (array, i));
  return g_strv_builder_end (builder);
}

static void
list_done_cb (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(CsRecordPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *object;
  g_auto(GStrv) events = NULL;
  g_auto(GStrv) tracers = NULL;
  g_auto(GStrv) clocks = NULL;

  if (!g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), result, &out, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, error->message, TRUE);
      return;
    }
  if (out == NULL || !json_parser_load_from_data (parser, out, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      show_message (self, _("Could not list the events: permission was not given"), TRUE);
      return;
    }
  object = json_node_get_object (json_parser_get_root (parser));
  events = json_strv (object, "events");
  if (events[0] == NULL)
    {
      show_message (self, json_object_get_string_member_with_default (object, "message",
                                                                      _("The kernel lists no events")), TRUE);
      return;
    }
  tracers = json_strv (object, "tracers");
  clocks = json_strv (object, "clocks");
  cs_record_panel_set_available (self, (const char * const *) events,
                                 (const char * const *) tracers, (const char * const *) clocks);
  show_message (self, NULL, FALSE);
}

static void
list_events_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsRecordPanel *self = CS_RECORD_PANEL (widget);
  const char *args[] = { "--list", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = cs_record_job_build_argv (args, &error);
  g_autoptr(GSubprocess) lister = NULL;

  if (argv != NULL)
    lister = g_subprocess_newv ((const char * const *) argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  if (lister == NULL)
    {
      show_message (self, error->message, FALSE);
      return;
    }
  g_subprocess_communicate_utf8_async (lister, NULL, self->cancellable, list_done_cb,
                                       g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* Options                                                                   */

/**
 * cs_record_panel_dup_options:
 * @self: a #CsRecordPanel
 *
 * Reads the panel into options.  Nothing is checked against tracefs; the
 * helper does that.
 *
 * Returns: (transfer full) (nullable): the options, or %NULL after showing
 *   what cannot be read (a command or pid list that does not parse)
 */
CsRecordOptions *
cs_record_panel_dup_options (CsRecordPanel *self)
{
  g_autoptr(CsRecordOptions) options = cs_record_options_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *command_text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->command_entry))));
  g_auto(GStrv) extra = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (self->extra_events_entry)),
                                        " ,\t", -1);
  const char *output = gtk_editable_get_text (GTK_EDITABLE (self->output_entry));
  const char *cpumask = gtk_editable_get_text (GTK_EDITABLE (self->cpumask_entry));
  const char *clock = selected_string (self->clock_dropdown);
  const char *tracer = selected_string (self->tracer_dropdown);
  g_auto(GStrv) pids = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (self->pids_entry)), " ,", -1);

  g_return_val_if_fail (CS_IS_RECORD_PANEL (self), NULL);

  cs_record_event_tree_add_to_options (self->event_tree, options);
  for (guint i = 0; extra[i] != NULL; i++)
    if (*extra[i] != '\0')
      cs_record_options_add_event (options, extra[i], NULL);

  if (*output != '\0')
    options->output = g_path_is_absolute (output) ? g_strdup (output)
                                                  : g_build_filename (g_get_home_dir (), output, NULL);
  options->duration_s = gtk_spin_button_get_value (self->duration_spin);
  if (*command_text != '\0' &&
      !g_shell_parse_argv (command_text, NULL, &options->command, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The command cannot be read: %s"), error->message);
      show_message (self, message, FALSE);
      return NULL;
    }
  options->trace_command_only = options->command != NULL &&
                                gtk_check_button_get_active (self->command_only_check);
  for (guint i = 0; pids[i] != NULL; i++)
    {
      guint64 pid;

      if (*pids[i] == '\0')
        continue;
      if (!g_ascii_string_to_unsigned (pids[i], 10, 1, G_MAXINT, &pid, NULL))
        {
          g_autofree char *message = g_strdup_printf (_("“%s” is not a process id"), pids[i]);
          show_message (self, message, FALSE);
          return NULL;
        }
      {
        int pid_value = (int) pid;

        g_array_append_val (options->pids, pid_value);
      }
    }
  options->follow_children = gtk_check_button_get_active (self->follow_check);
  options->cpumask = *cpumask != '\0' ? g_strdup (cpumask) : NULL;
  options->buffer_size_kb = (guint) gtk_spin_button_get_value_as_int (self->buffer_spin);
  options->clock = clock != NULL ? g_strdup (clock) : NULL;
  options->tracer = tracer != NULL && strcmp (tracer, "none") != 0 ? g_strdup (tracer) : NULL;
  options->tracer_optional = gtk_check_button_get_active (self->tracer_optional_check);
  options->stacktrace = gtk_check_button_get_active (self->stacktrace_check);
  return g_steal_pointer (&options);
}

/* ------------------------------------------------------------------------ */
/* Recording                                                                 */

static void
show_stats (CsRecordPanel *self, JsonObject *stats, const char *prefix)
{
  JsonArray *cpus = json_object_has_member (stats, "cpus") ? json_object_get_array_member (stats, "cpus")
                                                           : NULL;
  g_autofree char *events = cs_format_count ((guint64) json_object_get_int_member (stats, "events"));
  g_autofree char *bytes = g_format_size ((guint64) json_object_get_int_member (stats, "bytes"));
  g_autofree char *line = NULL;
  g_autoptr(GString) per_cpu = g_string_new (NULL);
  g_autofree char *overrun = cs_format_count ((guint64) json_object_get_int_member (stats, "overrun"));

  /* TRANSLATORS: "Recording… 12.3 s · 1,234 events · 4.5 MB · 0 overruns" */
  line = g_strdup_printf (_("%s %.1f s · %s events · %s · %s overruns"),
                          prefix, json_object_get_double_member (stats, "elapsed_s"),
                          events, bytes, overrun);
  set_status (self, line);

  for (guint i = 0; cpus != NULL && i < json_array_get_length (cpus); i++)
    {
      JsonObject *cpu = json_array_get_object_element (cpus, i);
      g_autofree char *cpu_events = cs_format_count ((guint64) json_object_get_int_member (cpu, "events"));
      g_autofree char *cpu_bytes = g_format_size ((guint64) json_object_get_int_member (cpu, "bytes"));
      g_autofree char *cpu_overrun = cs_format_count ((guint64) (json_object_get_int_member (cpu, "overrun") +
                                                                 json_object_get_int_member (cpu, "dropped")));
      g_autofree char *cpu_lost = cs_format_count ((guint64) json_object_get_int_member (cpu, "missed"));

      /* TRANSLATORS: one line per CPU: "CPU 0     12,345 events   1.2 MB  0 overruns  0 lost" */
      g_string_append_printf (per_cpu, _("CPU %-3d %12s events %10s  %s overruns  %s lost\n"),
                              (int) json_object_get_int_member (cpu, "cpu"), cpu_events, cpu_bytes,
                              cpu_overrun, cpu_lost);
    }
  if (cpus != NULL)
    gtk_label_set_label (self->cpu_stats_label, g_strchomp (per_cpu->str));
}

static void
job_stats_cb (CsRecordPanel *self)
{
  JsonObject *stats = cs_record_job_get_stats (self->job);

  if (stats != NULL && cs_record_job_get_state (self->job) == CS_RECORD_JOB_STATE_RECORDING)
    show_stats (self, stats, _("Recording…"));
}

/* Whether the live index made it or not (then the file is indexed as any
 * other), the recording is ready to open.  @user_data: the panel, then
 * the file, each with a reference (the panel may be closed meanwhile). */
static void
live_finished_cb (GObject      *source_object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GPtrArray) refs = user_data;
  CsRecordPanel *self = refs->pdata[0];
  GFile *file = refs->pdata[1];
  g_autoptr(GError) error = NULL;
  g_autofree char *index_path = cs_record_live_finish_finish (CS_RECORD_LIVE (source_object),
                                                              result, &error);

  if (index_path == NULL)
    g_debug ("The recording %s is indexed again: %s", g_file_peek_path (file), error->message);
  g_signal_emit (self, signals[SIGNAL_RECORDED], 0, file);
}

static void
job_state_cb (CsRecordPanel *self)
{
  CsRecordJobState state = cs_record_job_get_state (self->job);
  const char * const *warnings = cs_record_job_get_warnings (self->job);

  if (warnings[0] != NULL)
    show_message (self, warnings[g_strv_length ((char **) warnings) - 1], FALSE);

  switch (state)
    {
    case CS_RECORD_JOB_STATE_STARTING:
      set_status (self, _("Starting… (you may be asked for a password)"));
      break;
    case CS_RECORD_JOB_STATE_RECORDING:
      set_status (self, _("Recording…"));
      break;
    case CS_RECORD_JOB_STATE_STOPPING:
      set_status (self, _("Writing the recording…"));
      break;
    case CS_RECORD_JOB_STATE_DONE:
      {
        JsonObject *result = cs_record_job_get_result (self->job);
        g_autofree char *basename = g_path_get_basename (cs_record_job_get_output (self->job));
        g_autofree char *prefix = g_strdup_printf (_("Saved “%s”:"), basename);
        g_autoptr(GFile) file = g_file_new_for_path (cs_record_job_get_output (self->job));
        g_autofree char *next = NULL;
        g_autofree char *dir = g_path_get_dirname (cs_record_job_get_output (self->job));

        show_stats (self, result, prefix);
        next = new_output_path (dir);
        gtk_editable_set_text (GTK_EDITABLE (self->output_entry), next);
        /* The live timeline indexed the recording as it grew: its index
         * becomes the file's, and the file opens without indexing again. */
        if (self->live != NULL)
          {
            GPtrArray *refs = g_ptr_array_new_with_free_func (g_object_unref);

            g_ptr_array_add (refs, g_object_ref (self));
            g_ptr_array_add (refs, g_object_ref (file));
            cs_record_live_finish_async (self->live, g_file_peek_path (file), live_finished_cb, refs);
          }
        else
          g_signal_emit (self, signals[SIGNAL_RECORDED], 0, file);
        break;
      }
    case CS_RECORD_JOB_STATE_FAILED:
      {
        const GError *error = cs_record_job_get_error (self->job);

        if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
          set_status (self, _("Cancelled."));
        else
          {
            set_status (self, _("The recording failed."));
            show_message (self, error != NULL ? error->message : _("The recording failed"), FALSE);
          }
        break;
      }
    case CS_RECORD_JOB_STATE_IDLE:
    default:
      break;
    }

  update_sensitivity (self);
  if ((state == CS_RECORD_JOB_STATE_DONE || state == CS_RECORD_JOB_STATE_FAILED) &&
      self->close_when_done)
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
live_document_cb (CsRecordPanel *self,
                  CsDocument    *document)
{
  /* Only while this recording runs: a late one must not replace the file. */
  if (self->job != NULL && cs_record_job_get_state (self->job) == CS_RECORD_JOB_STATE_RECORDING)
    g_signal_emit (self, signals[SIGNAL_LIVE_DOCUMENT], 0, document);
}

static gboolean
job_running (CsRecordPanel *self)
{
  CsRecordJobState state = self->job != NULL ? cs_record_job_get_state (self->job)
                                             : CS_RECORD_JOB_STATE_IDLE;

  return state == CS_RECORD_JOB_STATE_STARTING || state == CS_RECORD_JOB_STATE_RECORDING ||
         state == CS_RECORD_JOB_STATE_STOPPING;
}

static void
update_sensitivity (CsRecordPanel *self)
{
  CsRecordJobState state = self->job != NULL ? cs_record_job_get_state (self->job)
                                             : CS_RECORD_JOB_STATE_IDLE;
  gboolean running = job_running (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.start", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.stop",
                                 state == CS_RECORD_JOB_STATE_STARTING ||
                                 state == CS_RECORD_JOB_STATE_RECORDING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "record.choose-output", !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->event_tree), !running);
  gtk_widget_set_sensitive (self->options_grid, !running);
}

/**
 * cs_record_panel_start:
 * @self: a #CsRecordPanel
 *
 * Starts recording with what the panel shows (the Start button): remembers
 * the settings and runs the helper.  Problems show in the panel.
 */
void
cs_record_panel_start (CsRecordPanel *self)
{
  g_autoptr(CsRecordOptions) options = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CS_IS_RECORD_PANEL (self));

  if (job_running (self))
    return;
  show_message (self, NULL, FALSE);
  gtk_label_set_label (self->cpu_stats_label, "");
  options = cs_record_panel_dup_options (self);
  if (options == NULL)
    return;

  g_clear_object (&self->live);
  g_clear_object (&self->job);
  self->job = cs_record_job_new (options);
  g_signal_connect_object (self->job, "notify::state", G_CALLBACK (job_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->job, "notify::stats", G_CALLBACK (job_stats_cb), self, G_CONNECT_SWAPPED);
  self->live = cs_record_live_new (self->job);
  g_signal_connect_object (self->live, "document", G_CALLBACK (live_document_cb), self, G_CONNECT_SWAPPED);
  if (!cs_record_job_start (self->job, &error))
    {
      show_message (self, error->message, FALSE);
      g_clear_object (&self->live);
      g_clear_object (&self->job);
      update_sensitivity (self);
      return;
    }
  save_settings (self, options);
  update_sensitivity (self);
}

/**
 * cs_record_panel_get_live:
 * @self: a #CsRecordPanel
 *
 * Returns: (transfer none) (nullable): the live timeline's source of the
 *   current or last recording
 */
CsRecordLive *
cs_record_panel_get_live (CsRecordPanel *self)
{
  g_return_val_if_fail (CS_IS_RECORD_PANEL (self), NULL);
  return self->live;
}

/**
 * cs_record_panel_stop:
 * @self: a #CsRecordPanel
 *
 * Stops the recording (the Stop button); the file is written and
 * #CsRecordPanel::recorded follows.
 */
void
cs_record_panel_stop (CsRecordPanel *self)
{
  g_return_if_fail (CS_IS_RECORD_PANEL (self));

  if (self->job != NULL)
    cs_record_job_stop (self->job);
  update_sensitivity (self);
}

static void
start_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_record_panel_start (CS_RECORD_PANEL (widget));
}

static void
stop_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_record_panel_stop (CS_RECORD_PANEL (widget));
}

static void
chooser_response_cb (CsRecordPanel *self, int response, GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file != NULL && (path = g_file_get_path (file)) != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->output_entry), path);
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  g_clear_object (&self->chooser);
}

static void
choose_output_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsRecordPanel *self = CS_RECORD_PANEL (widget);
  g_autofree char *current = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->output_entry)));
  g_autofree char *dir = g_path_get_dirname (current);
  g_autofree char *name = g_path_get_basename (current);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Save Recording As"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_record_panel_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer none): a new panel, its events listed when tracefs is
 *   readable (otherwise it offers to list them through pkexec)
 */
CsRecordPanel *
cs_record_panel_new (GtkWindow *parent)
{
  CsRecordPanel *self = g_object_new (CS_TYPE_RECORD_PANEL, "transient-for", parent,
                                      "application", parent != NULL ? gtk_window_get_application (parent) : NULL,
                                      NULL);

  if (parent != NULL)
    g_object_set_data (G_OBJECT (parent), PANEL_KEY, self);
  return self;
}

/**
 * cs_record_panel_get_for:
 * @parent: a window
 *
 * Returns: (nullable) (transfer none): the panel made for @parent with
 *   cs_record_panel_new() and not yet destroyed
 */
CsRecordPanel *
cs_record_panel_get_for (GtkWindow *parent)
{
  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  return g_object_get_data (G_OBJECT (parent), PANEL_KEY);
}

/**
 * cs_record_panel_set_event:
 * @self: a #CsRecordPanel
 * @key: a system ("sched") or an event ("sched:sched_switch")
 * @enabled: whether to record it
 * @filter: (nullable): its filter in tracefs syntax, or %NULL for none
 *
 * Ticks an event or system in the tree, as a click would.
 */
void
cs_record_panel_set_event (CsRecordPanel *self,
                           const char    *key,
                           gboolean       enabled,
                           const char    *filter)
{
  g_return_if_fail (CS_IS_RECORD_PANEL (self));
  cs_record_event_tree_set_event (self->event_tree, key, enabled, filter);
}

/**
 * cs_record_panel_set_output:
 * @self: a #CsRecordPanel
 * @path: the trace.dat to write (absolute)
 *
 * Sets the output file, as the file chooser would.
 */
void
cs_record_panel_set_output (CsRecordPanel *self,
                            const char    *path)
{
  g_return_if_fail (CS_IS_RECORD_PANEL (self));
  gtk_editable_set_text (GTK_EDITABLE (self->output_entry), path);
}

/**
 * cs_record_panel_get_job:
 * @self: a #CsRecordPanel
 *
 * Returns: (nullable) (transfer none): the current or last recording
 */
CsRecordJob *
cs_record_panel_get_job (CsRecordPanel *self)
{
  g_return_val_if_fail (CS_IS_RECORD_PANEL (self), NULL);
  return self->job;
}

/**
 * cs_record_panel_get_status:
 * @self: a #CsRecordPanel
 *
 * Returns: (transfer none): the status line (with live statistics)
 */
const char *
cs_record_panel_get_status (CsRecordPanel *self)
{
  g_return_val_if_fail (CS_IS_RECORD_PANEL (self), NULL);
  return self->status;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static gboolean
cs_record_panel_close_request (GtkWindow *window)
{
  CsRecordPanel *self = CS_RECORD_PANEL (window);

  /* Closing while recording stops it; the panel goes once the file is
   * written, so that the window still opens it. */
  if (job_running (self))
    {
      self->close_when_done = TRUE;
      cs_record_job_stop (self->job);
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }
  return GTK_WINDOW_CLASS (cs_record_panel_parent_class)->close_request (window);
}

static void
cs_record_panel_dispose (GObject *object)
{
  CsRecordPanel *self = CS_RECORD_PANEL (object);
  GtkWindow *parent;

  g_cancellable_cancel (self->cancellable);
  parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  if (parent != NULL && g_object_get_data (G_OBJECT (parent), PANEL_KEY) == self)
    g_object_set_data (G_OBJECT (parent), PANEL_KEY, NULL);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->live);
  g_clear_object (&self->job);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_RECORD_PANEL);

  G_OBJECT_CLASS (cs_record_panel_parent_class)->dispose (object);
}

static void
cs_record_panel_finalize (GObject *object)
{
  CsRecordPanel *self = CS_RECORD_PANEL (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_free (self->status);

  G_OBJECT_CLASS (cs_record_panel_parent_class)->finalize (object);
}

static void
cs_record_panel_class_init (CsRecordPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cs_record_panel_dispose;
  object_class->finalize = cs_record_panel_finalize;
  window_class->close_request = cs_record_panel_close_request;

  /**
   * CsRecordPanel::recorded:
   * @self: the panel
   * @file: the trace.dat just written
   *
   * A recording was written, tracefs restored: time to open it.
   */
  signals[SIGNAL_RECORDED] =
    g_signal_new ("recorded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  /**
   * CsRecordPanel::live-document:
   * @self: the panel
   * @document: what the running recording holds so far (a temporary
   *   snapshot, valid until the next one or the next recording)
   *
   * About once a second while recording: time to refresh the timeline.
   */
  signals[SIGNAL_LIVE_DOCUMENT] =
    g_signal_new ("live-document", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, CS_TYPE_DOCUMENT);

  g_type_ensure (CS_TYPE_RECORD_EVENT_TREE);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-record-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, message_label);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, load_events_button);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, event_tree);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, output_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, extra_events_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, duration_spin);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, command_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, command_only_check);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, pids_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, follow_check);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, cpumask_entry);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, buffer_spin);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, clock_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, tracer_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, tracer_optional_check);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, stacktrace_check);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, status_label);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, cpu_stats_label);
  gtk_widget_class_bind_template_child (widget_class, CsRecordPanel, options_grid);

  gtk_widget_class_install_action (widget_class, "record.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "record.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "record.list-events", NULL, list_events_action);
  gtk_widget_class_install_action (widget_class, "record.choose-output", NULL, choose_output_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cs_record_panel_init (CsRecordPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  cs_record_panel_set_available (self, NULL, NULL, NULL);
  if (!load_events_directly (self))
    show_message (self, _("Listing the kernel’s events needs an administrator’s permission. "
                          "You can also type events under Other events."), TRUE);

  self->settings = lookup_settings ();
  restore_settings (self);
  update_sensitivity (self);
}
