/* cs-latency-saved.c: the definitions a user made and ran, per recording.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * $XDG_CONFIG_HOME/chronoscope/latency-pairs.ini holds, in a group per
 * recording (its path, as cs_plugin_document_get_path() gives it), the
 * custom pairs defined in the dialog ("custom", a list) and the
 * definition shown last ("shown").  Reopening the recording offers the
 * custom pairs again and shows the last definition: its pass's results
 * are in the index cache, so they come at once.  The file is small and
 * rewritten whole; a file that cannot be read or written only loses the
 * memory (a warning is logged), never the session.  Main thread.
 */
#include <errno.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-ui.h"

#define CS_LATENCY_SAVED_MAX 32

static char *
saved_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "chronoscope", "latency-pairs.ini", NULL);
}

static GKeyFile *
load (void)
{
  g_autofree char *path = saved_path ();
  GKeyFile *file = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_KEEP_COMMENTS, &error) &&
      !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    g_warning ("%s: %s", path, error->message);
  return file;
}

static void
save (GKeyFile *file)
{
  g_autofree char *path = saved_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_key_file_save_to_file (file, path, &error))
    g_warning (_("Cannot remember the latency definitions in %s: %s"), path,
               error != NULL ? error->message : g_strerror (errno));
}

/**
 * _cs_latency_saved_get_custom:
 * @document: a recording
 *
 * Returns: (transfer full): the custom pairs defined for @document,
 *   oldest first, %NULL-terminated (empty when none)
 */
char **
_cs_latency_saved_get_custom (CsPluginDocument *document)
{
  g_autoptr(GKeyFile) file = load ();
  char **list = g_key_file_get_string_list (file, cs_plugin_document_get_path (document),
                                            "custom", NULL, NULL);

  return list != NULL ? list : g_new0 (char *, 1);
}

/**
 * _cs_latency_saved_get_shown:
 * @document: a recording
 *
 * Returns: (transfer full) (nullable): the definition shown last for
 *   @document, %NULL when none was
 */
char *
_cs_latency_saved_get_shown (CsPluginDocument *document)
{
  g_autoptr(GKeyFile) file = load ();

  return g_key_file_get_string (file, cs_plugin_document_get_path (document), "shown", NULL);
}

/**
 * _cs_latency_saved_add_custom:
 * @document: a recording
 * @param: a custom definition, valid for @document
 *
 * Remembers @param among @document's custom pairs (once; the oldest are
 * forgotten beyond 32).
 */
void
_cs_latency_saved_add_custom (CsPluginDocument *document,
                              const char       *param)
{
  g_autoptr(GKeyFile) file = load ();
  const char *group = cs_plugin_document_get_path (document);
  g_auto(GStrv) old = g_key_file_get_string_list (file, group, "custom", NULL, NULL);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) list = NULL;
  guint n = old != NULL ? g_strv_length (old) : 0;

  if (old != NULL && g_strv_contains ((const char * const *) old, param))
    return;
  for (guint i = n >= CS_LATENCY_SAVED_MAX ? n - CS_LATENCY_SAVED_MAX + 1 : 0; i < n; i++)
    g_strv_builder_add (builder, old[i]);
  g_strv_builder_add (builder, param);
  list = g_strv_builder_end (builder);
  g_key_file_set_string_list (file, group, "custom", (const char * const *) list, g_strv_length (list));
  save (file);
}

/**
 * _cs_latency_saved_set_shown:
 * @document: a recording
 * @param: the definition now shown
 *
 * Remembers @param as the definition to show when @document reopens.
 */
void
_cs_latency_saved_set_shown (CsPluginDocument *document,
                             const char       *param)
{
  g_autoptr(GKeyFile) file = load ();
  const char *group = cs_plugin_document_get_path (document);
  g_autofree char *old = g_key_file_get_string (file, group, "shown", NULL);

  if (g_strcmp0 (old, param) == 0)
    return;
  g_key_file_set_string (file, group, "shown", param);
  save (file);
}
