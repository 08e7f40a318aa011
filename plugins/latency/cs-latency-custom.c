/* cs-latency-custom.c: the dialog "Custom pair" of the latency page.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Event A (a drop-down of the event types the recording holds), the
 * field(s) its key is made of (its number fields, plus "task (pid)" and
 * "CPU"; a second, optional part), then event B and its field(s).  Run
 * writes the pair as a definition (SYSTEM:EVENT.KEY[,KEY]>SYSTEM:EVENT.KEY[,KEY],
 * cs-latency-def.h) and checks it with cs_latency_def_new(), the parser
 * `chronoscope latency --from/--to` uses: its error is shown in the
 * dialog, which stays open; a valid definition goes to the page, which
 * runs it like a preset.  GTK 4.8 widgets only.
 *
 * Widgets a test reaches have names: latency-custom-a, latency-custom-a-key,
 * latency-custom-a-key2, latency-custom-b, latency-custom-b-key,
 * latency-custom-b-key2, latency-custom-error, latency-custom-run.
 */
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-ui.h"

typedef struct {
  CsLatency *latency;
  CsLatencyCustomFunc done;
  gpointer data;
  GtkWindow *window;
  GPtrArray *events;            /* "system:name" of the drop-downs' rows */
  GtkDropDown *event[2];
  GtkDropDown *key[2][2];
  GPtrArray *keys[2];           /* per side: the definition's names of the rows */
  GtkLabel *error;
} Dialog;

static void
dialog_free (gpointer data)
{
  Dialog *d = data;

  g_ptr_array_unref (d->events);
  g_ptr_array_unref (d->keys[0]);
  g_ptr_array_unref (d->keys[1]);
  g_free (d);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* "system:name" of every event type the recording holds, sorted. */
static GPtrArray *
list_events (CsPluginDocument *document)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  struct tep_handle *tep = cs_plugin_document_get_tep (document, NULL);
  struct tep_event **events = tep != NULL ? tep_list_events (tep, TEP_EVENT_SORT_SYSTEM) : NULL;

  for (guint i = 0; events != NULL && events[i] != NULL; i++)
    if (cs_plugin_document_count_events (document, events[i]->system, events[i]->name) > 0)
      g_ptr_array_add (out, g_strdup_printf ("%s:%s", events[i]->system, events[i]->name));
  g_ptr_array_sort (out, compare_names);
  return out;
}

static struct tep_event *
find_event (Dialog *d,
            int     side)
{
  guint i = gtk_drop_down_get_selected (d->event[side]);
  struct tep_handle *tep = cs_plugin_document_get_tep (d->latency->document, NULL);
  g_auto(GStrv) parts = NULL;

  if (tep == NULL || i >= d->events->len)
    return NULL;
  parts = g_strsplit (g_ptr_array_index (d->events, i), ":", 2);
  return tep_find_event_by_name (tep, parts[0], parts[1]);
}

/* The key drop-downs of @side list @side's event's number fields. */
static void
fill_keys (Dialog *d,
           int     side)
{
  struct tep_event *event = find_event (d, side);
  struct tep_format_field **fields = event != NULL ? tep_event_fields (event) : NULL;
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) labels2 = gtk_string_list_new (NULL);

  g_ptr_array_set_size (d->keys[side], 0);
  g_ptr_array_add (d->keys[side], g_strdup ("@pid"));
  g_ptr_array_add (d->keys[side], g_strdup ("@cpu"));
  gtk_string_list_append (labels, _("task (pid)"));
  gtk_string_list_append (labels, _("CPU"));
  for (guint i = 0; fields != NULL && fields[i] != NULL; i++)
    if (cs_latency_field_is_number (fields[i]))
      {
        g_ptr_array_add (d->keys[side], g_strdup (fields[i]->name));
        gtk_string_list_append (labels, fields[i]->name);
      }
  free (fields);
  /* The second part offers the same, after "none". */
  gtk_string_list_append (labels2, _("(none)"));
  for (guint i = 0; i < d->keys[side]->len; i++)
    gtk_string_list_append (labels2, gtk_string_list_get_string (labels, i));
  gtk_drop_down_set_model (d->key[side][0], G_LIST_MODEL (labels));
  gtk_drop_down_set_model (d->key[side][1], G_LIST_MODEL (labels2));
  gtk_drop_down_set_selected (d->key[side][0], 0);
  gtk_drop_down_set_selected (d->key[side][1], 0);
}

static void
event_changed_cb (GObject    *dropdown,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  Dialog *d = user_data;

  fill_keys (d, GTK_DROP_DOWN (dropdown) == d->event[0] ? 0 : 1);
  if (d->error != NULL)   /* not yet while the dialog is built */
    gtk_label_set_text (d->error, "");
}

/* One side as a definition writes it: "system:name.key[,key]". */
static char *
side_text (Dialog *d,
           int     side)
{
  guint e = gtk_drop_down_get_selected (d->event[side]);
  guint k = gtk_drop_down_get_selected (d->key[side][0]);
  guint k2 = gtk_drop_down_get_selected (d->key[side][1]);
  GString *s;

  if (e >= d->events->len)
    return NULL;
  s = g_string_new (g_ptr_array_index (d->events, e));
  if (k < d->keys[side]->len)
    g_string_append_printf (s, ".%s", (const char *) g_ptr_array_index (d->keys[side], k));
  if (k2 > 0 && k2 - 1 < d->keys[side]->len)
    g_string_append_printf (s, ",%s", (const char *) g_ptr_array_index (d->keys[side], k2 - 1));
  return g_string_free (s, FALSE);
}

static void
run_clicked_cb (GtkButton *button,
                gpointer   user_data)
{
  Dialog *d = user_data;
  g_autofree char *a = side_text (d, 0);
  g_autofree char *b = side_text (d, 1);
  g_autofree char *param = NULL;
  g_autoptr(CsLatencyDef) def = NULL;
  g_autoptr(GError) error = NULL;

  if (a == NULL || b == NULL)
    {
      gtk_label_set_text (d->error, _("Choose events A and B."));
      return;
    }
  param = g_strdup_printf ("%s>%s", a, b);
  def = cs_latency_def_new (d->latency->document, param, &error);
  if (def == NULL)
    {
      gtk_label_set_text (d->error, error->message);
      return;
    }
  d->done (param, d->data);
  gtk_window_destroy (d->window);
}

static void
cancel_clicked_cb (GtkButton *button,
                   gpointer   user_data)
{
  Dialog *d = user_data;

  gtk_window_destroy (d->window);
}

static GtkDropDown *
new_dropdown (GListModel *model,
              const char *name)
{
  GtkWidget *dropdown = gtk_drop_down_new (model, NULL);

  gtk_widget_set_name (dropdown, name);
  return GTK_DROP_DOWN (dropdown);
}

/* Selects @text's row of @dropdown (a GtkStringList), if it has one. */
static void
select_string (GtkDropDown *dropdown,
               GPtrArray   *names,
               const char  *text)
{
  for (guint i = 0; text != NULL && i < names->len; i++)
    if (g_str_equal (g_ptr_array_index (names, i), text))
      {
        gtk_drop_down_set_selected (dropdown, i);
        return;
      }
}

/* Starts the dialog on @param's first pair, when it is one the dialog
 * can show (a pair of the recording's events with one or two keys). */
static void
preselect (Dialog     *d,
           const char *param)
{
  g_autoptr(CsLatencyDef) def = param != NULL ? cs_latency_def_new (d->latency->document, param, NULL) : NULL;
  const CsLatencyPair *pair;

  if (def == NULL || def->pairs->len == 0)
    return;
  pair = g_ptr_array_index (def->pairs, 0);
  for (int side = 0; side < 2; side++)
    {
      g_autofree char *event = g_strdup_printf ("%s:%s", side == 0 ? pair->a_system : pair->b_system,
                                                side == 0 ? pair->a_event : pair->b_event);
      char *const *keys = side == 0 ? pair->a_keys : pair->b_keys;

      select_string (d->event[side], d->events, event);
      select_string (d->key[side][0], d->keys[side], keys[0]);
      for (guint i = 0; pair->n_keys > 1 && i < d->keys[side]->len; i++)
        if (g_str_equal (g_ptr_array_index (d->keys[side], i), keys[1]))
          gtk_drop_down_set_selected (d->key[side][1], i + 1);
    }
}

/**
 * _cs_latency_custom_dialog_show:
 * @latency: the recording's instance
 * @parent: (nullable): the window the dialog belongs to
 * @initial: (nullable): a definition to start from (the one shown)
 * @done: called with the definition when the user runs a valid one
 * @data: for @done; must outlive the dialog (the dialog is modal and
 *   destroyed with @parent)
 *
 * Shows the dialog "Custom pair".
 *
 * Returns: (transfer none): the dialog
 */
GtkWindow *
_cs_latency_custom_dialog_show (CsLatency           *latency,
                                GtkWindow           *parent,
                                const char          *initial,
                                CsLatencyCustomFunc  done,
                                gpointer             data)
{
  static const char *const names[2][3] = {
    { "latency-custom-a", "latency-custom-a-key", "latency-custom-a-key2" },
    { "latency-custom-b", "latency-custom-b-key", "latency-custom-b-key2" },
  };
  Dialog *d = g_new0 (Dialog, 1);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *run = gtk_button_new_with_mnemonic (_("_Run"));
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *intro;
  g_autoptr(GtkStringList) events = gtk_string_list_new (NULL);

  d->latency = latency;
  d->done = done;
  d->data = data;
  d->events = list_events (latency->document);
  d->keys[0] = g_ptr_array_new_with_free_func (g_free);
  d->keys[1] = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < d->events->len; i++)
    gtk_string_list_append (events, g_ptr_array_index (d->events, i));

  d->window = GTK_WINDOW (gtk_window_new ());
  gtk_widget_set_name (GTK_WIDGET (d->window), "latency-custom");
  gtk_window_set_title (d->window, _("Custom Pair"));
  gtk_window_set_modal (d->window, TRUE);
  gtk_window_set_destroy_with_parent (d->window, TRUE);
  if (parent != NULL)
    gtk_window_set_transient_for (d->window, parent);
  g_object_set_data_full (G_OBJECT (d->window), "cs-latency-custom", d, dialog_free);

  intro = gtk_label_new (_("A pair runs from an event A to the next event B whose key "
                           "is the same: the same task, the same CPU, or equal fields."));
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 50);
  gtk_label_set_xalign (GTK_LABEL (intro), 0.0);
  gtk_box_append (GTK_BOX (box), intro);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (int side = 0; side < 2; side++)
    {
      GtkWidget *label = gtk_label_new (side == 0 ? _("Event A") : _("Event B"));
      GtkWidget *key = gtk_label_new (_("key"));
      g_autoptr(GtkExpression) by_name = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

      d->event[side] = new_dropdown (G_LIST_MODEL (g_object_ref (events)), names[side][0]);
      gtk_drop_down_set_enable_search (d->event[side], TRUE);
      /* For the search as the user types (the drop-down refs it). */
      gtk_drop_down_set_expression (d->event[side], by_name);
      d->key[side][0] = new_dropdown (NULL, names[side][1]);
      d->key[side][1] = new_dropdown (NULL, names[side][2]);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_grid_attach (GTK_GRID (grid), label, 0, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->event[side]), 1, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), key, 2, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->key[side][0]), 3, side, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->key[side][1]), 4, side, 1, 1);
      fill_keys (d, side);
      g_signal_connect (d->event[side], "notify::selected", G_CALLBACK (event_changed_cb), d);
    }
  gtk_box_append (GTK_BOX (box), grid);
  preselect (d, initial);

  d->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (d->error), "latency-custom-error");
  gtk_label_set_wrap (GTK_LABEL (d->error), TRUE);
  gtk_label_set_max_width_chars (d->error, 60);
  gtk_label_set_xalign (d->error, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (d->error), "error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (d->error));

  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  gtk_widget_set_name (run, "latency-custom-run");
  gtk_widget_add_css_class (run, "suggested-action");
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), run);
  gtk_box_append (GTK_BOX (box), buttons);
  g_signal_connect (run, "clicked", G_CALLBACK (run_clicked_cb), d);
  g_signal_connect (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), d);
  gtk_window_set_default_widget (d->window, run);

  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_window_set_child (d->window, box);
  gtk_window_present (d->window);
  return d->window;
}
