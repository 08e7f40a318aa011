/* test-session-model.c: sessions saved from and restored into a view model,
 * with no window and no display.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A session is the state of a CsViewModel (cs-session.c): this test opens
 * a real recording as a document, gives a model what a window would show of
 * it (a span, markers, plots of real tasks, a filter with an expression,
 * Query text and history, a plugin row, a split and a size), saves the
 * session, and restores the file into a second model that no window owns.
 * GTK is never initialised: the test runs without a display.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "cs-event-filter.h"
#include "cs-session.h"
#include "cs-test-data.h"
#include "cs-view-model.h"

typedef struct {
  char *dir;
  char *recording;
  CsDocument *document;
} Fixture;

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("cs-session-model-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->recording = cs_test_own_path ("sched-irq-v6.dat");
  fixture->document = cs_document_load (fixture->recording, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->document);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->recording);
  g_clear_object (&fixture->document);
}

/* Two tasks that ran, as the Tasks dialog would offer them. */
static void
pick_tasks (CsDocument *document, gint32 pids[2])
{
  guint n = 0;

  for (guint i = 0; i < cs_document_get_n_tasks (document) && n < 2; i++)
    {
      const CsTask *task = cs_document_get_task (document, i);

      if (task->pid > 0 && task->runtime_ns > 0)
        pids[n++] = task->pid;
    }
  g_assert_cmpuint (n, ==, 2);
}

static void
test_restore_without_window (Fixture *fixture, gconstpointer data)
{
  CsDocument *document = fixture->document;
  g_autoptr(CsViewModel) shown = cs_view_model_new ();
  g_autoptr(CsViewModel) restored = cs_view_model_new ();
  g_autoptr(GFile) file = g_file_new_for_path (fixture->recording);
  g_autoptr(CsEventFilter) filter = cs_event_filter_new ();
  g_autoptr(CsEventFilter) restored_filter = NULL;
  g_autoptr(CsSession) session = NULL;
  g_autoptr(CsSession) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *filter_text = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "session.json", NULL);
  g_auto(GStrv) history = NULL;
  g_auto(GStrv) rows = NULL;
  g_autoptr(GVariant) cpus = NULL;
  g_autoptr(GVariant) tasks = NULL;
  const char *saved_history[] = { "SELECT count(*) FROM events", "SELECT 1", NULL };
  const char *saved_rows[] = { "field-plot:values:power:cpu_frequency:state", NULL };
  gint64 first_ns = cs_document_get_first_ns (document);
  gint64 span_ns = cs_document_get_last_ns (document) - first_ns;
  guint32 cpu_plots[] = { cs_document_get_n_cpus (document) - 1, 0 };
  gint32 pids[2] = { 0, 0 };
  const gint32 *restored_pids;
  const guint32 *restored_cpus;
  guint targets = 0, active = 0;
  gboolean hide = FALSE, maximized = TRUE;
  int width = 0, height = 0, paned = 0;
  gsize n;

  g_assert_cmpint (span_ns, >, 0);
  g_assert_cmpuint (cs_document_get_n_cpus (document), >=, 2);
  pick_tasks (document, pids);
  cs_event_filter_set_mode (filter, CS_FILTER_PID, CS_FILTER_HIDE);
  cs_event_filter_add (filter, CS_FILTER_PID, 0);
  g_assert_true (cs_event_filter_set_expression (filter, document, "sched/sched_switch: prev_prio < 130", &error));
  g_assert_no_error (error);
  filter_text = cs_event_filter_to_string (filter);

  /* No recording shown: nothing to save. */
  g_assert_null (cs_session_capture (shown));

  g_object_set (shown,
                "file", file,
                "document", document,
                "marker-a-ns", first_ns + span_ns / 4,
                "marker-b-ns", first_ns + span_ns / 4 + 12345,
                "active-marker", 1u,
                "cpu-plots", g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, cpu_plots, 2, sizeof (guint32)),
                "task-plots", g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, pids, 2, sizeof (gint32)),
                "filter-text", filter_text,
                "filter-targets", 1u,
                "hide-filtered", TRUE,
                "query-text", "SELECT comm, count(*) FROM events GROUP BY comm",
                "query-history", saved_history,
                "plugin-rows", saved_rows,
                "width", 1100,
                "height", 700,
                "maximized", FALSE,
                "paned-position", 333,
                NULL);
  cs_view_model_set_span (shown, first_ns + span_ns / 5, first_ns + span_ns / 3);

  session = cs_session_capture (shown);
  g_assert_nonnull (session);
  g_assert_cmpstr (cs_session_get_recording (session), ==, fixture->recording);
  g_assert_true (cs_session_save (session, path, &error));
  g_assert_no_error (error);

  /* Into a model that no window owns. */
  loaded = cs_session_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_cmpstr (cs_session_get_recording (loaded), ==, fixture->recording);
  cs_session_restore_geometry (loaded, restored);
  cs_session_restore_view (loaded, restored);

  g_assert_cmpint (cs_view_model_get_begin_ns (restored), ==, first_ns + span_ns / 5);
  g_assert_cmpint (cs_view_model_get_end_ns (restored), ==, first_ns + span_ns / 3);
  g_assert_cmpint (cs_view_model_get_marker_ns (restored, 0), ==, first_ns + span_ns / 4);
  g_assert_cmpint (cs_view_model_get_marker_ns (restored, 1), ==, first_ns + span_ns / 4 + 12345);
  g_assert_cmpuint (cs_view_model_get_active_marker (restored), ==, 1);

  g_object_get (restored, "cpu-plots", &cpus, "task-plots", &tasks, NULL);
  restored_cpus = g_variant_get_fixed_array (cpus, &n, sizeof (guint32));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (restored_cpus[0], ==, cpu_plots[0]);
  g_assert_cmpuint (restored_cpus[1], ==, cpu_plots[1]);
  restored_pids = g_variant_get_fixed_array (tasks, &n, sizeof (gint32));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (restored_pids[0], ==, pids[0]);
  g_assert_cmpint (restored_pids[1], ==, pids[1]);

  /* The filter reads back, against the recording, as the one saved. */
  restored_filter = cs_event_filter_new_from_string (document, cs_view_model_get_filter_text (restored), &error);
  g_assert_no_error (error);
  g_assert_true (cs_event_filter_equal (restored_filter, filter));
  g_object_get (restored,
                "filter-targets", &targets,
                "hide-filtered", &hide,
                "query-history", &history,
                "plugin-rows", &rows,
                "width", &width,
                "height", &height,
                "maximized", &maximized,
                "paned-position", &paned,
                "active-marker", &active,
                NULL);
  g_assert_cmpuint (targets, ==, 1);
  g_assert_true (hide);
  g_assert_cmpstr (cs_view_model_get_query_text (restored), ==, "SELECT comm, count(*) FROM events GROUP BY comm");
  g_assert_true (g_strv_equal ((const char * const *) history, saved_history));
  g_assert_true (g_strv_equal ((const char * const *) rows, saved_rows));
  g_assert_cmpint (width, ==, 1100);
  g_assert_cmpint (height, ==, 700);
  g_assert_false (maximized);
  g_assert_cmpint (paned, ==, 333);

  /* The recording and its document are the window's to open. */
  g_assert_null (cs_view_model_get_file (restored));
  g_assert_null (cs_view_model_get_document (restored));
}

/* A session that says little leaves the rest of the model as it is. */
static void
test_restore_partial (Fixture *fixture, gconstpointer data)
{
  g_autoptr(CsViewModel) model = cs_view_model_new ();
  g_autoptr(CsSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fixture->dir, "partial.json", NULL);
  g_autofree char *text = g_strdup_printf ("{ \"format\": \"chronoscope-session\", \"version\": 1,"
                                           "  \"recording\": \"%s\","
                                           "  \"markers\": { \"a_ns\": %" G_GINT64_FORMAT " } }",
                                           fixture->recording, cs_document_get_first_ns (fixture->document));
  const char *rows[] = { "kept:layer:key", NULL };
  g_autoptr(GVariant) cpus = NULL;
  g_auto(GStrv) kept_rows = NULL;
  gsize n;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_object_set (model,
                "query-text", "SELECT 1",
                "plugin-rows", rows,
                "filter-text", "kept",
                NULL);
  cs_view_model_set_span (model, 10, 20);

  session = cs_session_load (path, &error);
  g_assert_no_error (error);
  cs_session_restore_geometry (session, model);
  cs_session_restore_view (session, model);

  g_assert_cmpint (cs_view_model_get_marker_ns (model, 0), ==, cs_document_get_first_ns (fixture->document));
  g_assert_cmpint (cs_view_model_get_marker_ns (model, 1), ==, CS_VIEW_MODEL_MARKER_UNSET);
  g_assert_cmpint (cs_view_model_get_begin_ns (model), ==, 10);
  g_assert_cmpint (cs_view_model_get_end_ns (model), ==, 20);
  g_assert_cmpstr (cs_view_model_get_query_text (model), ==, "SELECT 1");
  g_assert_cmpstr (cs_view_model_get_filter_text (model), ==, "kept");
  g_object_get (model, "plugin-rows", &kept_rows, "cpu-plots", &cpus, NULL);
  g_assert_true (g_strv_equal ((const char * const *) kept_rows, rows));
  /* No "cpu_plots": the default plots, which the window chooses. */
  g_assert_null (cpus);
  /* "task_plots" missing reads as none. */
  g_variant_get_fixed_array (cs_view_model_get_task_plots (model), &n, sizeof (gint32));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (cs_session_get_disabled_plugins (session));
}

/* The model notifies only on a real change: what keeps the window's
 * two-way bindings from looping. */
static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

static void
test_notify_on_change (Fixture *fixture, gconstpointer data)
{
  g_autoptr(CsViewModel) model = cs_view_model_new ();
  const char *history[] = { "SELECT 1", NULL };
  guint count = 0;

  g_signal_connect (model, "notify", G_CALLBACK (count_notify), &count);
  cs_view_model_set_span (model, 5, 9);
  g_assert_cmpuint (count, ==, 2);
  cs_view_model_set_span (model, 5, 9);
  g_object_set (model, "query-history", history, "marker-a-ns", CS_VIEW_MODEL_MARKER_UNSET, NULL);
  g_assert_cmpuint (count, ==, 3);
  g_object_set (model, "query-history", history, "document", fixture->document, NULL);
  g_assert_cmpuint (count, ==, 4);
  g_object_set (model, "document", fixture->document, NULL);
  g_assert_cmpuint (count, ==, 4);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/cs/gui/CsSession/restore-without-window", Fixture, NULL,
              fixture_set_up, test_restore_without_window, fixture_tear_down);
  g_test_add ("/cs/gui/CsSession/restore-partial", Fixture, NULL,
              fixture_set_up, test_restore_partial, fixture_tear_down);
  g_test_add ("/cs/gui/CsViewModel/notify-on-change", Fixture, NULL,
              fixture_set_up, test_notify_on_change, fixture_tear_down);
  return g_test_run ();
}
