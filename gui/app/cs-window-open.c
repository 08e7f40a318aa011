/* cs-window-open.c: how a CsWindow opens a recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index job (a worker process, or the index reused) with its progress
 * and Cancel, the file chooser, files dropped on the window and the
 * win.open-recent action.  While the file indexes, the window shows its
 * loading page, or keeps the live picture of the recording being opened
 * (cs-window-live.c); errors go to the window's banner.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-recent-list.h"
#include "cs-recording-filters.h"
#include "cs-window-open.h"
#include "cs-window-private.h"
#include "cs-window-streams.h"

static void
job_fraction_cb (CsWindow *self)
{
  if (self->job == NULL)
    return;
  gtk_progress_bar_set_fraction (self->progress_bar, cs_index_job_get_fraction (self->job));
  gtk_progress_bar_set_fraction (self->opening_bar, cs_index_job_get_fraction (self->job));
}

static void
job_done_cb (GObject      *source_object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(CsWindow) self = user_data;
  CsIndexJob *job = CS_INDEX_JOB (source_object);
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(GError) error = NULL;

  document = cs_index_job_run_finish (job, result, &error);

  /* Superseded by another file, or the window is going away. */
  if (job != self->job)
    return;

  g_clear_object (&self->cancellable);

  if (document == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _cs_window_show_error (self, cs_index_job_get_file (job), error);
      g_clear_object (&self->job);
      _cs_window_live_opened (self, FALSE);
      _cs_window_set_state (self, self->document != NULL ? CS_WINDOW_STATE_READY
                                                        : CS_WINDOW_STATE_EMPTY);
      return;
    }

  self->live.live = FALSE;      /* before the titles are made */
  _cs_window_set_document (self, document, cs_index_job_get_file (job));
  _cs_window_live_opened (self, TRUE);
  cs_recent_list_add_file (cs_index_job_get_file (job));
  g_clear_object (&self->job);
}

/**
 * cs_window_cancel:
 * @self: a #CsWindow
 *
 * Stops indexing, if the window is indexing; it goes back to what it showed
 * before.
 */
void
cs_window_cancel (CsWindow *self)
{
  g_return_if_fail (CS_IS_WINDOW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/**
 * cs_window_open_file:
 * @self: a #CsWindow
 * @file: a trace.dat recording
 *
 * Indexes @file in a worker process (or reuses its index) and shows it.
 * Whatever was being indexed before is cancelled.  Failures show in the
 * error banner and #CsWindow:error-message.
 */
void
cs_window_open_file (CsWindow *self,
                     GFile    *file)
{
  g_autofree char *basename = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  cs_window_cancel (self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job);

  /* The recording that was shown live opens where the user zoomed. */
  _cs_window_live_before_open (self, file);

  basename = g_file_get_basename (file);
  /* TRANSLATORS: shown while a recording is indexed */
  label = g_strdup_printf (_("Opening “%s”…"), basename);
  gtk_label_set_label (self->loading_label, label);
  gtk_label_set_label (self->opening_label, label);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_fraction (self->opening_bar, 0.0);
  _cs_window_hide_error (self);

  self->job = cs_index_job_new (file);
  self->cancellable = g_cancellable_new ();
  g_signal_connect_object (self->job, "notify::fraction",
                           G_CALLBACK (job_fraction_cb), self, G_CONNECT_SWAPPED);
  _cs_window_set_state (self, CS_WINDOW_STATE_LOADING);
  cs_index_job_run_async (self->job, self->cancellable, job_done_cb, g_object_ref (self));
}

static void
chooser_response_cb (CsWindow             *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  g_clear_object (&self->chooser);

  if (file == NULL)
    return;

  if (self->settings != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *directory = parent != NULL ? g_file_get_path (parent) : NULL;

      if (directory != NULL)
        g_settings_set_string (self->settings, "last-directory", directory);
    }

  cs_window_open_file (self, file);
}

/**
 * cs_window_choose_file:
 * @self: a #CsWindow
 *
 * Asks for a recording with the desktop's file chooser, then opens it.
 */
void
cs_window_choose_file (CsWindow *self)
{
  g_return_if_fail (CS_IS_WINDOW (self));

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (_("Open Recording"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);

  cs_recording_filters_add (GTK_FILE_CHOOSER (self->chooser));

  if (self->settings != NULL)
    {
      g_autofree char *directory = g_settings_get_string (self->settings, "last-directory");

      if (directory != NULL && *directory != '\0' && g_file_test (directory, G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GFile) folder = g_file_new_for_path (directory);
          gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
        }
    }

  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         CsWindow      *self)
{
  GFile *file = g_value_get_object (value);

  if (file == NULL)
    return FALSE;

  /* A second recording joins the first on its axis. */
  if (self->document != NULL)
    cs_window_add_file (self, file);
  else
    cs_window_open_file (self, file);
  return TRUE;
}

/* win.open-recent(uri): a row of the recent recordings. */
static void
open_recent_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  cs_window_open_file (CS_WINDOW (user_data), file);
}

/**
 * _cs_window_open_init:
 * @self: a #CsWindow, from its init
 *
 * Opens files dropped on @self, and adds the win.open-recent(uri) action.
 */
void
_cs_window_open_init (CsWindow *self)
{
  static const GActionEntry entries[] = {
    { "open-recent", open_recent_action, "s" },
  };
  GtkDropTarget *target;

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  target = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);
  g_signal_connect (target, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}
