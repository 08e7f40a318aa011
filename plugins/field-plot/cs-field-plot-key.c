/* cs-field-plot-key.c: parsing and checking a field-plot row's key.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "cs-field-plot-key.h"

static gboolean
is_name (const char *s)
{
  if (s == NULL || *s == '\0')
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean
usage (GError     **error,
       const char  *text)
{
  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
               _("“%s” is not a field to plot: write SYSTEM:EVENT.FIELD, optionally followed "
                 "by /cpu=N, /pid=N or /FIELD=N (for example power:cpu_frequency.state/cpu_id=0)"),
               text);
  return FALSE;
}

/**
 * _cs_field_plot_key_parse:
 * @text: a key, "SYSTEM:EVENT.FIELD[/NAME=VALUE]"
 * @key: (out caller-allocates): the parsed key; clear it with
 *   _cs_field_plot_key_clear()
 * @error: %CS_PLUGIN_ERROR_USAGE when @text is not a key
 *
 * Reads a key without looking at any recording.
 */
gboolean
_cs_field_plot_key_parse (const char      *text,
                          CsFieldPlotKey  *key,
                          GError         **error)
{
  g_autofree char *series = NULL;
  const char *slash, *colon, *dot;

  memset (key, 0, sizeof *key);
  if (text == NULL)
    return usage (error, "");
  slash = strchr (text, '/');
  series = slash != NULL ? g_strndup (text, slash - text) : g_strdup (text);
  colon = strchr (series, ':');
  dot = strrchr (series, '.');
  if (colon == NULL || dot == NULL || dot < colon)
    return usage (error, text);
  key->system = g_strndup (series, colon - series);
  key->event = g_strndup (colon + 1, dot - colon - 1);
  key->field = g_strdup (dot + 1);
  if (!is_name (key->system) || !is_name (key->event) || !is_name (key->field))
    {
      _cs_field_plot_key_clear (key);
      return usage (error, text);
    }
  if (slash != NULL)
    {
      const char *eq = strchr (slash, '=');
      g_autofree char *name = eq != NULL ? g_strndup (slash + 1, eq - slash - 1) : NULL;
      char *end = NULL;

      if (eq == NULL || !is_name (name) || eq[1] == '\0')
        {
          _cs_field_plot_key_clear (key);
          return usage (error, text);
        }
      key->split_value = g_ascii_strtoll (eq + 1, &end, 0);
      if (end == NULL || *end != '\0')
        {
          _cs_field_plot_key_clear (key);
          return usage (error, text);
        }
      if (g_str_equal (name, "cpu"))
        key->split = CS_FIELD_PLOT_CPU;
      else if (g_str_equal (name, "pid"))
        key->split = CS_FIELD_PLOT_PID;
      else
        {
          key->split = CS_FIELD_PLOT_FIELD;
          key->split_field = g_steal_pointer (&name);
        }
    }
  return TRUE;
}

void
_cs_field_plot_key_clear (CsFieldPlotKey *key)
{
  g_clear_pointer (&key->system, g_free);
  g_clear_pointer (&key->event, g_free);
  g_clear_pointer (&key->field, g_free);
  g_clear_pointer (&key->split_field, g_free);
  key->split = CS_FIELD_PLOT_ALL;
}

static const char *
split_name (const CsFieldPlotKey *key)
{
  switch (key->split)
    {
    case CS_FIELD_PLOT_CPU:
      return "cpu";
    case CS_FIELD_PLOT_PID:
      return "pid";
    case CS_FIELD_PLOT_FIELD:
      return key->split_field;
    case CS_FIELD_PLOT_ALL:
    default:
      return NULL;
    }
}

/**
 * _cs_field_plot_key_to_string:
 * @key: a key
 *
 * Returns: (transfer full): its text, as _cs_field_plot_key_parse() reads it
 */
char *
_cs_field_plot_key_to_string (const CsFieldPlotKey *key)
{
  if (key->split == CS_FIELD_PLOT_ALL)
    return g_strdup_printf ("%s:%s.%s", key->system, key->event, key->field);
  return g_strdup_printf ("%s:%s.%s/%s=%" G_GINT64_FORMAT, key->system, key->event, key->field,
                          split_name (key), key->split_value);
}

/**
 * _cs_field_plot_key_label:
 * @key: a key
 *
 * Returns: (transfer full): the row's label: the field over the filter
 *   ("cpu=1", "all"), which is what fits the label column (the event is
 *   in the info bar's text)
 */
char *
_cs_field_plot_key_label (const CsFieldPlotKey *key)
{
  if (key->split == CS_FIELD_PLOT_ALL)
    return g_strdup_printf ("%s\nall", key->field);
  return g_strdup_printf ("%s\n%s=%" G_GINT64_FORMAT, key->field, split_name (key),
                          key->split_value);
}

/**
 * _cs_field_plot_field_is_number:
 * @field: a field of an event's format
 *
 * Returns: whether cs_plugin_event_get_int() reads it: 1, 2, 4 or 8 bytes,
 *   not an array or a string
 */
gboolean
_cs_field_plot_field_is_number (struct tep_format_field *field)
{
  return field != NULL &&
         !(field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
         (field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8);
}

/**
 * _cs_field_plot_key_check:
 * @key: a key
 * @document: a recording
 * @error: %CS_PLUGIN_ERROR_USAGE naming what the recording lacks
 *
 * Whether the recording has the key's event, and number fields by the
 * names the key uses.
 */
gboolean
_cs_field_plot_key_check (const CsFieldPlotKey  *key,
                          CsPluginDocument      *document,
                          GError               **error)
{
  struct tep_handle *tep = cs_plugin_document_get_tep (document, error);
  struct tep_event *event;

  if (tep == NULL)
    return FALSE;
  event = tep_find_event_by_name (tep, key->system, key->event);
  if (event == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The recording %s has no event %s:%s"),
                   cs_plugin_document_get_path (document), key->system, key->event);
      return FALSE;
    }
  if (!_cs_field_plot_field_is_number (tep_find_any_field (event, key->field)))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The event %s:%s of %s has no number field “%s”"), key->system, key->event,
                   cs_plugin_document_get_path (document), key->field);
      return FALSE;
    }
  if (key->split == CS_FIELD_PLOT_FIELD &&
      !_cs_field_plot_field_is_number (tep_find_any_field (event, key->split_field)))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The event %s:%s of %s has no number field “%s” to choose by"), key->system,
                   key->event, cs_plugin_document_get_path (document), key->split_field);
      return FALSE;
    }
  return TRUE;
}

/**
 * _cs_field_plot_key_matches:
 * @key: a key
 * @event: an event of the key's type
 *
 * Returns: whether @event passes the key's filter
 */
gboolean
_cs_field_plot_key_matches (const CsFieldPlotKey *key,
                            const CsPluginEvent  *event)
{
  gint64 v;

  switch (key->split)
    {
    case CS_FIELD_PLOT_CPU:
      return event->cpu == key->split_value;
    case CS_FIELD_PLOT_PID:
      return event->pid == key->split_value;
    case CS_FIELD_PLOT_FIELD:
      return cs_plugin_event_get_int (event, key->split_field, &v) && v == key->split_value;
    case CS_FIELD_PLOT_ALL:
    default:
      return TRUE;
    }
}
