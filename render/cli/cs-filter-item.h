/* cs-filter-item.h: one check box of the filter dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CS_TYPE_FILTER_ITEM (cs_filter_item_get_type ())
G_DECLARE_FINAL_TYPE (CsFilterItem, cs_filter_item, CS, FILTER_ITEM, GObject)

/**
 * CsFilterItem:
 * @value: what the box filters on: a CPU number, a pid or an event type id
 *   (CsEventType.id); -1 for a system, which only groups its event types
 * @name: the label (a task's comm, an event's name, "CPU 1", a system)
 * @detail: the second label (event counts), or NULL
 * @checked: whether the box is checked; for a system, whether all its event
 *   types are (read only: change it with cs_filter_item_set_checked())
 * @inconsistent: for a system, some but not all of its event types checked
 * @children: a system's event types (CsFilterItem), or NULL for a leaf
 * @parent: the system of an event type (borrowed), or NULL
 *
 * A plain model object for the dialog's GtkListView rows; its fields are
 * public because the dialog's list factories read them for every row.  The
 * "checked" and "inconsistent" properties notify changes so that the row's
 * check button follows a system's or "Check all"'s changes.
 */
struct _CsFilterItem
{
  GObject parent_instance;

  gint64 value;
  char *name;
  char *detail;
  gboolean checked;
  gboolean inconsistent;
  GListStore *children;
  CsFilterItem *parent;

  /*< private >*/
  char *search_text;          /* casefolded, matched by cs_filter_item_matches() */
};

CsFilterItem *cs_filter_item_new         (gint64        value,
                                          const char   *name,
                                          const char   *detail);
CsFilterItem *cs_filter_item_new_group   (const char   *system);
void          cs_filter_item_add_child   (CsFilterItem *self,
                                          CsFilterItem *child);
void          cs_filter_item_set_detail  (CsFilterItem *self,
                                          const char   *detail);
void          cs_filter_item_set_checked (CsFilterItem *self,
                                          gboolean      checked);
gboolean      cs_filter_item_matches     (CsFilterItem *self,
                                          const char   *search);

G_END_DECLS
