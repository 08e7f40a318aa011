/* cs-record-options.c: what to record, and its command-line form.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The command line is trace-cmd record's where the options mean the same
 * (-e, -f after the -e it filters, -P, -b, -C, -p, -T, -o, -F), plus
 * `-c CPUMASK` and `--duration`.  The same form travels from the window to
 * the privileged helper: cs_record_options_to_args() and
 * cs_record_options_parse_args() are each other's inverse.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cs-record-options.h"

G_DEFINE_BOXED_TYPE (CsRecordOptions, cs_record_options,
                     cs_record_options_copy, cs_record_options_free)

/**
 * cs_record_options_new:
 *
 * Returns: (transfer full): options recording nothing yet, to the default
 *   trace clock and buffer size, with no owner
 */
CsRecordOptions *
cs_record_options_new (void)
{
  CsRecordOptions *self = g_new0 (CsRecordOptions, 1);

  self->events = g_new0 (char *, 1);
  self->filters = g_new0 (char *, 1);
  self->pids = g_array_new (FALSE, FALSE, sizeof (int));
  self->owner_uid = -1;
  self->owner_gid = -1;
  return self;
}

/**
 * cs_record_options_copy:
 * @self: options
 *
 * Returns: (transfer full): a deep copy
 */
CsRecordOptions *
cs_record_options_copy (const CsRecordOptions *self)
{
  CsRecordOptions *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->events = g_strdupv (self->events);
  copy->filters = g_strdupv (self->filters);
  copy->pids = g_array_copy (self->pids);
  copy->cpumask = g_strdup (self->cpumask);
  copy->clock = g_strdup (self->clock);
  copy->tracer = g_strdup (self->tracer);
  copy->output = g_strdup (self->output);
  copy->command = g_strdupv (self->command);
  return copy;
}

/**
 * cs_record_options_free:
 * @self: (nullable): options
 *
 * Frees @self and everything it holds.
 */
void
cs_record_options_free (CsRecordOptions *self)
{
  if (self == NULL)
    return;

  g_strfreev (self->events);
  g_strfreev (self->filters);
  g_array_unref (self->pids);
  g_free (self->cpumask);
  g_free (self->clock);
  g_free (self->tracer);
  g_free (self->output);
  g_strfreev (self->command);
  g_free (self);
}

static char **
strv_append (char **strv, const char *s)
{
  guint n = strv != NULL ? g_strv_length (strv) : 0;

  strv = g_renew (char *, strv, n + 2);
  strv[n] = g_strdup (s);
  strv[n + 1] = NULL;
  return strv;
}

/**
 * cs_record_options_add_event:
 * @self: options
 * @spec: an event specification (see #CsRecordOptions:events)
 * @filter: (nullable): its filter in tracefs syntax, or %NULL
 *
 * Adds an event to record, with its filter.
 */
void
cs_record_options_add_event (CsRecordOptions *self,
                             const char      *spec,
                             const char      *filter)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (spec != NULL);

  self->events = strv_append (self->events, spec);
  self->filters = strv_append (self->filters, filter != NULL ? filter : "");
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static gboolean
event_cb (const char  *option_name,
          const char  *value,
          gpointer     data,
          GError     **error)
{
  cs_record_options_add_event (data, value, NULL);
  return TRUE;
}

static gboolean
filter_cb (const char  *option_name,
           const char  *value,
           gpointer     data,
           GError     **error)
{
  CsRecordOptions *self = data;
  guint n = g_strv_length (self->filters);

  if (n == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s “%s” must follow the -e EVENT it filters"), option_name, value);
      return FALSE;
    }
  g_free (self->filters[n - 1]);
  self->filters[n - 1] = g_strdup (value);
  return TRUE;
}

static gboolean
pid_cb (const char  *option_name,
        const char  *value,
        gpointer     data,
        GError     **error)
{
  CsRecordOptions *self = data;
  g_auto(GStrv) parts = g_strsplit (value, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 pid;

      if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, G_MAXINT, &pid, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s: “%s” is not a process id"), option_name, parts[i]);
          return FALSE;
        }
      int pid_value = (int) pid;

      g_array_append_val (self->pids, pid_value);
    }
  return TRUE;
}

/**
 * cs_record_options_parse_args:
 * @self: options to fill
 * @argc: (inout): number of arguments
 * @argv: (inout) (array length=argc): the arguments, argv[0] being the
 *   command's name; what follows the options (after "--" or the first
 *   non-option) is the command to record
 * @command_name: the name shown in --help ("chronoscope record")
 * @summary: (nullable): the summary shown in --help
 * @extra_entries: (nullable) (array zero-terminated=1): more options of the
 *   caller, parsed in the same pass
 * @error: return location for a `G_OPTION_ERROR`
 *
 * Parses `[-e EVENT [-f FILTER]]... [-P PID]... [--follow-children] [-c
 * CPUMASK] [-b KB] [-C CLOCK] [-p TRACER] [--tracer-optional] [-T] [-o FILE]
 * [--duration S] [-F] [-- COMMAND ...]`.  --help prints the options and
 * exits the process.
 *
 * Returns: whether the arguments parsed
 */
gboolean
cs_record_options_parse_args (CsRecordOptions     *self,
                              int                 *argc,
                              char              ***argv,
                              const char          *command_name,
                              const char          *summary,
                              const GOptionEntry  *extra_entries,
                              GError             **error)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *output = NULL;
  g_autofree char *buffer_size = NULL;
  g_autofree char *duration = NULL;
  gboolean ok;
  const GOptionEntry entries[] = {
    { "event", 'e', 0, G_OPTION_ARG_CALLBACK, event_cb,
      N_("Record EVENT: system:event, system, or event; globs allowed (repeatable)"), N_("EVENT") },
    { "filter", 'f', 0, G_OPTION_ARG_CALLBACK, filter_cb,
      N_("Filter for the -e EVENT before it, in tracefs syntax (\"prev_pid != 0\")"), N_("FILTER") },
    { "pid", 'P', 0, G_OPTION_ARG_CALLBACK, pid_cb,
      N_("Only record the events of PID (repeatable, or comma-separated)"), N_("PID") },
    { "follow-children", 0, 0, G_OPTION_ARG_NONE, &self->follow_children,
      N_("With -P, also record the children the tasks fork"), NULL },
    { "cpumask", 'c', 0, G_OPTION_ARG_STRING, &self->cpumask,
      N_("Only record the CPUs of this hexadecimal mask (tracing_cpumask)"), N_("CPUMASK") },
    { "buffer-size", 'b', 0, G_OPTION_ARG_STRING, &buffer_size,
      N_("Ring-buffer size per CPU in KiB (buffer_size_kb)"), N_("KB") },
    { "clock", 'C', 0, G_OPTION_ARG_STRING, &self->clock,
      N_("Trace clock: local, global, mono, boot… (trace_clock)"), N_("CLOCK") },
    { "tracer", 'p', 0, G_OPTION_ARG_STRING, &self->tracer,
      N_("Also run TRACER (function, function_graph…; current_tracer)"), N_("TRACER") },
    { "tracer-optional", 0, 0, G_OPTION_ARG_NONE, &self->tracer_optional,
      N_("If the kernel refuses the tracer, record the events anyway"), NULL },
    { "stacktrace", 'T', 0, G_OPTION_ARG_NONE, &self->stacktrace,
      N_("Record a kernel stack trace with every event (options/stacktrace)"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the recording to FILE (default: trace.dat)"), N_("FILE") },
    { "duration", 0, 0, G_OPTION_ARG_STRING, &duration,
      N_("Stop after S seconds"), N_("S") },
    { "command-only", 'F', 0, G_OPTION_ARG_NONE, &self->trace_command_only,
      N_("Only record the events of COMMAND and its children"), NULL },
    { NULL }
  };
  GOptionGroup *group;

  g_return_val_if_fail (self != NULL, FALSE);

  context = g_option_context_new (_("[-- COMMAND [ARG…]]"));
  group = g_option_group_new (NULL, NULL, NULL, self, NULL);
  g_option_group_add_entries (group, entries);
  if (extra_entries != NULL)
    g_option_group_add_entries (group, extra_entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
  if (summary != NULL)
    g_option_context_set_summary (context, summary);
  /* Stop at the first non-option: "record -e sched ls -l" records "ls -l". */
  g_option_context_set_strict_posix (context, TRUE);
  g_set_prgname (command_name);

  ok = g_option_context_parse (context, argc, argv, error);
  if (!ok)
    return FALSE;

  if (output != NULL)
    {
      g_free (self->output);
      self->output = g_steal_pointer (&output);
    }

  if (buffer_size != NULL)
    {
      guint64 kb;

      if (!g_ascii_string_to_unsigned (buffer_size, 10, 1, G_MAXUINT32, &kb, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("-b: “%s” is not a size in KiB"), buffer_size);
          return FALSE;
        }
      self->buffer_size_kb = (guint) kb;
    }

  if (duration != NULL)
    {
      char *end = NULL;
      double seconds = g_ascii_strtod (duration, &end);

      if (end == duration || *end != '\0' || !(seconds > 0) || seconds > 365.0 * 86400)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--duration: “%s” is not a number of seconds"), duration);
          return FALSE;
        }
      self->duration_s = seconds;
    }

  /* What is left after argv[0] (GLib drops a first "--") is the command. */
  if (*argc > 1)
    {
      int first = 1;

      if (strcmp ((*argv)[1], "--") == 0)
        first = 2;
      if (*argc > first)
        {
          g_strfreev (self->command);
          self->command = g_new0 (char *, *argc - first + 1);
          for (int i = first; i < *argc; i++)
            self->command[i - first] = g_strdup ((*argv)[i]);
        }
    }

  return TRUE;
}

/**
 * cs_record_options_to_args:
 * @self: options
 *
 * The command-line form of @self that cs_record_options_parse_args() turns
 * back into the same options (the owner is not part of it: the helper
 * learns it from pkexec).
 *
 * Returns: (transfer full) (array zero-terminated=1): the arguments,
 *   without a program name
 */
char **
cs_record_options_to_args (const CsRecordOptions *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; self->events[i] != NULL; i++)
    {
      g_strv_builder_add_many (builder, "-e", self->events[i], NULL);
      if (self->filters[i] != NULL && self->filters[i][0] != '\0')
        g_strv_builder_add_many (builder, "-f", self->filters[i], NULL);
    }
  for (guint i = 0; i < self->pids->len; i++)
    {
      g_autofree char *pid = g_strdup_printf ("%d", g_array_index (self->pids, int, i));
      g_strv_builder_add_many (builder, "-P", pid, NULL);
    }
  if (self->follow_children)
    g_strv_builder_add (builder, "--follow-children");
  if (self->cpumask != NULL && *self->cpumask != '\0')
    g_strv_builder_add_many (builder, "-c", self->cpumask, NULL);
  if (self->buffer_size_kb > 0)
    {
      g_autofree char *kb = g_strdup_printf ("%u", self->buffer_size_kb);
      g_strv_builder_add_many (builder, "-b", kb, NULL);
    }
  if (self->clock != NULL && *self->clock != '\0')
    g_strv_builder_add_many (builder, "-C", self->clock, NULL);
  if (self->tracer != NULL && *self->tracer != '\0')
    g_strv_builder_add_many (builder, "-p", self->tracer, NULL);
  if (self->tracer_optional)
    g_strv_builder_add (builder, "--tracer-optional");
  if (self->stacktrace)
    g_strv_builder_add (builder, "-T");
  if (self->output != NULL)
    g_strv_builder_add_many (builder, "-o", self->output, NULL);
  if (self->duration_s > 0)
    {
      char seconds[G_ASCII_DTOSTR_BUF_SIZE];
      g_strv_builder_add_many (builder, "--duration",
                               g_ascii_dtostr (seconds, sizeof seconds, self->duration_s), NULL);
    }
  if (self->trace_command_only)
    g_strv_builder_add (builder, "-F");
  if (self->command != NULL && self->command[0] != NULL)
    {
      g_strv_builder_add (builder, "--");
      g_strv_builder_addv (builder, (const char **) self->command);
    }

  return g_strv_builder_end (builder);
}

static gboolean
bad_option (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
bad_option (GError **error, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, CS_RECORD_ERROR, CS_RECORD_ERROR_BAD_OPTION, message);
  return FALSE;
}

static gboolean
is_word (const char *s, const char *extra)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && strchr (extra, *s) == NULL)
      return FALSE;
  return TRUE;
}

/**
 * cs_record_options_validate:
 * @self: options
 * @error: return location for a %CS_RECORD_ERROR_BAD_OPTION error naming
 *   the option
 *
 * Checks what can be checked without tracefs: an output file, something to
 * record, the form of the clock, tracer, CPU mask, pids and event
 * specifications.  The kernel has the last word on each (cs_recorder_start()).
 *
 * Returns: whether the options are usable
 */
gboolean
cs_record_options_validate (const CsRecordOptions  *self,
                            GError                **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->output == NULL || *self->output == '\0')
    return bad_option (error, _("No output file (-o FILE)"));
  if (g_file_test (self->output, G_FILE_TEST_IS_DIR))
    return bad_option (error, _("The output “%s” is a folder"), self->output);
  if ((self->events == NULL || self->events[0] == NULL) &&
      (self->tracer == NULL || *self->tracer == '\0' || g_strcmp0 (self->tracer, "nop") == 0))
    return bad_option (error, _("Nothing to record: choose events (-e sched) or a tracer (-p)"));
  for (guint i = 0; self->events[i] != NULL; i++)
    if (!is_word (self->events[i], ":/*?-[]"))
      return bad_option (error, _("“%s” is not an event (system:event, system or event)"),
                         self->events[i]);
  if (self->filters == NULL || g_strv_length (self->filters) != g_strv_length (self->events))
    return bad_option (error, _("Each filter must belong to an event"));
  if (self->clock != NULL && *self->clock != '\0' && !is_word (self->clock, "-"))
    return bad_option (error, _("“%s” is not a trace clock"), self->clock);
  if (self->tracer != NULL && *self->tracer != '\0' && !is_word (self->tracer, "-"))
    return bad_option (error, _("“%s” is not a tracer"), self->tracer);
  if (self->cpumask != NULL && *self->cpumask != '\0')
    {
      const char *p = self->cpumask;

      if (g_str_has_prefix (p, "0x") || g_str_has_prefix (p, "0X"))
        p += 2;
      if (*p == '\0')
        return bad_option (error, _("“%s” is not a hexadecimal CPU mask"), self->cpumask);
      for (; *p != '\0'; p++)
        if (!g_ascii_isxdigit (*p) && *p != ',')
          return bad_option (error, _("“%s” is not a hexadecimal CPU mask"), self->cpumask);
    }
  for (guint i = 0; i < self->pids->len; i++)
    if (g_array_index (self->pids, int, i) <= 0)
      return bad_option (error, _("%d is not a process id"), g_array_index (self->pids, int, i));
  if (self->duration_s < 0)
    return bad_option (error, _("A duration must be positive"));
  if (self->trace_command_only && (self->command == NULL || self->command[0] == NULL))
    return bad_option (error, _("-F needs a command to record"));
  return TRUE;
}
