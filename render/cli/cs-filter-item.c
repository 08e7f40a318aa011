/* cs-filter-item.c: one check box of the filter dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A task, an event type, a system or a CPU in one of the filter dialog's
 * pages.  A system holds its event types as children and shows checked when
 * all of them are, inconsistent when only some are, as KernelShark's event
 * tree does.
 */
#include "config.h"

#include <string.h>

#include "cs-filter-item.h"

enum {
  PROP_0,
  PROP_CHECKED,
  PROP_INCONSISTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsFilterItem, cs_filter_item, G_TYPE_OBJECT)

static void
cs_filter_item_finalize (GObject *object)
{
  CsFilterItem *self = CS_FILTER_ITEM (object);

  g_free (self->name);
  g_free (self->detail);
  g_free (self->search_text);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (cs_filter_item_parent_class)->finalize (object);
}

static void
cs_filter_item_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsFilterItem *self = CS_FILTER_ITEM (object);

  switch (prop_id)
    {
    case PROP_CHECKED:
      g_value_set_boolean (value, self->checked);
      break;
    case PROP_INCONSISTENT:
      g_value_set_boolean (value, self->inconsistent);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_filter_item_class_init (CsFilterItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cs_filter_item_finalize;
  object_class->get_property = cs_filter_item_get_property;

  properties[PROP_CHECKED] =
    g_param_spec_boolean ("checked", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INCONSISTENT] =
    g_param_spec_boolean ("inconsistent", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_filter_item_init (CsFilterItem *self)
{
}

/**
 * cs_filter_item_new:
 * @value: the CPU, pid or event type id the box filters on
 * @name: its label
 * @detail: (nullable): its second label, e.g. "1,234 events"
 *
 * Creates an unchecked leaf.  A search matches @name and @value as text,
 * casefolded.
 *
 * Returns: (transfer full): the new item
 */
CsFilterItem *
cs_filter_item_new (gint64      value,
                    const char *name,
                    const char *detail)
{
  CsFilterItem *self = g_object_new (CS_TYPE_FILTER_ITEM, NULL);
  g_autofree char *text = g_strdup_printf ("%s %" G_GINT64_FORMAT, name, value);

  self->value = value;
  self->name = g_strdup (name);
  self->detail = g_strdup (detail);
  self->search_text = g_utf8_casefold (text, -1);
  return self;
}

/**
 * cs_filter_item_new_group:
 * @system: an event system's name (the folder under tracefs events/)
 *
 * Creates a system's item (value -1) with no event types yet; add them with
 * cs_filter_item_add_child().
 *
 * Returns: (transfer full): the new item
 */
CsFilterItem *
cs_filter_item_new_group (const char *system)
{
  CsFilterItem *self = cs_filter_item_new (-1, system, NULL);

  self->children = g_list_store_new (CS_TYPE_FILTER_ITEM);
  return self;
}

/**
 * cs_filter_item_add_child:
 * @self: a system's item (from cs_filter_item_new_group())
 * @child: one of its event types; @self keeps a reference
 *
 * Adds an event type under its system.  A search then matches the child's
 * "system:event" name, the form libtraceevent's filters and
 * `trace-cmd report -F` use.
 */
void
cs_filter_item_add_child (CsFilterItem *self,
                          CsFilterItem *child)
{
  g_autofree char *full = NULL;

  g_return_if_fail (CS_IS_FILTER_ITEM (self) && self->children != NULL);
  g_return_if_fail (CS_IS_FILTER_ITEM (child) && child->parent == NULL);

  full = g_strdup_printf ("%s:%s", self->name, child->name);
  g_free (child->search_text);
  child->search_text = g_utf8_casefold (full, -1);
  child->parent = self;
  g_list_store_append (self->children, child);
}

/**
 * cs_filter_item_set_detail:
 * @self: an item
 * @detail: (nullable): the new second label
 *
 * Sets the second label, for a system whose count is known only once all its
 * event types are added.  Call it before the item is shown: rows read it when
 * they are bound.
 */
void
cs_filter_item_set_detail (CsFilterItem *self,
                           const char   *detail)
{
  g_return_if_fail (CS_IS_FILTER_ITEM (self));

  g_free (self->detail);
  self->detail = g_strdup (detail);
}

/* A system shows checked when all its events are, inconsistent when some
 * are. */
static void
cs_filter_item_update_parent (CsFilterItem *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));
  guint n_checked = 0;
  gboolean checked, inconsistent;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CsFilterItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

      n_checked += child->checked;
    }
  checked = n > 0 && n_checked == n;
  inconsistent = n_checked > 0 && n_checked < n;
  if (checked != self->checked)
    {
      self->checked = checked;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKED]);
    }
  if (inconsistent != self->inconsistent)
    {
      self->inconsistent = inconsistent;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INCONSISTENT]);
    }
}

/**
 * cs_filter_item_set_checked:
 * @self: an item
 * @checked: the new state
 *
 * Checks or unchecks a leaf (and updates its system's state), or all event
 * types of a system.  Notifies "checked" (and "inconsistent") on every item
 * that changed.
 */
void
cs_filter_item_set_checked (CsFilterItem *self,
                            gboolean      checked)
{
  g_return_if_fail (CS_IS_FILTER_ITEM (self));

  if (self->children != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(CsFilterItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          child->checked = !!checked;
          g_object_notify_by_pspec (G_OBJECT (child), properties[PROP_CHECKED]);
        }
      cs_filter_item_update_parent (self);
      return;
    }

  if (self->checked == !!checked)
    return;
  self->checked = !!checked;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHECKED]);
  if (self->parent != NULL)
    cs_filter_item_update_parent (self->parent);
}

/**
 * cs_filter_item_matches:
 * @self: an item
 * @search: (nullable): casefolded text (g_utf8_casefold()); NULL or "" match all
 *
 * Returns: whether @search is part of the item's name or value, or, for a
 *   system, of one of its event types'
 */
gboolean
cs_filter_item_matches (CsFilterItem *self,
                        const char   *search)
{
  g_return_val_if_fail (CS_IS_FILTER_ITEM (self), FALSE);

  if (search == NULL || *search == '\0' || strstr (self->search_text, search) != NULL)
    return TRUE;
  if (self->children != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(CsFilterItem) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          if (cs_filter_item_matches (child, search))
            return TRUE;
        }
    }
  return FALSE;
}
