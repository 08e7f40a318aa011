/* test-event-list-streams.c: the event list of several recordings, merged
 * in the order of the common time axis (cs_event_list_new_for_streams(),
 * index/model/cs-event-list-merge.c; issue 25 item 1).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * On the project's own host/guest pair (tests/data/pair/, the guest
 * aligned per vCPU by its TIME_SHIFT option) and on two recordings of
 * this machine with the same clock (one shifted by hand into the middle
 * of the other, so that they interleave), every row of the merged list
 * must be the one an independent merge gives: each recording's own list
 * read in full, each event put at cs_stream_to_axis_ns() of its CPU, all
 * sorted by (axis time, stream, CPU, row).  Then the Stream and Time
 * columns, search across streams (next and previous in merged order, the
 * count over both), filters translated to each recording, the stream as a
 * filter dimension, and hidden streams.
 */
#include "config.h"

#include <string.h>

#include "cs-event-list.h"
#include "cs-stream-set.h"
#include "cs-test-data.h"
#include "index-test-util.h"

typedef struct {
  gint64 axis_ns;
  guint stream;
  CsEvent event;
} Expected;

static int
compare_expected (gconstpointer pa,
                  gconstpointer pb)
{
  const Expected *a = pa, *b = pb;

  if (a->axis_ns != b->axis_ns)
    return a->axis_ns < b->axis_ns ? -1 : 1;
  if (a->stream != b->stream)
    return a->stream < b->stream ? -1 : 1;
  if (a->event.cpu != b->event.cpu)
    return a->event.cpu < b->event.cpu ? -1 : 1;
  return a->event.row < b->event.row ? -1 : a->event.row > b->event.row;
}

/* The oracle: every visible stream's own list, read row by row, put on
 * the axis and sorted. */
static GArray *
expected_merge (CsStreamSet *set)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (Expected));

  for (guint s = 0; s < cs_stream_set_get_n_streams (set); s++)
    {
      CsStream *stream = cs_stream_set_get_stream (set, s);
      g_autoptr(CsEventList) own = NULL;

      if (cs_stream_get_hidden (stream))
        continue;
      own = cs_event_list_new (cs_stream_get_document (stream), NULL);
      for (guint64 r = 0; r < cs_event_list_get_n_events (own); r++)
        {
          g_autoptr(GError) error = NULL;
          Expected e = { 0, s };

          g_assert_true (cs_event_list_get_event (own, r, &e.event, &error));
          g_assert_no_error (error);
          e.axis_ns = cs_stream_to_axis_ns (stream, e.event.cpu, e.event.ts_ns);
          g_array_append_val (all, e);
        }
    }
  g_array_sort (all, compare_expected);
  return all;
}

static guint
stream_position (CsStreamSet *set,
                 CsStream    *stream)
{
  guint pos = G_MAXUINT;

  g_assert_true (cs_stream_set_find (set, stream, &pos));
  return pos;
}

static void
wait_ready (CsEventList *list)
{
  while (!cs_event_list_get_ready (list))
    g_main_context_iteration (NULL, TRUE);
}

/* Every row in sequence, some at random and backwards, and each found
 * again from its event. */
static void
check_merge (CsStreamSet *set,
             CsEventList *list,
             GArray      *expected)
{
  guint n_mixed = 0;
  GRand *rand = g_rand_new_with_seed (25);

  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, expected->len);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);
      g_autoptr(GError) error = NULL;
      CsStream *stream = NULL;
      CsEvent ev;
      gint64 axis;

      g_assert_true (cs_event_list_get_stream_event (list, i, &stream, &ev, &axis, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stream_position (set, stream), ==, e->stream);
      g_assert_cmpuint (ev.cpu, ==, e->event.cpu);
      g_assert_cmpuint (ev.row, ==, e->event.row);
      g_assert_cmpint (ev.ts_ns, ==, e->event.ts_ns);
      g_assert_cmpint (axis, ==, e->axis_ns);
      if (i > 0)
        {
          g_assert_cmpint (axis, >=, g_array_index (expected, Expected, i - 1).axis_ns);
          n_mixed += e->stream != g_array_index (expected, Expected, i - 1).stream;
        }
    }
  g_test_message ("%u rows merged, the stream changes %u times", expected->len, n_mixed);
  g_assert_cmpuint (n_mixed, >, 2);   /* the streams interleave */

  for (guint k = 0; k < 200; k++)
    {
      guint i = k < 100 ? (guint) g_rand_int_range (rand, 0, expected->len) : expected->len - 1 - (k - 100);
      const Expected *e = &g_array_index (expected, Expected, i);
      g_autoptr(GError) error = NULL;
      CsStream *stream = NULL;
      CsEvent ev;
      guint64 row = G_MAXUINT64;

      g_assert_true (cs_event_list_get_stream_event (list, i, &stream, &ev, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stream_position (set, stream), ==, e->stream);
      g_assert_cmpuint (ev.row, ==, e->event.row);
      g_assert_cmpuint (ev.cpu, ==, e->event.cpu);
      g_assert_true (cs_event_list_find_stream_row (list, stream, &ev, &row, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (row, ==, i);
    }
  g_rand_free (rand);
}

/* The items the view binds: Stream and Time (the axis) columns. */
static void
check_items (CsStreamSet *set,
             CsEventList *list,
             GArray      *expected)
{
  for (guint i = 0; i < expected->len; i += MAX (1, expected->len / 97))
    {
      const Expected *e = &g_array_index (expected, Expected, i);
      g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), i);
      g_autofree char *name = cs_event_item_dup_column_text (item, CS_COLUMN_STREAM);
      g_autofree char *time = cs_event_item_dup_column_text (item, CS_COLUMN_TIME);
      g_autofree char *want = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                                               e->axis_ns / 1000000000, e->axis_ns % 1000000000);
      CsStream *stream = cs_stream_set_get_stream (set, e->stream);

      g_assert_true (cs_event_item_get_stream (item) == stream);
      g_assert_true (cs_event_item_get_document (item) == cs_stream_get_document (stream));
      g_assert_cmpstr (name, ==, cs_stream_get_name (stream));
      g_assert_cmpint (cs_event_item_get_time_ns (item), ==, e->axis_ns);
      g_assert_cmpstr (time, ==, want);
    }
}

/* ---- Search ------------------------------------------------------------- */

typedef struct {
  gboolean done;
  gboolean found;
  guint64 row;
  guint64 n;
} SearchWait;

static void
search_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  SearchWait *w = user_data;
  g_autoptr(GError) error = NULL;

  w->found = cs_event_list_search_finish (CS_EVENT_LIST (source), result, &w->row, &error);
  g_assert_no_error (error);
  w->done = TRUE;
}

static void
count_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  SearchWait *w = user_data;
  g_autoptr(GError) error = NULL;

  w->found = cs_event_list_count_matches_finish (CS_EVENT_LIST (source), result, &w->n, &error);
  g_assert_no_error (error);
  w->done = TRUE;
}

static gboolean
search_column (CsEventList   *list,
               CsEventColumn  column,
               const char    *text,
               guint64        from_row,
               gboolean       forward,
               guint64       *row)
{
  SearchWait w = { 0 };

  cs_event_list_search_async (list, column, CS_SEARCH_CONTAINS, text, from_row, forward,
                              NULL, search_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  *row = w.row;
  return w.found;
}

static gboolean
search (CsEventList *list,
        const char  *text,
        guint64      from_row,
        gboolean     forward,
        guint64     *row)
{
  return search_column (list, CS_COLUMN_INFO, text, from_row, forward, row);
}

/* The rows whose Info contains @text, by the oracle's order. */
static GArray *
expected_matches (CsStreamSet *set,
                  GArray      *expected,
                  const char  *text,
                  guint       *n_streams_hit)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint hit = 0;

  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);
      CsDocument *doc = cs_stream_get_document (cs_stream_set_get_stream (set, e->stream));
      g_autofree char *info = cs_document_format_event (doc, &e->event, NULL);

      if (info != NULL && strstr (info, text) != NULL)
        {
          guint64 r = i;

          g_array_append_val (rows, r);
          hit |= 1u << e->stream;
        }
    }
  *n_streams_hit = g_bit_nth_lsf (hit, -1) >= 0 ? (guint) __builtin_popcount (hit) : 0;
  return rows;
}

static void
check_search (CsStreamSet *set,
              CsEventList *list,
              GArray      *expected,
              const char  *text)
{
  guint n_hit = 0;
  g_autoptr(GArray) matches = expected_matches (set, expected, text, &n_hit);
  SearchWait w = { 0 };
  guint64 row;

  g_test_message ("\"%s\": %u matches in %u streams", text, matches->len, n_hit);
  g_assert_cmpuint (n_hit, ==, 2);

  cs_event_list_count_matches_async (list, CS_COLUMN_INFO, CS_SEARCH_CONTAINS, text, NULL,
                                     count_cb, &w);
  while (!w.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (w.n, ==, matches->len);

  /* from the start, then next after next */
  g_assert_true (search (list, text, G_MAXUINT64, TRUE, &row));
  g_assert_cmpuint (row, ==, g_array_index (matches, guint64, 0));
  for (guint k = 1; k < MIN (matches->len, 40); k++)
    {
      g_assert_true (search (list, text, row, TRUE, &row));
      g_assert_cmpuint (row, ==, g_array_index (matches, guint64, k));
    }
  /* previous from the last */
  g_assert_true (search (list, text, G_MAXUINT64, FALSE, &row));
  g_assert_cmpuint (row, ==, g_array_index (matches, guint64, matches->len - 1));
  for (guint k = matches->len - 1; k > MAX (matches->len, 40) - 40; k--)
    {
      g_assert_true (search (list, text, row, FALSE, &row));
      g_assert_cmpuint (row, ==, g_array_index (matches, guint64, k - 1));
    }
  /* none past the last */
  g_assert_false (search (list, text, g_array_index (matches, guint64, matches->len - 1), TRUE, &row));

  /* the Stream column: the second stream's next row after the first row */
  {
    const char *name = cs_stream_get_name (cs_stream_set_get_stream (set, 1));
    guint first = 0;

    while (g_array_index (expected, Expected, first).stream != 1)
      first++;
    g_assert_true (search_column (list, CS_COLUMN_STREAM, name, G_MAXUINT64, TRUE, &row));
    g_assert_cmpuint (row, ==, first);
  }
}

/* ---- Filters ------------------------------------------------------------- */

static guint
count_type (CsDocument *doc,
            const char *name)
{
  g_autoptr(CsEventList) own = cs_event_list_new (doc, NULL);
  guint n = 0;

  for (guint64 r = 0; r < cs_event_list_get_n_events (own); r++)
    {
      CsEvent ev;
      const CsEventType *t;

      g_assert_true (cs_event_list_get_event (own, r, &ev, NULL));
      t = cs_document_get_event_type (doc, ev.type_id);
      n += t != NULL && g_strcmp0 (t->name, name) == 0;
    }
  return n;
}

static gint64
type_id (CsDocument *doc,
         const char *name)
{
  for (guint t = 0; t < cs_document_get_n_event_types (doc); t++)
    if (g_str_equal (cs_document_get_event_type (doc, t)->name, name))
      return t;
  g_assert_not_reached ();
}

static void
check_filters (CsStreamSet *set,
               CsStream    *a,
               CsStream    *b)
{
  CsDocument *a_doc = cs_stream_get_document (a), *b_doc = cs_stream_get_document (b);
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(CsEventList) list = NULL;
  guint n_a = count_type (a_doc, "sched_wakeup"), n_b = count_type (b_doc, "sched_wakeup");

  /* an event type of the first recording, by name in the second */
  cs_event_filter_set_mode (filter, CS_FILTER_TYPE, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add (filter, CS_FILTER_TYPE, type_id (a_doc, "sched_wakeup"));
  list = cs_event_list_new_for_streams (set, filter);
  wait_ready (list);
  g_test_message ("sched_wakeup: %u + %u", n_a, n_b);
  g_assert_cmpuint (n_a, >, 0);
  g_assert_cmpuint (n_b, >, 0);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, n_a + n_b);
  for (guint64 r = 0; r < cs_event_list_get_n_events (list); r += 7)
    {
      g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), r);

      g_assert_cmpstr (cs_event_item_get_name (item), ==, "sched:sched_wakeup");
    }

  /* the stream dimension: only the second's */
  cs_event_filter_set_stream_mode (filter, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add_stream (filter, cs_stream_get_path (b));
  cs_event_list_set_filter (list, filter);
  wait_ready (list);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, n_b);
  for (guint64 r = 0; r < cs_event_list_get_n_events (list); r += 5)
    {
      g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), r);

      g_assert_true (cs_event_item_get_stream (item) == b);
    }
  {
    /* it survives a session */
    g_autofree char *text = cs_event_filter_to_string (filter);
    g_autoptr(CsEventFilter) back = cs_event_filter_new_from_string (a_doc, text, NULL);

    g_assert_nonnull (back);
    g_assert_true (cs_event_filter_equal (back, filter));
  }

  /* ... or all but the second's */
  cs_event_filter_set_stream_mode (filter, CS_FILTER_HIDE);
  cs_event_list_set_filter (list, filter);
  wait_ready (list);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, n_a);

  /* a CPU applies to every stream */
  cs_event_filter_clear (filter);
  cs_event_filter_set_mode (filter, CS_FILTER_CPU, CS_FILTER_SHOW_ONLY);
  cs_event_filter_add (filter, CS_FILTER_CPU, 1);
  cs_event_list_set_filter (list, filter);
  wait_ready (list);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==,
                    cs_document_get_cpu (a_doc, 1)->n_events + cs_document_get_cpu (b_doc, 1)->n_events);
  for (guint64 r = 0; r < cs_event_list_get_n_events (list); r += 11)
    {
      CsEvent ev;

      g_assert_true (cs_event_list_get_event (list, r, &ev, NULL));
      g_assert_cmpuint (ev.cpu, ==, 1);
    }

  /* an expression, compiled against each recording's formats: as many
   * rows as each recording's own events that pass it */
  {
    const char *expression = "sched/sched_wakeup: target_cpu == 0";
    guint64 want = 0;

    for (guint s = 0; s < 2; s++)
      {
        CsDocument *doc = s == 0 ? a_doc : b_doc;
        g_autoptr(CsEventFilter) own = cs_event_filter_new ();
        g_autoptr(CsEventList) all = cs_event_list_new (doc, NULL);
        g_autoptr(GError) error = NULL;
        guint64 n = 0;

        g_assert_true (cs_event_filter_set_expression (own, doc, expression, &error));
        g_assert_no_error (error);
        for (guint64 r = 0; r < cs_event_list_get_n_events (all); r++)
          {
            CsEvent ev;

            g_assert_true (cs_event_list_get_event (all, r, &ev, NULL));
            n += cs_event_filter_matches_event (own, &ev);
          }
        g_test_message ("%s: %" G_GUINT64_FORMAT " events", expression, n);
        g_assert_cmpuint (n, >, 0);
        want += n;
      }
    cs_event_filter_clear (filter);
    g_assert_true (cs_event_filter_set_expression (filter, a_doc, expression, NULL));
    cs_event_list_set_filter (list, filter);
    wait_ready (list);
    g_assert_cmpuint (cs_event_list_get_n_events (list), ==, want);
  }

  /* a hidden stream drops out */
  cs_stream_set_hidden (b, TRUE);
  g_clear_object (&list);
  list = cs_event_list_new_for_streams (set, NULL);
  g_assert_cmpuint (cs_event_list_get_n_events (list), ==, cs_document_get_n_events (a_doc));
  cs_stream_set_hidden (b, FALSE);
}

/* ---- The recordings ------------------------------------------------------ */

static void
test_host_guest (void)
{
  g_autoptr(CsDocument) host_doc = cs_test_load ("pair/pair-host-v6.dat");
  g_autoptr(CsDocument) guest_doc = cs_test_load ("pair/pair-guest-v6.dat");
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *host = cs_stream_set_add (set, host_doc, "host");
  CsStream *guest = cs_stream_set_add (set, guest_doc, "guest");
  g_autoptr(CsEventList) list = cs_event_list_new_for_streams (set, NULL);
  g_autoptr(GArray) expected = expected_merge (set);

  /* the guest on the host's clock, per vCPU */
  g_assert_cmpint (cs_stream_get_alignment (guest), ==, CS_STREAM_ALIGNMENT_GUEST);
  g_assert_cmpint (cs_stream_to_axis_ns (guest, 0, cs_document_get_first_ns (guest_doc)), !=,
                   cs_document_get_first_ns (guest_doc));
  g_assert_true (cs_event_list_get_ready (list));
  g_assert_cmpuint (expected->len, ==, cs_document_get_n_events (host_doc) + cs_document_get_n_events (guest_doc));
  check_merge (set, list, expected);
  check_items (set, list, expected);
  /* host "cs-pair: send N"/"recv N" around each guest "cs-pair: guest N" */
  check_search (set, list, expected, "cs-pair:");
  check_filters (set, host, guest);
}

static void
test_same_clock (void)
{
  g_autoptr(CsDocument) a_doc = cs_test_load ("sched-irq-v7.dat");
  g_autoptr(CsDocument) b_doc = cs_test_load ("sched-prio-migrate-v7.dat");
  g_autoptr(CsStreamSet) set = cs_stream_set_new ();
  CsStream *a = cs_stream_set_add (set, a_doc, NULL);
  CsStream *b = cs_stream_set_add (set, b_doc, NULL);
  g_autoptr(CsEventList) list = NULL;
  g_autoptr(GArray) expected = NULL;
  gint64 a_mid = (cs_document_get_first_ns (a_doc) + cs_document_get_last_ns (a_doc)) / 2;

  g_assert_cmpint (cs_stream_get_alignment (b), ==, CS_STREAM_ALIGNMENT_AS_RECORDED);
  /* b's start into the middle of a, so that they interleave */
  cs_stream_set_offset_ns (b, a_mid - cs_document_get_first_ns (b_doc));
  list = cs_event_list_new_for_streams (set, NULL);
  expected = expected_merge (set);
  check_merge (set, list, expected);
  check_items (set, list, expected);
  check_search (set, list, expected, "==>");   /* sched_switch, as libtraceevent prints it */
  check_filters (set, a, b);
}

/* One recording's list is what it always was: no stream, its own time. */
static void
test_one_recording (void)
{
  g_autoptr(CsDocument) doc = cs_test_load ("sched-irq-v7.dat");
  g_autoptr(CsEventList) list = cs_event_list_new (doc, NULL);
  g_autoptr(CsEventItem) item = g_list_model_get_item (G_LIST_MODEL (list), 3);
  g_autofree char *name = cs_event_item_dup_column_text (item, CS_COLUMN_STREAM);

  g_assert_null (cs_event_list_get_stream_set (list));
  g_assert_null (cs_event_item_get_stream (item));
  g_assert_cmpstr (name, ==, "");
  g_assert_cmpint (cs_event_item_get_time_ns (item), ==, cs_event_item_get_event (item)->ts_ns);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/cs/index/EventList/streams/host-guest", test_host_guest);
  g_test_add_func ("/cs/index/EventList/streams/same-clock", test_same_clock);
  g_test_add_func ("/cs/index/EventList/streams/one-recording", test_one_recording);
  return g_test_run ();
}
