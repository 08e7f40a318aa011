/* cs-query-row.c: CsQueryRow, one result row of the Query page.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The cells as text (cs_sql_query_dup_text()) and, when the row has the
 * columns for it, the event it points at.  Rows are made in the Query
 * page's worker thread a page at a time and then only read.
 */
#include "config.h"

#include "cs-query-row.h"

struct _CsQueryRow
{
  GObject parent_instance;

  char **cells;                 /* owned; NULL entries are SQL NULLs */
  guint n_cells;
  gboolean has_link;
  CsQueryLink link;
};

G_DEFINE_FINAL_TYPE (CsQueryRow, cs_query_row, G_TYPE_OBJECT)

static void
cs_query_row_finalize (GObject *object)
{
  CsQueryRow *self = CS_QUERY_ROW (object);

  for (guint i = 0; i < self->n_cells; i++)
    g_free (self->cells[i]);
  g_free (self->cells);
  G_OBJECT_CLASS (cs_query_row_parent_class)->finalize (object);
}

static void
cs_query_row_class_init (CsQueryRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_query_row_finalize;
}

static void
cs_query_row_init (CsQueryRow *self)
{
}

/**
 * cs_query_row_new:
 * @cells: (transfer full) (array length=n_cells): the cells' texts, %NULL
 *   for SQL NULL
 * @n_cells: how many cells
 * @link: (nullable): the event the row points at, or %NULL when it has
 *   no `ts`, or neither `cpu` nor `pid`
 *
 * Any thread.
 *
 * Returns: (transfer full): the row
 */
CsQueryRow *
cs_query_row_new (char              **cells,
                  guint               n_cells,
                  const CsQueryLink  *link)
{
  CsQueryRow *self = g_object_new (CS_TYPE_QUERY_ROW, NULL);

  self->cells = cells;
  self->n_cells = n_cells;
  if (link != NULL)
    {
      self->has_link = TRUE;
      self->link = *link;
    }
  return self;
}

/** cs_query_row_get_n_cells: Returns: how many cells the row has */
guint
cs_query_row_get_n_cells (CsQueryRow *self)
{
  g_return_val_if_fail (CS_IS_QUERY_ROW (self), 0);
  return self->n_cells;
}

/**
 * cs_query_row_get_cell:
 * @self: a row
 * @column: 0 .. n_cells - 1
 *
 * Returns: (transfer none) (nullable): the cell's text, %NULL for SQL NULL
 *   or a column past the row's
 */
const char *
cs_query_row_get_cell (CsQueryRow *self,
                       guint       column)
{
  g_return_val_if_fail (CS_IS_QUERY_ROW (self), NULL);
  return column < self->n_cells ? self->cells[column] : NULL;
}

/**
 * cs_query_row_get_link:
 * @self: a row
 * @link: (out caller-allocates) (optional): where the row points
 *
 * Returns: whether the row points at an event (it has `ts` and `cpu` or
 *   `pid` as integers)
 */
gboolean
cs_query_row_get_link (CsQueryRow  *self,
                       CsQueryLink *link)
{
  g_return_val_if_fail (CS_IS_QUERY_ROW (self), FALSE);
  if (self->has_link && link != NULL)
    *link = self->link;
  return self->has_link;
}
