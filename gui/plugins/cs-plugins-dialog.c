/* cs-plugins-dialog.c: the Plugins dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Lists every plugin file the process found (CsPluginHost's registry), in
 * the order they were looked for: name, description and version, where it
 * was loaded from, a switch that enables or disables it (kept in
 * GSettings, applied at once to every open window), and, in red, why it
 * was refused or why it could not show the open recording.  Refused files
 * have no switch.
 *
 * The layout is the template cs-plugins-dialog.ui, each file's line
 * cs-plugin-row.ui.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-plugin-host.h"
#include "cs-plugin-private.h"
#include "cs-plugins-dialog.h"

struct _CsPluginsDialog
{
  GtkWindow parent_instance;

  /* template widgets */
  GtkListBox *list;

  /* owned */
  GHashTable *switches;     /* id -> GtkSwitch (borrowed from the list) */
};

G_DEFINE_FINAL_TYPE (CsPluginsDialog, cs_plugins_dialog, GTK_TYPE_WINDOW)

static void
cs_plugins_dialog_finalize (GObject *object)
{
  CsPluginsDialog *self = CS_PLUGINS_DIALOG (object);

  g_hash_table_unref (self->switches);

  G_OBJECT_CLASS (cs_plugins_dialog_parent_class)->finalize (object);
}

static void
cs_plugins_dialog_class_init (CsPluginsDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = cs_plugins_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-plugins-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsPluginsDialog, list);
}

static void
switch_active_cb (GtkSwitch  *sw,
                  GParamSpec *pspec,
                  CsPlugin   *plugin)
{
  cs_plugin_host_set_enabled (cs_plugin_host_get_default (), plugin, gtk_switch_get_active (sw));
}

/* Sets @label's text, or hides it without one. */
static void
set_text (GtkBuilder *builder,
          const char *label,
          const char *text)
{
  GtkLabel *widget = GTK_LABEL (gtk_builder_get_object (builder, label));

  gtk_label_set_label (widget, text);
  gtk_widget_set_visible (GTK_WIDGET (widget), text != NULL && *text != '\0');
}

/* Appends @record's line: cs-plugin-row.ui with its texts, and its switch
 * unless the file was refused (the list takes the line before the
 * builder lets it go). */
static void
append_row (CsPluginsDialog      *self,
            const CsPluginRecord *record)
{
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/chronoscope/Chronoscope/cs-plugin-row.ui");
  CsPluginHost *host = cs_plugin_host_get_default ();
  g_autofree char *origin = NULL;
  g_autofree char *basename = g_path_get_basename (record->path);
  CsPlugin *plugin = record->plugin;
  GtkWidget *sw = GTK_WIDGET (gtk_builder_get_object (builder, "switch"));

  set_text (builder, "name", plugin != NULL ? plugin->name : basename);
  set_text (builder, "description", plugin != NULL ? plugin->description : NULL);
  /* TRANSLATORS: a plugin's version, where it was found (command line,
   * built-in…) and its file */
  origin = plugin != NULL
    ? g_strdup_printf (_("Version %s · %s · %s"), *plugin->version != '\0' ? plugin->version : "?",
                       cs_plugin_source_to_string (record->source), record->path)
    : g_strdup_printf ("%s · %s", cs_plugin_source_to_string (record->source), record->path);
  set_text (builder, "origin", origin);
  set_text (builder, "error", record->error != NULL ? record->error->message
                                                    : cs_plugin_host_get_open_error (host, plugin));

  gtk_widget_set_visible (sw, plugin != NULL);
  if (plugin != NULL)
    {
      g_autofree char *name = g_strdup_printf ("plugin-switch-%s", plugin->id);

      gtk_widget_set_name (sw, name);
      gtk_switch_set_active (GTK_SWITCH (sw), cs_plugin_host_is_enabled (host, plugin));
      g_signal_connect (sw, "notify::active", G_CALLBACK (switch_active_cb), plugin);
      gtk_accessible_update_property (GTK_ACCESSIBLE (sw), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      plugin->name, -1);
      g_hash_table_insert (self->switches, g_strdup (plugin->id), sw);
    }
  gtk_list_box_append (self->list, GTK_WIDGET (gtk_builder_get_object (builder, "row")));
}

static void
cs_plugins_dialog_init (CsPluginsDialog *self)
{
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  guint n = cs_plugin_registry_get_n_records (registry);

  gtk_widget_init_template (GTK_WIDGET (self));

  self->switches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    append_row (self, cs_plugin_registry_get_record (registry, i));
}

/**
 * cs_plugins_dialog_new:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer floating): a new Plugins dialog, not shown yet
 */
GtkWidget *
cs_plugins_dialog_new (GtkWindow *parent)
{
  return g_object_new (CS_TYPE_PLUGINS_DIALOG, "transient-for", parent,
                       "destroy-with-parent", TRUE, NULL);
}

/**
 * cs_plugins_dialog_get_switch:
 * @self: the dialog
 * @id: a loaded plugin's id
 *
 * Returns: (transfer none) (nullable): the plugin's switch, for tests
 */
GtkSwitch *
cs_plugins_dialog_get_switch (CsPluginsDialog *self,
                              const char      *id)
{
  g_return_val_if_fail (CS_IS_PLUGINS_DIALOG (self), NULL);
  return g_hash_table_lookup (self->switches, id);
}
