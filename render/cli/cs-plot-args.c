/* cs-plot-args.c: the lists of CPUs and tasks given on the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * KernelShark's syntax: `--cpu 1,4-7` (single CPUs and inclusive ranges,
 * the syntax of the kernel's cpulist files such as
 * /sys/devices/system/cpu/online), `--pid 12,34` and `--task bash,make`.
 * Errors are G_OPTION_ERROR_BAD_VALUE with a message naming the bad part,
 * so GOptionContext callers can pass them on.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include <glib/gi18n.h>

#include "cs-plot-args.h"

#define MAX_CPU 65535

static gboolean
parse_number (const char *text, gint64 min, gint64 max, gint64 *value)
{
  char *end = NULL;
  gint64 number;

  text = text != NULL ? text : "";
  while (g_ascii_isspace (*text))
    text++;
  if (!g_ascii_isdigit (*text))
    return FALSE;
  errno = 0;
  number = g_ascii_strtoll (text, &end, 10);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (errno != 0 || end == NULL || *end != '\0' || number < min || number > max)
    return FALSE;
  *value = number;
  return TRUE;
}

static int
compare_uint (gconstpointer a, gconstpointer b)
{
  guint ua = *(const guint *) a, ub = *(const guint *) b;

  return (ua > ub) - (ua < ub);
}

/**
 * cs_plot_args_parse_cpus:
 * @text: a CPU list, "1,4-7": CPU numbers and inclusive ranges separated by
 *   commas, as in the kernel's cpulist files
 * @error: return location for a %G_OPTION_ERROR_BAD_VALUE naming the bad part
 *
 * Returns: (transfer full) (nullable): the CPUs, ascending, each once, as
 *   guint; %NULL on error.  Whether they exist in a recording is for the
 *   caller to check.
 */
GArray *
cs_plot_args_parse_cpus (const char  *text,
                         GError     **error)
{
  g_autoptr(GArray) cpus = g_array_new (FALSE, FALSE, sizeof (guint));
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_auto(GStrv) range = g_strsplit (parts[i], "-", 2);
      gint64 first, last;

      if (!parse_number (range[0], 0, MAX_CPU, &first) ||
          !parse_number (range[1] != NULL ? range[1] : range[0], 0, MAX_CPU, &last) ||
          last < first)
        {
          /* TRANSLATORS: %s is the bad part of a CPU list, "--cpu 1,4-7" */
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s” is not a CPU or a range of CPUs (write them as 1,4-7)"),
                       g_strstrip (parts[i]));
          return NULL;
        }
      for (gint64 cpu = first; cpu <= last; cpu++)
        {
          guint value = (guint) cpu;

          g_array_append_val (cpus, value);
        }
    }

  g_array_sort (cpus, compare_uint);
  for (guint i = 1; i < cpus->len; )
    {
      if (g_array_index (cpus, guint, i) == g_array_index (cpus, guint, i - 1))
        g_array_remove_index (cpus, i);
      else
        i++;
    }
  return g_steal_pointer (&cpus);
}

/**
 * cs_plot_args_format_cpus:
 * @cpus: (array length=n_cpus): CPU numbers, ascending
 * @n_cpus: how many
 *
 * The inverse of cs_plot_args_parse_cpus(): runs of consecutive CPUs become
 * ranges.
 *
 * Returns: (transfer full): "0-3,6" ("" for no CPU)
 */
char *
cs_plot_args_format_cpus (const guint *cpus,
                          guint        n_cpus)
{
  GString *text = g_string_new (NULL);
  guint i = 0;

  while (i < n_cpus)
    {
      guint j = i;

      while (j + 1 < n_cpus && cpus[j + 1] == cpus[j] + 1)
        j++;
      if (text->len > 0)
        g_string_append_c (text, ',');
      if (j == i)
        g_string_append_printf (text, "%u", cpus[i]);
      else
        g_string_append_printf (text, "%u-%u", cpus[i], cpus[j]);
      i = j + 1;
    }
  return g_string_free (text, FALSE);
}

/**
 * cs_plot_args_parse_pids:
 * @text: pids separated by commas, "12,34"
 * @error: return location for a %G_OPTION_ERROR_BAD_VALUE naming the bad part
 *
 * Returns: (transfer full) (nullable): the pids as gint32, in the order
 *   given, each once; %NULL on error
 */
GArray *
cs_plot_args_parse_pids (const char  *text,
                         GError     **error)
{
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      gint64 value;
      gint32 pid;
      gboolean seen = FALSE;

      if (!parse_number (parts[i], 0, G_MAXINT32, &value))
        {
          /* TRANSLATORS: %s is the bad part of a pid list, "--pid 12,34" */
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("“%s” is not a pid (write them as 12,34)"), g_strstrip (parts[i]));
          return NULL;
        }
      pid = (gint32) value;
      for (guint j = 0; j < pids->len && !seen; j++)
        seen = g_array_index (pids, gint32, j) == pid;
      if (!seen)
        g_array_append_val (pids, pid);
    }
  return g_steal_pointer (&pids);
}

/**
 * cs_plot_args_split_comms:
 * @text: command names separated by commas, "bash,make"
 *
 * Returns: (transfer full): the non-empty names, trimmed
 */
GStrv
cs_plot_args_split_comms (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text != NULL ? text : "", ",", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (*parts[i] != '\0')
        g_strv_builder_add (builder, parts[i]);
    }
  return g_strv_builder_end (builder);
}

/**
 * cs_plot_args_add_tasks_by_comm:
 * @document: a recording
 * @comms: (array zero-terminated=1): command names, as --task gives them
 * @pids: (element-type gint32): where the pids of the tasks called so are
 *   appended, in the recording's task order, each once
 *
 * KernelShark's `--task`: every thread whose last known comm is one of
 * @comms gets a task plot.
 */
void
cs_plot_args_add_tasks_by_comm (CsDocument         *document,
                                const char * const *comms,
                                GArray             *pids)
{
  g_return_if_fail (CS_IS_DOCUMENT (document));
  g_return_if_fail (pids != NULL);

  if (comms == NULL || comms[0] == NULL)
    return;

  for (guint i = 0; i < cs_document_get_n_tasks (document); i++)
    {
      const CsTask *task = cs_document_get_task (document, i);
      gboolean seen = FALSE;

      if (task->pid <= 0 || task->comm == NULL || !g_strv_contains (comms, task->comm))
        continue;
      for (guint j = 0; j < pids->len && !seen; j++)
        seen = g_array_index (pids, gint32, j) == task->pid;
      if (!seen)
        g_array_append_val (pids, task->pid);
    }
}

/**
 * cs_plot_args_select_cpus:
 * @document: a recording
 * @requested: (nullable) (element-type guint): CPUs asked for (--cpu), or
 *   %NULL for the default
 *
 * Which CPU plots a recording opens with: the CPUs asked for that the
 * recording has, or, by default, every CPU that recorded an event (idle
 * CPUs of a large machine are left out; all of them when none has events).
 *
 * Returns: (transfer full) (element-type guint): CPU numbers, ascending
 */
GArray *
cs_plot_args_select_cpus (CsDocument *document,
                          GArray     *requested)
{
  guint n_cpus = cs_document_get_n_cpus (document);
  GArray *cpus = g_array_new (FALSE, FALSE, sizeof (guint));

  if (requested != NULL)
    {
      for (guint i = 0; i < requested->len; i++)
        if (g_array_index (requested, guint, i) < n_cpus)
          g_array_append_val (cpus, g_array_index (requested, guint, i));
      return cpus;
    }

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    if (cs_document_get_cpu (document, cpu)->n_events > 0)
      g_array_append_val (cpus, cpu);
  if (cpus->len == 0)
    for (guint cpu = 0; cpu < n_cpus; cpu++)
      g_array_append_val (cpus, cpu);
  return cpus;
}
