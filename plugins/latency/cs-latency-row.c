/* cs-latency-row.c: one measured pair as an item of the page's list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Made on demand by CsLatencyRows for the rows GtkColumnView shows, and
 * dropped when they scroll away.
 */
#include "cs-latency-ui.h"

struct _CsLatencyRow {
  GObject parent_instance;
  CsLatencyItem item;
};

G_DEFINE_FINAL_TYPE (CsLatencyRow, cs_latency_row, G_TYPE_OBJECT)

static void
cs_latency_row_class_init (CsLatencyRowClass *klass)
{
}

static void
cs_latency_row_init (CsLatencyRow *self)
{
}

/**
 * cs_latency_row_new:
 * @item: a pair, copied
 *
 * Returns: (transfer full): the row
 */
CsLatencyRow *
cs_latency_row_new (const CsLatencyItem *item)
{
  CsLatencyRow *self = g_object_new (CS_LATENCY_TYPE_ROW, NULL);

  self->item = *item;
  return self;
}

/**
 * cs_latency_row_get_item:
 * @self: a row
 *
 * Returns: (transfer none): its pair, valid as long as @self
 */
const CsLatencyItem *
cs_latency_row_get_item (CsLatencyRow *self)
{
  g_return_val_if_fail (CS_LATENCY_IS_ROW (self), NULL);
  return &self->item;
}
