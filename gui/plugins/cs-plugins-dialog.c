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
 * The layout is the template cs-plugins-dialog.ui; the rows are made
 * here.
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

static GtkWidget *
add_label (GtkBox     *box,
           const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), css_class != NULL && g_str_equal (css_class, "error"));
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (box, label);
  return label;
}

static GtkWidget *
make_row (CsPluginsDialog      *self,
          const CsPluginRecord *record)
{
  CsPluginHost *host = cs_plugin_host_get_default ();
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *origin = NULL;
  g_autofree char *basename = g_path_get_basename (record->path);
  CsPlugin *plugin = record->plugin;

  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 8);
  gtk_widget_set_margin_bottom (row, 8);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), text);

  add_label (GTK_BOX (text), plugin != NULL ? plugin->name : basename, "heading");
  if (plugin != NULL && *plugin->description != '\0')
    add_label (GTK_BOX (text), plugin->description, NULL);
  /* TRANSLATORS: a plugin's version, where it was found (command line,
   * built-in…) and its file */
  origin = plugin != NULL
    ? g_strdup_printf (_("Version %s · %s · %s"), *plugin->version != '\0' ? plugin->version : "?",
                       cs_plugin_source_to_string (record->source), record->path)
    : g_strdup_printf ("%s · %s", cs_plugin_source_to_string (record->source), record->path);
  add_label (GTK_BOX (text), origin, "dim-label");

  if (record->error != NULL)
    add_label (GTK_BOX (text), record->error->message, "error");
  else if (cs_plugin_host_get_open_error (host, plugin) != NULL)
    add_label (GTK_BOX (text), cs_plugin_host_get_open_error (host, plugin), "error");

  if (plugin != NULL)
    {
      GtkWidget *sw = gtk_switch_new ();
      g_autofree char *name = g_strdup_printf ("plugin-switch-%s", plugin->id);

      gtk_widget_set_name (sw, name);
      gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
      gtk_switch_set_active (GTK_SWITCH (sw), cs_plugin_host_is_enabled (host, plugin));
      g_signal_connect (sw, "notify::active", G_CALLBACK (switch_active_cb), plugin);
      gtk_accessible_update_property (GTK_ACCESSIBLE (sw), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      plugin->name, -1);
      gtk_box_append (GTK_BOX (row), sw);
      g_hash_table_insert (self->switches, g_strdup (plugin->id), sw);
    }
  return row;
}

static void
cs_plugins_dialog_init (CsPluginsDialog *self)
{
  CsPluginRegistry *registry = cs_plugin_host_get_registry (cs_plugin_host_get_default ());
  guint n = cs_plugin_registry_get_n_records (registry);

  gtk_widget_init_template (GTK_WIDGET (self));

  self->switches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->list, make_row (self, cs_plugin_registry_get_record (registry, i)));
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
