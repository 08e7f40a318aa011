/* cs-latency-rows.c: the worst-first list of pairs as a virtual GListModel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The list can hold millions of pairs: it keeps none of them.  An item is
 * made when GtkColumnView asks for it, from a page of CS_LATENCY_ROWS_PAGE
 * pairs read with cs_latency_list_worst() (a span of the worst-first
 * order, or LIMIT/OFFSET over a range); a few pages are cached, so
 * scrolling reads each page once.
 * Memory is the cache's, whatever the number of pairs.  A list can also
 * hold a few pairs given as they are (the pairs a top blocker delayed).
 */
#include "cs-latency-ui.h"

#define CS_LATENCY_ROWS_PAGE 128
#define CS_LATENCY_ROWS_MAX_PAGES 8

struct _CsLatencyRows {
  GObject parent_instance;
  sqlite3 *db;
  gint64 begin_ns, end_ns;
  gint64 min_dur_ns, max_dur_ns;
  guint n_items;
  /* page number → GArray of CsLatencyItem */
  GHashTable *pages;
  GArray *items;                /* the pairs given, or NULL */
};

static void cs_latency_rows_list_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsLatencyRows, cs_latency_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cs_latency_rows_list_init))

static GType
rows_get_item_type (GListModel *list)
{
  return CS_LATENCY_TYPE_ROW;
}

static guint
rows_get_n_items (GListModel *list)
{
  return CS_LATENCY_ROWS (list)->n_items;
}

static GArray *
get_page (CsLatencyRows *self,
          guint          page)
{
  GArray *items = g_hash_table_lookup (self->pages, GUINT_TO_POINTER (page));
  g_autoptr(GError) error = NULL;

  if (items != NULL)
    return items;
  if (g_hash_table_size (self->pages) >= CS_LATENCY_ROWS_MAX_PAGES)
    g_hash_table_remove_all (self->pages);
  items = g_array_new (FALSE, FALSE, sizeof (CsLatencyItem));
  if (!cs_latency_list_worst (self->db, self->begin_ns, self->end_ns, self->min_dur_ns,
                              self->max_dur_ns, (guint64) page * CS_LATENCY_ROWS_PAGE,
                              CS_LATENCY_ROWS_PAGE, items, &error))
    g_warning ("%s", error->message);
  g_hash_table_insert (self->pages, GUINT_TO_POINTER (page), items);
  return items;
}

static gpointer
rows_get_item (GListModel *list,
               guint       position)
{
  CsLatencyRows *self = CS_LATENCY_ROWS (list);
  GArray *items;
  guint i = position % CS_LATENCY_ROWS_PAGE;

  if (self->items != NULL)
    return position < self->items->len
      ? cs_latency_row_new (&g_array_index (self->items, CsLatencyItem, position)) : NULL;
  if (position >= self->n_items || self->db == NULL)
    return NULL;
  items = get_page (self, position / CS_LATENCY_ROWS_PAGE);
  if (i >= items->len)
    return NULL;
  return cs_latency_row_new (&g_array_index (items, CsLatencyItem, i));
}

static void
cs_latency_rows_list_init (GListModelInterface *iface)
{
  iface->get_item_type = rows_get_item_type;
  iface->get_n_items = rows_get_n_items;
  iface->get_item = rows_get_item;
}

static void
cs_latency_rows_finalize (GObject *object)
{
  CsLatencyRows *self = CS_LATENCY_ROWS (object);

  g_hash_table_unref (self->pages);
  g_clear_pointer (&self->items, g_array_unref);
  G_OBJECT_CLASS (cs_latency_rows_parent_class)->finalize (object);
}

static void
cs_latency_rows_class_init (CsLatencyRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_latency_rows_finalize;
}

static void
cs_latency_rows_init (CsLatencyRows *self)
{
  self->pages = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
}

/**
 * cs_latency_rows_new:
 *
 * Returns: (transfer full): an empty list of pairs
 */
CsLatencyRows *
cs_latency_rows_new (void)
{
  return g_object_new (CS_LATENCY_TYPE_ROWS, NULL);
}

/**
 * cs_latency_rows_set_query:
 * @self: a list
 * @db: (nullable): a finished latency pass database, borrowed: it must
 *   stay open while the list uses it (%NULL empties the list)
 * @begin_ns: the range's start (G_MININT64: the whole recording)
 * @end_ns: its end, exclusive (G_MAXINT64: the whole recording)
 * @min_dur_ns: keep the pairs lasting at least this
 * @max_dur_ns: and less than this (a histogram bar; G_MAXINT64: all)
 * @n_pairs: how many pairs that keeps (from cs_latency_stats_compute());
 *   the list shows at most G_MAXUINT of them
 *
 * Lists those pairs, worst first; emits items-changed for the whole list.
 */
void
cs_latency_rows_set_query (CsLatencyRows *self,
                           sqlite3       *db,
                           gint64         begin_ns,
                           gint64         end_ns,
                           gint64         min_dur_ns,
                           gint64         max_dur_ns,
                           guint64        n_pairs)
{
  guint old = self->n_items;

  self->db = db;
  self->begin_ns = begin_ns;
  self->end_ns = end_ns;
  self->min_dur_ns = min_dur_ns;
  self->max_dur_ns = max_dur_ns;
  self->n_items = db != NULL ? (guint) MIN (n_pairs, (guint64) G_MAXUINT) : 0;
  g_clear_pointer (&self->items, g_array_unref);
  g_hash_table_remove_all (self->pages);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}

/**
 * cs_latency_rows_set_items:
 * @self: a list
 * @items: (transfer full) (element-type CsLatencyItem): the pairs to
 *   list, in their order
 *
 * Lists @items rather than a query's pairs, until the next
 * cs_latency_rows_set_query(); emits items-changed for the whole list.
 */
void
cs_latency_rows_set_items (CsLatencyRows *self,
                           GArray        *items)
{
  guint old = self->n_items;

  g_clear_pointer (&self->items, g_array_unref);
  self->items = items;
  self->n_items = items->len;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}
