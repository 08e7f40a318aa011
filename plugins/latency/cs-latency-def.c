/* cs-latency-def.c: parsing and checking latency pair definitions.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * See cs-latency-def.h for the grammar and the pairing rule.  The presets
 * follow issue 12's list; where a preset could read two event types
 * (sched_waking or sched_wakeup; raw_syscalls or the syscalls:sys_enter_X
 * family) it takes the first one the recording holds events of, never
 * both, so that one wakeup or one system call is never counted twice.
 */
#include <string.h>

#include <event-parse.h>
#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"

/* A preset: A → B with their keys ("|" separates alternatives for A). */
typedef struct {
  const char *name;
  const char *a;        /* "system:ev1|ev2" */
  const char *a_keys;
  const char *b;
  const char *b_keys;
} Preset;

static const Preset presets[] = {
  { "wakeup", "sched:sched_waking|sched_wakeup", "pid", "sched:sched_switch", "next_pid" },
  { "irq", "irq:irq_handler_entry", "irq,@cpu", "irq:irq_handler_exit", "irq,@cpu" },
  { "softirq", "irq:softirq_entry", "vec,@cpu", "irq:softirq_exit", "vec,@cpu" },
  { "softirq-raise", "irq:softirq_raise", "vec,@cpu", "irq:softirq_entry", "vec,@cpu" },
  /* syscall: raw_syscalls, or else the syscalls:sys_enter_X family. */
  { "syscall", "raw_syscalls:sys_enter", "@pid,id", "raw_syscalls:sys_exit", "@pid,id" },
  { "block", "block:block_rq_issue", "dev,sector", "block:block_rq_complete", "dev,sector" },
  { "funcgraph", "ftrace:funcgraph_entry", "@pid,depth", "ftrace:funcgraph_exit", "@pid,depth" },
  { "kmod-irqs-off", "chronoscope:irqs_off_begin", "@cpu", "chronoscope:irqs_off_end", "@cpu" },
  { "kmod-preempt-off", "chronoscope:preempt_off_begin", "@cpu",
    "chronoscope:preempt_off_end", "@cpu" },
  { "kmod-wakeup", "sched:sched_waking|sched_wakeup", "pid", "chronoscope:wakeup_latency", "pid" },
};

static const char *const preset_names[] = {
  "wakeup", "irq", "softirq", "softirq-raise", "syscall", "block", "funcgraph",
  "kmod-irqs-off", "kmod-preempt-off", "kmod-wakeup", NULL,
};

const char * const *
cs_latency_preset_names (void)
{
  return preset_names;
}

static void
pair_free (gpointer data)
{
  CsLatencyPair *pair = data;

  g_free (pair->a_system);
  g_free (pair->a_event);
  g_free (pair->b_system);
  g_free (pair->b_event);
  for (guint i = 0; i < G_N_ELEMENTS (pair->a_more); i++)
    g_free (pair->a_more[i]);
  for (guint i = 0; i < CS_LATENCY_MAX_KEYS; i++)
    {
      g_free (pair->a_keys[i]);
      g_free (pair->b_keys[i]);
    }
  g_free (pair);
}

void
cs_latency_def_free (CsLatencyDef *def)
{
  if (def == NULL)
    return;
  g_free (def->param);
  g_clear_pointer (&def->pairs, g_ptr_array_unref);
  g_free (def);
}

char *
cs_latency_pair_describe (const CsLatencyPair *pair)
{
  g_autofree char *a_keys = g_strjoinv (",", (char **) pair->a_keys);
  g_autofree char *b_keys = g_strjoinv (",", (char **) pair->b_keys);

  return g_strdup_printf ("%s:%s.%s>%s:%s.%s", pair->a_system, pair->a_event, a_keys,
                          pair->b_system, pair->b_event, b_keys);
}

static void
not_a_definition (const char  *param,
                  GError     **error)
{
  g_autofree char *names = g_strjoinv (", ", (char **) preset_names);

  g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
               _("“%s” is not a latency preset (%s) nor a pair "
                 "SYSTEM:EVENT[.FIELD[,FIELD]]>SYSTEM:EVENT[.FIELD[,FIELD]]"), param, names);
}

/* "SYSTEM:EVENT[.KEYS]" into its parts; @keys is NULL without ".KEYS". */
static gboolean
split_side (const char  *side,
            const char  *param,
            char       **system,
            char       **event,
            char      ***keys,
            GError     **error)
{
  g_autofree char *text = g_strstrip (g_strdup (side));
  char *colon = strchr (text, ':');
  char *dot;

  if (colon == NULL || colon == text || colon[1] == '\0')
    {
      not_a_definition (param, error);
      g_prefix_error (error, _("“%s” lacks its SYSTEM:EVENT. "), text);
      return FALSE;
    }
  *colon = '\0';
  dot = strchr (colon + 1, '.');
  if (dot != NULL)
    *dot = '\0';
  *system = g_strdup (text);
  *event = g_strdup (colon + 1);
  *keys = NULL;
  if (dot != NULL)
    {
      *keys = g_strsplit (dot + 1, ",", -1);
      for (guint i = 0; (*keys)[i] != NULL; i++)
        {
          g_strstrip ((*keys)[i]);
          if ((*keys)[i][0] == '\0')
            {
              g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                           _("The latency pair “%s” has an empty field name after %s:%s"),
                           param, *system, *event);
              return FALSE;
            }
        }
    }
  return TRUE;
}

gboolean
cs_latency_field_is_number (const struct tep_format_field *field)
{
  return !(field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
         (field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8);
}

/* Checks that a key part names a number field of @event. */
static gboolean
check_key (struct tep_event  *event,
           const char        *system,
           const char        *name,
           const char        *key,
           GError           **error)
{
  struct tep_format_field *field;

  if (g_str_equal (key, "@pid") || g_str_equal (key, "@cpu"))
    return TRUE;
  field = tep_find_any_field (event, key);
  if (field == NULL)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The event %s:%s has no field “%s” (its format is "
                     "events/%s/%s/format; @pid and @cpu are the task and the CPU)"),
                   system, name, key, system, name);
      return FALSE;
    }
  if (!cs_latency_field_is_number (field))
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The field “%s” of %s:%s is not a number: a latency pair matches "
                     "number fields only"), key, system, name);
      return FALSE;
    }
  return TRUE;
}

/* The document's formats are those of the types it has records of
 * (cs_plugin_document_get_tep()): an event without records is not found,
 * whether or not the recording saved its format. */
static struct tep_event *
find_event (struct tep_handle  *tep,
            const char         *system,
            const char         *name,
            const char         *path,
            GError            **error)
{
  struct tep_event *event = tep_find_event_by_name (tep, system, name);

  if (event == NULL)
    g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                 _("The recording %s has no event %s:%s (none was recorded: it was not "
                   "enabled, or it did not happen)"), path, system, name);
  return event;
}

static gboolean
is_pid_key (const char *key)
{
  return g_str_equal (key, "@pid") || g_str_equal (key, "pid") ||
         g_str_equal (key, "common_pid") || g_str_has_suffix (key, "_pid");
}

/* Builds and checks one pair; @a_keys/@b_keys may be NULL (see the header). */
static CsLatencyPair *
make_pair (CsPluginDocument   *document,
           struct tep_handle  *tep,
           const char         *param,
           const char         *a_system,
           const char         *a_event,
           const char * const *a_keys,
           const char         *b_system,
           const char         *b_event,
           const char * const *b_keys,
           GError            **error)
{
  const char *path = cs_plugin_document_get_path (document);
  const char *const default_keys[] = { "@pid", NULL };
  CsLatencyPair *pair;
  struct tep_event *a, *b;
  guint n_a, n_b;

  if (a_keys == NULL && b_keys == NULL)
    a_keys = b_keys = default_keys;
  else if (a_keys == NULL)
    a_keys = b_keys;
  else if (b_keys == NULL)
    b_keys = a_keys;
  n_a = g_strv_length ((char **) a_keys);
  n_b = g_strv_length ((char **) b_keys);
  if (n_a != n_b || n_a == 0 || n_a > CS_LATENCY_MAX_KEYS)
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The latency pair “%s” must name as many fields on both sides, "
                     "1 to %d (it names %u and %u)"), param, CS_LATENCY_MAX_KEYS, n_a, n_b);
      return NULL;
    }
  a = find_event (tep, a_system, a_event, path, error);
  if (a == NULL)
    return NULL;
  b = find_event (tep, b_system, b_event, path, error);
  if (b == NULL)
    return NULL;
  for (guint i = 0; i < n_a; i++)
    if (!check_key (a, a_system, a_event, a_keys[i], error) ||
        !check_key (b, b_system, b_event, b_keys[i], error))
      return NULL;

  pair = g_new0 (CsLatencyPair, 1);
  pair->a_system = g_strdup (a_system);
  pair->a_event = g_strdup (a_event);
  pair->b_system = g_strdup (b_system);
  pair->b_event = g_strdup (b_event);
  pair->n_keys = n_a;
  pair->pid_key = -1;
  for (guint i = 0; i < n_a; i++)
    {
      pair->a_keys[i] = g_strdup (a_keys[i]);
      pair->b_keys[i] = g_strdup (b_keys[i]);
      if (pair->pid_key < 0 && is_pid_key (a_keys[i]))
        pair->pid_key = i;
    }
  return pair;
}

/* The first of "system:ev1|ev2" the recording has events of; else the
 * first whose format it has; else the first. */
static char *
pick_event (CsPluginDocument  *document,
            struct tep_handle *tep,
            const char        *spec,
            char             **system)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", 2);
  g_auto(GStrv) names = g_strsplit (parts[1], "|", -1);

  *system = g_strdup (parts[0]);
  for (guint i = 0; names[i] != NULL; i++)
    if (cs_plugin_document_count_events (document, parts[0], names[i]) > 0)
      return g_strdup (names[i]);
  for (guint i = 0; names[i] != NULL; i++)
    if (tep_find_event_by_name (tep, parts[0], names[i]) != NULL)
      return g_strdup (names[i]);
  return g_strdup (names[0]);
}

/* syscalls:sys_enter_X → sys_exit_X for every X the recording has. */
static gboolean
add_syscall_family (CsLatencyDef      *def,
                    CsPluginDocument  *document,
                    struct tep_handle *tep,
                    GError           **error)
{
  struct tep_event **events = tep_list_events (tep, TEP_EVENT_SORT_NAME);
  const char *const keys[] = { "@pid", NULL };

  for (guint i = 0; events != NULL && events[i] != NULL; i++)
    {
      struct tep_event *e = events[i];
      g_autofree char *exit_name = NULL;
      CsLatencyPair *pair;

      if (g_strcmp0 (e->system, "syscalls") != 0 || !g_str_has_prefix (e->name, "sys_enter_") ||
          cs_plugin_document_count_events (document, "syscalls", e->name) == 0)
        continue;
      exit_name = g_strconcat ("sys_exit_", e->name + strlen ("sys_enter_"), NULL);
      if (tep_find_event_by_name (tep, "syscalls", exit_name) == NULL)
        continue;
      pair = make_pair (document, tep, def->param, "syscalls", e->name, keys, "syscalls",
                        exit_name, keys, error);
      if (pair == NULL)
        return FALSE;
      g_ptr_array_add (def->pairs, pair);
    }
  return TRUE;
}

/* The wakeup preset's pair follows the wakeup rule (cs-latency-def.h):
 * every wakeup event the recording has a format of is an A. */
static void
use_wakeup_rule (CsLatencyPair     *pair,
                 struct tep_handle *tep)
{
  static const char *const wakeups[] = { CS_PLUGIN_WAKEUP_EVENTS ("") };
  guint n = 0;

  pair->wakeup_rule = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (wakeups); i++)
    {
      struct tep_event *event = tep_find_event_by_name (tep, "sched", wakeups[i]);

      if (!g_str_equal (wakeups[i], pair->a_event) && event != NULL &&
          tep_find_field (event, "pid") != NULL && n < G_N_ELEMENTS (pair->a_more) - 1)
        pair->a_more[n++] = g_strdup (wakeups[i]);
    }
}

static gboolean
add_preset (CsLatencyDef      *def,
            const Preset      *preset,
            CsPluginDocument  *document,
            struct tep_handle *tep,
            GError           **error)
{
  g_auto(GStrv) a_keys = g_strsplit (preset->a_keys, ",", -1);
  g_auto(GStrv) b_keys = g_strsplit (preset->b_keys, ",", -1);
  g_auto(GStrv) b = g_strsplit (preset->b, ":", 2);
  g_autofree char *a_system = NULL;
  g_autofree char *a_event = NULL;
  CsLatencyPair *pair;

  if (g_str_equal (preset->name, "syscall") &&
      cs_plugin_document_count_events (document, "raw_syscalls", "sys_enter") == 0)
    {
      if (!add_syscall_family (def, document, tep, error))
        return FALSE;
      if (def->pairs->len > 0)
        return TRUE;
    }
  a_event = pick_event (document, tep, preset->a, &a_system);
  pair = make_pair (document, tep, preset->name, a_system, a_event,
                    (const char * const *) a_keys, b[0], b[1],
                    (const char * const *) b_keys, error);
  if (pair == NULL)
    {
      g_prefix_error (error, _("The latency preset “%s” does not fit this recording: "),
                      preset->name);
      return FALSE;
    }
  if (g_str_equal (preset->name, "wakeup"))
    use_wakeup_rule (pair, tep);
  g_ptr_array_add (def->pairs, pair);
  return TRUE;
}

static gboolean
add_spec (CsLatencyDef      *def,
          CsPluginDocument  *document,
          struct tep_handle *tep,
          GError           **error)
{
  g_auto(GStrv) sides = g_strsplit (def->param, ">", -1);
  g_autofree char *a_system = NULL, *a_event = NULL, *b_system = NULL, *b_event = NULL;
  g_auto(GStrv) a_keys = NULL;
  g_auto(GStrv) b_keys = NULL;
  CsLatencyPair *pair;

  if (g_strv_length (sides) != 2)
    {
      not_a_definition (def->param, error);
      return FALSE;
    }
  if (!split_side (sides[0], def->param, &a_system, &a_event, &a_keys, error) ||
      !split_side (sides[1], def->param, &b_system, &b_event, &b_keys, error))
    return FALSE;
  pair = make_pair (document, tep, def->param, a_system, a_event,
                    (const char * const *) a_keys, b_system, b_event,
                    (const char * const *) b_keys, error);
  if (pair == NULL)
    return FALSE;
  g_ptr_array_add (def->pairs, pair);
  return TRUE;
}

CsLatencyDef *
cs_latency_def_new (CsPluginDocument  *document,
                    const char        *param,
                    GError           **error)
{
  g_autoptr(CsLatencyDef) def = NULL;
  struct tep_handle *tep;

  g_return_val_if_fail (document != NULL, NULL);

  if (param == NULL || *param == '\0')
    {
      g_set_error (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_USAGE,
                   _("The latency pass needs a preset or a pair (SYSTEM:EVENT>SYSTEM:EVENT)"));
      return NULL;
    }
  tep = cs_plugin_document_get_tep (document, error);
  if (tep == NULL)
    return NULL;
  def = g_new0 (CsLatencyDef, 1);
  def->param = g_strdup (param);
  def->pairs = g_ptr_array_new_with_free_func (pair_free);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (g_str_equal (param, presets[i].name))
      {
        def->preset = presets[i].name;
        if (!add_preset (def, &presets[i], document, tep, error))
          return NULL;
        return g_steal_pointer (&def);
      }
  if (!add_spec (def, document, tep, error))
    return NULL;
  return g_steal_pointer (&def);
}

/* Adds "system:name" to @events unless it is there. */
static void
add_event (GPtrArray  *events,
           const char *system,
           const char *name)
{
  char *event = g_strdup_printf ("%s:%s", system, name);

  if (!g_ptr_array_find_with_equal_func (events, event, g_str_equal, NULL))
    g_ptr_array_add (events, event);
  else
    g_free (event);
}

char **
cs_latency_def_dup_events (const CsLatencyDef *def)
{
  GPtrArray *events = g_ptr_array_new ();

  for (guint i = 0; i < def->pairs->len; i++)
    {
      const CsLatencyPair *pair = g_ptr_array_index (def->pairs, i);

      add_event (events, pair->a_system, pair->a_event);
      add_event (events, pair->b_system, pair->b_event);
      for (guint j = 0; pair->a_more[j] != NULL; j++)
        add_event (events, pair->a_system, pair->a_more[j]);
    }
  g_ptr_array_add (events, NULL);
  return (char **) g_ptr_array_free (events, FALSE);
}
