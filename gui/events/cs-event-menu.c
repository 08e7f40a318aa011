/* cs-event-menu.c: the context menu of an event, task or CPU, shared by the
 * timeline and the event list, and the event's field dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The menu offers KernelShark's actions on what was clicked.  Filters and
 * task plots are window actions with the pid, CPU or event type id as their
 * parameter, so whoever owns filters and plots handles them the same way
 * from the timeline, the list or a keyboard shortcut:
 *
 *   win.filter-task-only(i pid)     win.filter-task-hide(i pid)
 *   win.filter-event-only(u type)   win.filter-event-hide(u type)
 *   win.filter-cpu-only(u cpu)      win.filter-cpu-hide(u cpu)
 *   win.filter-stream-only(s path)  win.filter-stream-hide(s path)
 *   win.add-task-plot(i pid)        win.remove-task-plot(i pid)
 *   win.add-cpu-plot(u cpu)         win.remove-cpu-plot(u cpu)
 *
 * A menu item whose action the window lacks shows greyed out.  "Raw
 * fields…" is local to the menu (event.show-fields): it needs the whole
 * event, which no parameter of a window action carries.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-event-fields.h"
#include "cs-event-menu.h"
#include "cs-time-axis.h"

/* ------------------------------------------------------------------------ */
/* The menu                                                                  */

static char *
describe_task (CsDocument *document,
               gint32      pid)
{
  const char *comm = cs_document_get_comm (document, pid);

  if (pid == 0)
    return g_strdup ("<idle>-0");
  return g_strdup_printf ("%s-%d", comm != NULL ? comm : "<…>", pid);
}

static char *
describe_event_type (CsDocument *document,
                     guint       type_id)
{
  const CsEventType *type = cs_document_get_event_type (document, type_id);

  if (type == NULL)
    return g_strdup_printf ("#%u", type_id);
  return g_strdup_printf ("%s:%s", type->system, type->name);
}

/* The id @document gives the event type @source calls @type_id, matched
 * by "system:name" as cs_event_filter_translate() does; FALSE when
 * @document has no such type. */
static gboolean
translate_type_id (CsDocument *source,
                   guint       type_id,
                   CsDocument *document,
                   guint      *id)
{
  const CsEventType *type = cs_document_get_event_type (source, type_id);

  if (source == document)
    {
      *id = type_id;
      return TRUE;
    }
  for (guint t = 0; type != NULL && t < cs_document_get_n_event_types (document); t++)
    {
      const CsEventType *other = cs_document_get_event_type (document, t);

      if (g_strcmp0 (other->system, type->system) == 0 && g_strcmp0 (other->name, type->name) == 0)
        {
          *id = t;
          return TRUE;
        }
    }
  return FALSE;
}

/* Menu labels read "_" as a mnemonic: task and event names keep theirs
 * ("rcu_preempt", "sched_switch") doubled. */
static char *
escape_underscores (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

static void
append_item (GMenu      *section,
             const char *label,
             const char *action,
             GVariant   *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  g_menu_append_item (section, item);
}

/**
 * cs_event_menu_build:
 * @document: the recording
 * @target: what was clicked
 *
 * The context menu for @target: show only / hide its task, event type and
 * CPU, add or remove its task and CPU plots, and its raw fields.  Items name what
 * they act on ("Hide Task “bash-1234”").  For another stream's event
 * (@target's source), names come from its recording and the filters are
 * those of the window's filter, which every stream takes (pids as they
 * are, event types by "system:name").
 *
 * Returns: (transfer full): the menu
 */
GMenuModel *
cs_event_menu_build (CsDocument              *document,
                     const CsEventMenuTarget *target)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) filters = g_menu_new ();
  g_autoptr(GMenu) plots = g_menu_new ();
  g_autoptr(GMenu) details = g_menu_new ();
  CsDocument *source;
  guint type_id = 0;

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (target != NULL, NULL);
  source = target->source != NULL ? target->source : document;

  if (target->has_task)
    {
      g_autofree char *name = describe_task (source, target->pid);
      g_autofree char *task = escape_underscores (name);
      g_autofree char *only = NULL;
      g_autofree char *hide = NULL;
      g_autofree char *add = NULL;
      g_autofree char *remove = NULL;

      /* TRANSLATORS: a context menu item; %s is a task, "bash-1234" */
      only = g_strdup_printf (_("Show Only Task “%s”"), task);
      /* TRANSLATORS: a context menu item; %s is a task, "bash-1234" */
      hide = g_strdup_printf (_("Hide Task “%s”"), task);
      /* TRANSLATORS: a context menu item; %s is a task, "bash-1234" */
      add = g_strdup_printf (_("Add Task Plot “%s”"), task);
      /* TRANSLATORS: a context menu item; %s is a task, "bash-1234" */
      remove = g_strdup_printf (_("Remove Task Plot “%s”"), task);

      append_item (filters, only, "win.filter-task-only", g_variant_new_int32 (target->pid));
      append_item (filters, hide, "win.filter-task-hide", g_variant_new_int32 (target->pid));
      /* task plots are the window's own recording's */
      if (source == document)
        {
          append_item (plots, add, "win.add-task-plot", g_variant_new_int32 (target->pid));
          append_item (plots, remove, "win.remove-task-plot", g_variant_new_int32 (target->pid));
        }
    }

  if (target->has_event && translate_type_id (source, target->event.type_id, document, &type_id))
    {
      g_autofree char *type = describe_event_type (source, target->event.type_id);
      g_autofree char *name = escape_underscores (type);
      g_autofree char *only = NULL;
      g_autofree char *hide = NULL;

      /* TRANSLATORS: a context menu item; %s is an event, "sched:sched_switch" */
      only = g_strdup_printf (_("Show Only Event “%s”"), name);
      /* TRANSLATORS: a context menu item; %s is an event, "sched:sched_switch" */
      hide = g_strdup_printf (_("Hide Event “%s”"), name);

      append_item (filters, only, "win.filter-event-only", g_variant_new_uint32 (type_id));
      append_item (filters, hide, "win.filter-event-hide", g_variant_new_uint32 (type_id));
    }

  if (target->has_cpu)
    {
      g_autofree char *only = NULL;
      g_autofree char *hide = NULL;

      /* TRANSLATORS: a context menu item; %u is a CPU number */
      only = g_strdup_printf (_("Show Only CPU %u"), target->cpu);
      /* TRANSLATORS: a context menu item; %u is a CPU number */
      hide = g_strdup_printf (_("Hide CPU %u"), target->cpu);

      append_item (filters, only, "win.filter-cpu-only", g_variant_new_uint32 (target->cpu));
      append_item (filters, hide, "win.filter-cpu-hide", g_variant_new_uint32 (target->cpu));

      g_clear_pointer (&only, g_free);
      g_clear_pointer (&hide, g_free);
      /* TRANSLATORS: a context menu item; %u is a CPU number */
      only = g_strdup_printf (_("Add CPU Plot %u"), target->cpu);
      /* TRANSLATORS: a context menu item; %u is a CPU number */
      hide = g_strdup_printf (_("Remove CPU Plot %u"), target->cpu);
      if (source == document)
        {
          append_item (plots, only, "win.add-cpu-plot", g_variant_new_uint32 (target->cpu));
          append_item (plots, hide, "win.remove-cpu-plot", g_variant_new_uint32 (target->cpu));
        }
    }

  if (target->stream_path != NULL)
    {
      g_autofree char *name = escape_underscores (target->stream_name != NULL ? target->stream_name
                                                                              : target->stream_path);
      /* TRANSLATORS: a context menu item; %s is a recording's name in a
       * window of several */
      g_autofree char *only = g_strdup_printf (_("Show Only Recording “%s”"), name);
      /* TRANSLATORS: a context menu item; %s is a recording's name */
      g_autofree char *hide = g_strdup_printf (_("Hide Recording “%s”"), name);

      append_item (filters, only, "win.filter-stream-only", g_variant_new_string (target->stream_path));
      append_item (filters, hide, "win.filter-stream-hide", g_variant_new_string (target->stream_path));
    }

  if (target->has_event)
    g_menu_append (details, _("Raw _Fields…"), "event.show-fields");

  if (g_menu_model_get_n_items (G_MENU_MODEL (filters)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (filters));
  if (g_menu_model_get_n_items (G_MENU_MODEL (plots)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (plots));
  if (g_menu_model_get_n_items (G_MENU_MODEL (details)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (details));

  return G_MENU_MODEL (g_steal_pointer (&menu));
}

typedef struct {
  CsDocument *document;
  CsEvent event;
  GtkWidget *parent;   /* weak: the popover's parent outlives the group */
} FieldsClosure;

static void
fields_closure_free (gpointer data)
{
  FieldsClosure *closure = data;

  g_clear_object (&closure->document);
  g_free (closure);
}

static void
show_fields_cb (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  FieldsClosure *closure = g_object_get_data (G_OBJECT (action), "cs-closure");

  cs_event_fields_show (closure->parent, closure->document, &closure->event);
}

/**
 * cs_event_menu_popup:
 * @popover: (inout) (nullable): the parent's context menu, made on first
 *   use; the parent unparents it in its dispose
 * @parent: the widget clicked
 * @document: the recording
 * @target: what was clicked
 * @x_px: where, in @parent's coordinates
 * @y_px: where, in @parent's coordinates
 *
 * Shows the context menu for @target at the pointer.
 */
void
cs_event_menu_popup (GtkWidget              **popover,
                     GtkWidget               *parent,
                     CsDocument              *document,
                     const CsEventMenuTarget *target,
                     double                   x_px,
                     double                   y_px)
{
  g_autoptr(GMenuModel) model = NULL;
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();

  g_return_if_fail (popover != NULL);
  g_return_if_fail (GTK_IS_WIDGET (parent));

  model = cs_event_menu_build (document, target);
  if (g_menu_model_get_n_items (model) == 0)
    return;

  if (target->has_event)
    {
      g_autoptr(GSimpleAction) action = g_simple_action_new ("show-fields", NULL);
      FieldsClosure *closure = g_new0 (FieldsClosure, 1);

      /* the event's own recording reads its record */
      closure->document = g_object_ref (target->source != NULL ? target->source : document);
      closure->event = target->event;
      closure->parent = parent;
      g_object_set_data_full (G_OBJECT (action), "cs-closure", closure, fields_closure_free);
      g_signal_connect (action, "activate", G_CALLBACK (show_fields_cb), NULL);
      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
    }

  if (*popover == NULL)
    {
      *popover = gtk_popover_menu_new_from_model (NULL);
      gtk_popover_set_has_arrow (GTK_POPOVER (*popover), FALSE);
      gtk_widget_set_halign (*popover, GTK_ALIGN_START);
      gtk_widget_set_parent (*popover, parent);
    }

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (*popover), model);
  gtk_widget_insert_action_group (*popover, "event", G_ACTION_GROUP (group));
  gtk_popover_set_pointing_to (GTK_POPOVER (*popover),
                               &(GdkRectangle) { (int) x_px, (int) y_px, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (*popover));
}

/* ------------------------------------------------------------------------ */
/* The field dialog                                                          */

/**
 * cs_event_fields_show:
 * @parent: a widget of the window the dialog belongs to
 * @document: the recording
 * @event: the event
 *
 * Opens a small window listing what the recording holds about @event: its
 * CPU, timestamp, task, type and its fields as libtraceevent prints them
 * (the text `trace-cmd report` shows after the event name).  Escape closes
 * it.
 *
 * Returns: (transfer none): the dialog, already shown
 */
GtkWindow *
cs_event_fields_show (GtkWidget     *parent,
                      CsDocument    *document,
                      const CsEvent *event)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = describe_event_type (document, event->type_id);
  g_autofree char *task = describe_task (document, event->pid);
  g_autofree char *time = cs_time_format_timestamp (event->ts_ns);
  g_autofree char *cpu = g_strdup_printf ("%u", event->cpu);
  g_autofree char *pid = g_strdup_printf ("%d", event->pid);
  g_autofree char *info = cs_document_format_event (document, event, &error);
  g_autofree char *fields = info != NULL ? g_strdup (g_strstrip (info)) : g_strdup (error->message);
  GtkRoot *root = gtk_widget_get_root (parent);
  g_autofree char *copy_text = NULL;
  CsEventFields *window;

  /* Copy puts the whole event on the clipboard, in report's order. */
  copy_text = g_strdup_printf ("%s [%03u] %s: %s: %s", task, event->cpu, time, name, fields);
  window = cs_event_fields_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, name, copy_text);

  cs_event_fields_add_row (window, _("Event"), name, FALSE);
  cs_event_fields_add_row (window, _("Time"), time, TRUE);
  cs_event_fields_add_row (window, _("CPU"), cpu, TRUE);
  cs_event_fields_add_row (window, _("Task"), task, FALSE);
  cs_event_fields_add_row (window, _("PID"), pid, TRUE);
  cs_event_fields_add_row (window, _("Info"), fields, info != NULL);

  /* The raw fields, as the event's format file declares them. */
  {
    g_auto(GStrv) raw = cs_document_dup_event_fields (document, event, NULL);

    for (guint i = 0; raw != NULL && raw[i] != NULL && raw[i + 1] != NULL; i += 2)
      cs_event_fields_add_row (window, raw[i], raw[i + 1], TRUE);
  }

  gtk_window_present (GTK_WINDOW (window));
  return GTK_WINDOW (window);
}
