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
 * runs it like a preset.  The layout is the template
 * cs-latency-custom.ui; the drop-downs' lists are filled here.  GTK 4.8
 * widgets only.
 *
 * Widgets a test reaches have names: latency-custom-a, latency-custom-a-key,
 * latency-custom-a-key2, latency-custom-b, latency-custom-b-key,
 * latency-custom-b-key2, latency-custom-error, latency-custom-run.
 */
#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "cs-latency-def.h"
#include "cs-latency-ui.h"

struct _CsLatencyCustomDialog
{
  GtkWindow parent_instance;

  GtkDropDown *event[2];
  GtkDropDown *key[2][2];
  GtkLabel *error;
  CsLatency *latency;
  CsLatencyCustomFunc done;
  gpointer data;
  GPtrArray *events;            /* "system:name" of the drop-downs' rows */
  GPtrArray *keys[2];           /* per side: the definition's names of the rows */
};

G_DEFINE_FINAL_TYPE (CsLatencyCustomDialog, cs_latency_custom_dialog, GTK_TYPE_WINDOW)

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
find_event (CsLatencyCustomDialog *self,
            int                    side)
{
  guint i = gtk_drop_down_get_selected (self->event[side]);
  struct tep_handle *tep = cs_plugin_document_get_tep (self->latency->document, NULL);
  g_auto(GStrv) parts = NULL;

  if (tep == NULL || i >= self->events->len)
    return NULL;
  parts = g_strsplit (g_ptr_array_index (self->events, i), ":", 2);
  return tep_find_event_by_name (tep, parts[0], parts[1]);
}

/* The key drop-downs of @side list @side's event's number fields. */
static void
fill_keys (CsLatencyCustomDialog *self,
           int                    side)
{
  struct tep_event *event = find_event (self, side);
  struct tep_format_field **fields = event != NULL ? tep_event_fields (event) : NULL;
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) labels2 = gtk_string_list_new (NULL);

  g_ptr_array_set_size (self->keys[side], 0);
  g_ptr_array_add (self->keys[side], g_strdup ("@pid"));
  g_ptr_array_add (self->keys[side], g_strdup ("@cpu"));
  gtk_string_list_append (labels, _("task (pid)"));
  gtk_string_list_append (labels, _("CPU"));
  for (guint i = 0; fields != NULL && fields[i] != NULL; i++)
    if (cs_latency_field_is_number (fields[i]))
      {
        g_ptr_array_add (self->keys[side], g_strdup (fields[i]->name));
        gtk_string_list_append (labels, fields[i]->name);
      }
  free (fields);
  /* The second part offers the same, after "none". */
  gtk_string_list_append (labels2, _("(none)"));
  for (guint i = 0; i < self->keys[side]->len; i++)
    gtk_string_list_append (labels2, gtk_string_list_get_string (labels, i));
  gtk_drop_down_set_model (self->key[side][0], G_LIST_MODEL (labels));
  gtk_drop_down_set_model (self->key[side][1], G_LIST_MODEL (labels2));
  gtk_drop_down_set_selected (self->key[side][0], 0);
  gtk_drop_down_set_selected (self->key[side][1], 0);
}

static void
event_changed_cb (CsLatencyCustomDialog *self,
                  GParamSpec            *pspec,
                  GtkDropDown           *dropdown)
{
  fill_keys (self, dropdown == self->event[0] ? 0 : 1);
  gtk_label_set_text (self->error, "");
}

/* One side as a definition writes it: "system:name.key[,key]". */
static char *
side_text (CsLatencyCustomDialog *self,
           int                    side)
{
  guint e = gtk_drop_down_get_selected (self->event[side]);
  guint k = gtk_drop_down_get_selected (self->key[side][0]);
  guint k2 = gtk_drop_down_get_selected (self->key[side][1]);
  GString *s;

  if (e >= self->events->len)
    return NULL;
  s = g_string_new (g_ptr_array_index (self->events, e));
  if (k < self->keys[side]->len)
    g_string_append_printf (s, ".%s", (const char *) g_ptr_array_index (self->keys[side], k));
  if (k2 > 0 && k2 - 1 < self->keys[side]->len)
    g_string_append_printf (s, ",%s", (const char *) g_ptr_array_index (self->keys[side], k2 - 1));
  return g_string_free (s, FALSE);
}

static void
run_clicked_cb (CsLatencyCustomDialog *self)
{
  g_autofree char *a = side_text (self, 0);
  g_autofree char *b = side_text (self, 1);
  g_autofree char *param = NULL;
  g_autoptr(CsLatencyDef) def = NULL;
  g_autoptr(GError) error = NULL;

  if (a == NULL || b == NULL)
    {
      gtk_label_set_text (self->error, _("Choose events A and B."));
      return;
    }
  param = g_strdup_printf ("%s>%s", a, b);
  def = cs_latency_def_new (self->latency->document, param, &error);
  if (def == NULL)
    {
      gtk_label_set_text (self->error, error->message);
      return;
    }
  self->done (param, self->data);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
cancel_clicked_cb (CsLatencyCustomDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
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
preselect (CsLatencyCustomDialog *self,
           const char            *param)
{
  g_autoptr(CsLatencyDef) def = param != NULL ? cs_latency_def_new (self->latency->document, param, NULL) : NULL;
  const CsLatencyPair *pair;

  if (def == NULL || def->pairs->len == 0)
    return;
  pair = g_ptr_array_index (def->pairs, 0);
  for (int side = 0; side < 2; side++)
    {
      g_autofree char *event = g_strdup_printf ("%s:%s", side == 0 ? pair->a_system : pair->b_system,
                                                side == 0 ? pair->a_event : pair->b_event);
      char *const *keys = side == 0 ? pair->a_keys : pair->b_keys;

      select_string (self->event[side], self->events, event);
      select_string (self->key[side][0], self->keys[side], keys[0]);
      for (guint i = 0; pair->n_keys > 1 && i < self->keys[side]->len; i++)
        if (g_str_equal (g_ptr_array_index (self->keys[side], i), keys[1]))
          gtk_drop_down_set_selected (self->key[side][1], i + 1);
    }
}

static void
cs_latency_custom_dialog_finalize (GObject *object)
{
  CsLatencyCustomDialog *self = CS_LATENCY_CUSTOM_DIALOG (object);

  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_ptr_array_unref (self->keys[0]);
  g_ptr_array_unref (self->keys[1]);
  G_OBJECT_CLASS (cs_latency_custom_dialog_parent_class)->finalize (object);
}

static void
cs_latency_custom_dialog_class_init (CsLatencyCustomDialogClass *klass)
{
  static const char *const names[2][3] = {
    { "event_a", "key_a", "key2_a" },
    { "event_b", "key_b", "key2_b" },
  };
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = cs_latency_custom_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/chronoscope/plugins/latency/cs-latency-custom.ui");
  for (int side = 0; side < 2; side++)
    {
      gtk_widget_class_bind_template_child_full (widget_class, names[side][0], FALSE,
                                                 G_STRUCT_OFFSET (CsLatencyCustomDialog, event[side]));
      for (int part = 0; part < 2; part++)
        gtk_widget_class_bind_template_child_full (widget_class, names[side][1 + part], FALSE,
                                                   G_STRUCT_OFFSET (CsLatencyCustomDialog, key[side][part]));
    }
  gtk_widget_class_bind_template_child_full (widget_class, "error", FALSE,
                                             G_STRUCT_OFFSET (CsLatencyCustomDialog, error));
  gtk_widget_class_bind_template_callback (widget_class, event_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, run_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
cs_latency_custom_dialog_init (CsLatencyCustomDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->keys[0] = g_ptr_array_new_with_free_func (g_free);
  self->keys[1] = g_ptr_array_new_with_free_func (g_free);
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
  CsLatencyCustomDialog *self = g_object_new (CS_LATENCY_TYPE_CUSTOM_DIALOG, NULL);
  g_autoptr(GtkStringList) events = gtk_string_list_new (NULL);

  self->latency = latency;
  self->done = done;
  self->data = data;
  self->events = list_events (latency->document);
  for (guint i = 0; i < self->events->len; i++)
    gtk_string_list_append (events, g_ptr_array_index (self->events, i));
  if (parent != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  /* Each side on its first event, with that event's keys (which its
   * selection may have filled already: event_changed_cb). */
  for (int side = 0; side < 2; side++)
    {
      gtk_drop_down_set_model (self->event[side], G_LIST_MODEL (events));
      fill_keys (self, side);
    }
  preselect (self, initial);
  gtk_window_present (GTK_WINDOW (self));
  return GTK_WINDOW (self);
}
