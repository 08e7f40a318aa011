/* cs-event-search-bar.c: search in the event list.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * KernelShark's list search: a column, a mode (contains, full match, does
 * not have) and a text; Next and Previous select the following or preceding
 * matching row, wrapping around the list once; a counter says "12 of 340".
 * Both the search and the count run in CsEventList's worker threads, so a
 * search through 80 M events never blocks the window; a spinner shows while
 * they run and Stop cancels them.
 *
 * The counter's first number is known when the current match was reached
 * from another match (or from the top or bottom of the list): the list
 * counts all matches but not those before a row, so after the user selects
 * some other row by hand the counter says "340 matches" until the next
 * wrap-around.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "cs-event-search-bar.h"
#include "cs-format.h"

struct _CsEventSearchBar
{
  GtkWidget parent_instance;

  /* template widgets */
  GtkSearchBar *search_bar;
  GtkDropDown *column_dropdown;
  GtkDropDown *mode_dropdown;
  GtkSearchEntry *search_entry;
  GtkButton *previous_button;
  GtkButton *next_button;
  GtkLabel *match_label;
  GtkSpinner *spinner;
  GtkButton *stop_button;

  /* owned */
  GtkSingleSelection *selection;
  char *query_text;          /* the query counted and searched for */
  guint query_column;
  guint query_mode;
  GCancellable *find_cancellable;
  GCancellable *count_cancellable;
  guint count_serial;        /* bumped when a count is started or dropped */
  guint find_serial;         /* bumped when a search is started or dropped */
  gboolean counted;
  guint64 n_matches;
  guint match_row;           /* the last match selected by a search */
  guint64 match_ordinal;     /* its 1-based number among all matches; 0: unknown */
  gboolean match_is_last;    /* reached backwards by wrapping, before the count */
  gboolean not_found;
  gboolean stopped;
  char *error_text;
  char *match_text;
  gboolean busy;
};

G_DEFINE_FINAL_TYPE (CsEventSearchBar, cs_event_search_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SEARCH_MODE_ENABLED,
  PROP_BUSY,
  PROP_MATCH_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  CsEventSearchBar *self;   /* owned */
  guint serial;
  gboolean forward;
  gboolean wrapped;         /* this search started over from the top (bottom) */
  guint selected;           /* the selection when the user asked */
  guint64 previous_ordinal; /* the selection's match number, when known */
} FindClosure;

static void find_from (CsEventSearchBar *self,
                       FindClosure      *closure,
                       guint64           from_row);

/* ------------------------------------------------------------------------ */
/* State                                                                     */

static CsEventList *
cs_event_search_bar_get_model (CsEventSearchBar *self)
{
  GListModel *model = self->selection != NULL ? gtk_single_selection_get_model (self->selection) : NULL;

  return CS_IS_EVENT_LIST (model) ? CS_EVENT_LIST (model) : NULL;
}

static const char *
cs_event_search_bar_get_text (CsEventSearchBar *self)
{
  return gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
}

static void
cs_event_search_bar_update (CsEventSearchBar *self)
{
  g_autofree char *text = NULL;
  gboolean busy = self->find_cancellable != NULL || self->count_cancellable != NULL;
  guint selected = self->selection != NULL ? gtk_single_selection_get_selected (self->selection)
                                           : GTK_INVALID_LIST_POSITION;
  gboolean on_match = self->match_ordinal > 0 && selected == self->match_row;

  if (self->match_is_last && self->counted)
    {
      self->match_ordinal = self->n_matches;
      self->match_is_last = FALSE;
      on_match = selected == self->match_row;
    }

  if (*cs_event_search_bar_get_text (self) == '\0')
    text = g_strdup ("");
  else if (self->error_text != NULL)
    text = g_strdup (self->error_text);
  else if ((self->counted && self->n_matches == 0) || self->not_found)
    text = g_strdup (_("No matches"));
  else if (on_match)
    {
      g_autofree char *ordinal = cs_format_count (self->match_ordinal);
      g_autofree char *total = self->counted ? cs_format_count (self->n_matches) : g_strdup ("…");

      /* TRANSLATORS: the search counter, "12 of 340" */
      text = g_strdup_printf (_("%s of %s"), ordinal, total);
    }
  else if (self->counted)
    {
      g_autofree char *total = cs_format_count (self->n_matches);

      text = g_strdup_printf (ngettext ("%s match", "%s matches", (gulong) self->n_matches), total);
    }
  else if (self->stopped)
    text = g_strdup (_("Stopped"));
  else
    text = g_strdup (_("Counting…"));

  gtk_label_set_label (self->match_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->match_label), self->error_text);
  if (g_strcmp0 (text, self->match_text) != 0)
    {
      g_free (self->match_text);
      self->match_text = g_steal_pointer (&text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MATCH_TEXT]);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), busy);
  if (busy != self->busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
cs_event_search_bar_cancel (CsEventSearchBar *self)
{
  /* Results still on their way belong to nobody now. */
  self->count_serial++;
  self->find_serial++;
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  if (self->count_cancellable != NULL)
    g_cancellable_cancel (self->count_cancellable);
  g_clear_object (&self->find_cancellable);
  g_clear_object (&self->count_cancellable);
}

/* ------------------------------------------------------------------------ */
/* Counting                                                                  */

typedef struct {
  CsEventSearchBar *self;   /* owned */
  guint serial;
} CountClosure;

static void
count_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  CountClosure *closure = user_data;
  g_autoptr(CsEventSearchBar) self = closure->self;
  g_autoptr(GError) error = NULL;
  guint64 n_matches = 0;
  gboolean ok;

  ok = cs_event_list_count_matches_finish (CS_EVENT_LIST (source), result, &n_matches, &error);
  if (closure->serial != self->count_serial || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_free (closure);
      return;
    }
  g_free (closure);

  g_clear_object (&self->count_cancellable);
  if (ok)
    {
      self->counted = TRUE;
      self->n_matches = n_matches;
    }
  else
    {
      g_free (self->error_text);
      self->error_text = g_strdup (error->message);
    }
  cs_event_search_bar_update (self);
}

static void
cs_event_search_bar_start_count (CsEventSearchBar *self)
{
  CsEventList *model = cs_event_search_bar_get_model (self);
  const char *text = cs_event_search_bar_get_text (self);
  CountClosure *closure;

  if (model == NULL || *text == '\0' || !cs_event_list_get_ready (model))
    return;

  if (self->count_cancellable != NULL)
    g_cancellable_cancel (self->count_cancellable);
  g_clear_object (&self->count_cancellable);
  self->count_cancellable = g_cancellable_new ();

  closure = g_new0 (CountClosure, 1);
  closure->self = g_object_ref (self);
  closure->serial = ++self->count_serial;
  cs_event_list_count_matches_async (model,
                                     gtk_drop_down_get_selected (self->column_dropdown),
                                     gtk_drop_down_get_selected (self->mode_dropdown),
                                     text, self->count_cancellable,
                                     count_done_cb, closure);
}

/* The query or the rows changed: forget what was found and count again. */
static void
cs_event_search_bar_restart (CsEventSearchBar *self)
{
  g_free (self->query_text);
  self->query_text = g_strdup (cs_event_search_bar_get_text (self));
  self->query_column = gtk_drop_down_get_selected (self->column_dropdown);
  self->query_mode = gtk_drop_down_get_selected (self->mode_dropdown);

  cs_event_search_bar_cancel (self);
  self->counted = FALSE;
  self->n_matches = 0;
  self->match_row = GTK_INVALID_LIST_POSITION;
  self->match_ordinal = 0;
  self->match_is_last = FALSE;
  self->not_found = FALSE;
  self->stopped = FALSE;
  g_clear_pointer (&self->error_text, g_free);

  cs_event_search_bar_start_count (self);
  cs_event_search_bar_update (self);
}

/* ------------------------------------------------------------------------ */
/* Finding                                                                   */

static void
find_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  FindClosure *closure = user_data;
  CsEventSearchBar *self = closure->self;
  g_autoptr(GError) error = NULL;
  guint64 row = 0;
  guint n_items;
  gboolean found;

  found = cs_event_list_search_finish (CS_EVENT_LIST (source), result, &row, &error);
  if (closure->serial != self->find_serial || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    goto out;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (source));

  if (error != NULL)
    {
      g_clear_object (&self->find_cancellable);
      g_free (self->error_text);
      self->error_text = g_strdup (error->message);
      cs_event_search_bar_update (self);
      goto out;
    }

  if (!found || row >= n_items)
    {
      /* Nothing after the selection: start over from the other end, once. */
      if (!closure->wrapped && closure->selected != GTK_INVALID_LIST_POSITION && n_items > 0)
        {
          closure->wrapped = TRUE;
          find_from (self, closure, G_MAXUINT64);
          return;
        }
      g_clear_object (&self->find_cancellable);
      self->not_found = TRUE;
      cs_event_search_bar_update (self);
      goto out;
    }

  g_clear_object (&self->find_cancellable);
  self->not_found = FALSE;
  self->match_row = (guint) row;
  self->match_is_last = FALSE;
  if (closure->forward && (closure->wrapped || closure->selected == GTK_INVALID_LIST_POSITION))
    self->match_ordinal = 1;
  else if (!closure->forward && (closure->wrapped || closure->selected == GTK_INVALID_LIST_POSITION))
    {
      self->match_ordinal = self->counted ? self->n_matches : 0;
      self->match_is_last = !self->counted;
    }
  else if (closure->previous_ordinal > 0)
    self->match_ordinal = closure->forward ? closure->previous_ordinal + 1 : closure->previous_ordinal - 1;
  else
    self->match_ordinal = 0;

  gtk_single_selection_set_selected (self->selection, (guint) row);
  cs_event_search_bar_update (self);

out:
  g_object_unref (closure->self);
  g_free (closure);
}

static void
find_from (CsEventSearchBar *self,
           FindClosure      *closure,
           guint64           from_row)
{
  CsEventList *model = cs_event_search_bar_get_model (self);

  cs_event_list_search_async (model,
                              gtk_drop_down_get_selected (self->column_dropdown),
                              gtk_drop_down_get_selected (self->mode_dropdown),
                              cs_event_search_bar_get_text (self),
                              from_row, closure->forward,
                              self->find_cancellable, find_done_cb, closure);
}

/**
 * cs_event_search_bar_find:
 * @self: a #CsEventSearchBar
 * @forward: %TRUE for the next match, %FALSE for the previous one
 *
 * Selects the next (or previous) row after (or before) the selected one
 * whose column matches, wrapping around the list once; without a selection
 * the search starts at the top (or bottom).  The search runs in the
 * background; #CsEventSearchBar:busy is set meanwhile.
 */
void
cs_event_search_bar_find (CsEventSearchBar *self,
                          gboolean          forward)
{
  CsEventList *model;
  FindClosure *closure;
  guint selected;
  guint64 from_row;

  g_return_if_fail (CS_IS_EVENT_SEARCH_BAR (self));

  model = cs_event_search_bar_get_model (self);
  if (model == NULL || !cs_event_list_get_ready (model) || *cs_event_search_bar_get_text (self) == '\0')
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (model)) == 0)
    return;

  /* A count that was stopped runs again along with this search. */
  if (self->count_cancellable == NULL && !self->counted && self->error_text == NULL)
    cs_event_search_bar_start_count (self);
  self->stopped = FALSE;

  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);
  self->find_cancellable = g_cancellable_new ();

  selected = gtk_single_selection_get_selected (self->selection);
  closure = g_new0 (FindClosure, 1);
  closure->self = g_object_ref (self);
  closure->serial = ++self->find_serial;
  closure->forward = forward;
  closure->selected = selected;
  closure->previous_ordinal = selected != GTK_INVALID_LIST_POSITION && selected == self->match_row
                              ? self->match_ordinal : 0;

  /* The list searches the rows after (before) @from_row, or from the first
   * (last) row with G_MAXUINT64. */
  from_row = selected != GTK_INVALID_LIST_POSITION ? selected : G_MAXUINT64;

  find_from (self, closure, from_row);
  cs_event_search_bar_update (self);
}

/**
 * cs_event_search_bar_get_stop_button:
 * @self: a #CsEventSearchBar
 *
 * Returns: (transfer none): the Stop button, visible with the spinner
 *   while a search or count runs (for tests)
 */
GtkWidget *
cs_event_search_bar_get_stop_button (CsEventSearchBar *self)
{
  g_return_val_if_fail (CS_IS_EVENT_SEARCH_BAR (self), NULL);
  return GTK_WIDGET (self->stop_button);
}

/**
 * cs_event_search_bar_stop:
 * @self: a #CsEventSearchBar
 *
 * Cancels the search and the count in progress.
 */
void
cs_event_search_bar_stop (CsEventSearchBar *self)
{
  g_return_if_fail (CS_IS_EVENT_SEARCH_BAR (self));

  if (self->find_cancellable == NULL && self->count_cancellable == NULL)
    return;

  cs_event_search_bar_cancel (self);
  self->stopped = TRUE;
  cs_event_search_bar_update (self);
}

/* ------------------------------------------------------------------------ */
/* Signals                                                                   */

static void
query_changed_cb (CsEventSearchBar *self)
{
  /* The entry reports a change some time after it happened: the query may
   * already be the one set (cs_event_search_bar_set_query()). */
  if (g_strcmp0 (self->query_text, cs_event_search_bar_get_text (self)) == 0 &&
      self->query_column == gtk_drop_down_get_selected (self->column_dropdown) &&
      self->query_mode == gtk_drop_down_get_selected (self->mode_dropdown))
    return;

  cs_event_search_bar_restart (self);
}

static void
next_cb (CsEventSearchBar *self)
{
  cs_event_search_bar_find (self, TRUE);
}

static void
previous_cb (CsEventSearchBar *self)
{
  cs_event_search_bar_find (self, FALSE);
}

static void
stop_cb (CsEventSearchBar *self)
{
  cs_event_search_bar_stop (self);
}

static gboolean
previous_shortcut_cb (GtkWidget *widget,
                      GVariant  *args,
                      gpointer   user_data)
{
  cs_event_search_bar_find (CS_EVENT_SEARCH_BAR (user_data), FALSE);
  return TRUE;
}

static void
search_mode_changed_cb (CsEventSearchBar *self)
{
  if (!gtk_search_bar_get_search_mode (self->search_bar))
    cs_event_search_bar_stop (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_MODE_ENABLED]);
}

static void
rows_changed_cb (CsEventSearchBar *self)
{
  /* Rows moved (a new filter): positions and counts are stale. */
  if (*cs_event_search_bar_get_text (self) != '\0')
    cs_event_search_bar_restart (self);
}

static void
selection_model_changed_cb (CsEventSearchBar *self)
{
  GListModel *model = gtk_single_selection_get_model (self->selection);

  if (model != NULL)
    {
      g_signal_connect_object (model, "items-changed", G_CALLBACK (rows_changed_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (model, "notify::ready", G_CALLBACK (rows_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }
  cs_event_search_bar_restart (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_event_search_bar_dispose (GObject *object)
{
  CsEventSearchBar *self = CS_EVENT_SEARCH_BAR (object);

  cs_event_search_bar_cancel (self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_EVENT_SEARCH_BAR);

  G_OBJECT_CLASS (cs_event_search_bar_parent_class)->dispose (object);
}

static void
cs_event_search_bar_finalize (GObject *object)
{
  CsEventSearchBar *self = CS_EVENT_SEARCH_BAR (object);

  g_free (self->error_text);
  g_free (self->match_text);
  g_free (self->query_text);

  G_OBJECT_CLASS (cs_event_search_bar_parent_class)->finalize (object);
}

static void
cs_event_search_bar_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  CsEventSearchBar *self = CS_EVENT_SEARCH_BAR (object);

  switch (prop_id)
    {
    case PROP_SEARCH_MODE_ENABLED:
      g_value_set_boolean (value, cs_event_search_bar_get_search_mode (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_MATCH_TEXT:
      g_value_set_string (value, cs_event_search_bar_get_match_text (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_event_search_bar_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  CsEventSearchBar *self = CS_EVENT_SEARCH_BAR (object);

  switch (prop_id)
    {
    case PROP_SEARCH_MODE_ENABLED:
      cs_event_search_bar_set_search_mode (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_event_search_bar_class_init (CsEventSearchBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_event_search_bar_dispose;
  object_class->finalize = cs_event_search_bar_finalize;
  object_class->get_property = cs_event_search_bar_get_property;
  object_class->set_property = cs_event_search_bar_set_property;

  /**
   * CsEventSearchBar:search-mode-enabled:
   *
   * Whether the bar is shown.
   */
  properties[PROP_SEARCH_MODE_ENABLED] =
    g_param_spec_boolean ("search-mode-enabled", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsEventSearchBar:busy:
   *
   * Whether a search or a count runs in the background.
   */
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsEventSearchBar:match-text:
   *
   * The counter: "12 of 340", "340 matches", "No matches", "Counting…",
   * or "" without a query.
   */
  properties[PROP_MATCH_TEXT] =
    g_param_spec_string ("match-text", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-event-search-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, search_bar);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, column_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, previous_button);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, next_button);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, match_label);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, spinner);
  gtk_widget_class_bind_template_child (widget_class, CsEventSearchBar, stop_button);

  gtk_widget_class_set_css_name (widget_class, "eventsearchbar");
}

static void
cs_event_search_bar_init (CsEventSearchBar *self)
{
  GtkEventController *controller;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->match_row = GTK_INVALID_LIST_POSITION;
  self->match_text = g_strdup ("");

  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));

  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (query_changed_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->search_entry, "next-match", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->search_entry, "previous-match", G_CALLBACK (previous_cb), self);
  g_signal_connect_swapped (self->column_dropdown, "notify::selected", G_CALLBACK (query_changed_cb), self);
  g_signal_connect_swapped (self->mode_dropdown, "notify::selected", G_CALLBACK (query_changed_cb), self);
  g_signal_connect_swapped (self->next_button, "clicked", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->previous_button, "clicked", G_CALLBACK (previous_cb), self);
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (stop_cb), self);
  g_signal_connect_swapped (self->search_bar, "notify::search-mode-enabled",
                            G_CALLBACK (search_mode_changed_cb), self);

  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                                          gtk_callback_action_new (previous_shortcut_cb, self, NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_SHIFT_MASK),
                                                          gtk_callback_action_new (previous_shortcut_cb, self, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), controller);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_event_search_bar_new:
 *
 * Returns: (transfer floating): a hidden search bar
 */
GtkWidget *
cs_event_search_bar_new (void)
{
  return g_object_new (CS_TYPE_EVENT_SEARCH_BAR, NULL);
}

/**
 * cs_event_search_bar_set_selection:
 * @self: a #CsEventSearchBar
 * @selection: the list's selection, whose model is a #CsEventList: searches
 *   start from its selected row and select what they find
 */
void
cs_event_search_bar_set_selection (CsEventSearchBar   *self,
                                   GtkSingleSelection *selection)
{
  g_return_if_fail (CS_IS_EVENT_SEARCH_BAR (self));
  g_return_if_fail (selection == NULL || GTK_IS_SINGLE_SELECTION (selection));

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_set_object (&self->selection, selection);
  if (selection != NULL)
    {
      g_signal_connect_swapped (selection, "notify::model", G_CALLBACK (selection_model_changed_cb), self);
      g_signal_connect_swapped (selection, "notify::selected", G_CALLBACK (cs_event_search_bar_update), self);
    }

  cs_event_search_bar_restart (self);
}

/**
 * cs_event_search_bar_get_search_mode:
 * @self: a #CsEventSearchBar
 *
 * Returns: whether the bar is shown
 */
gboolean
cs_event_search_bar_get_search_mode (CsEventSearchBar *self)
{
  g_return_val_if_fail (CS_IS_EVENT_SEARCH_BAR (self), FALSE);

  return gtk_search_bar_get_search_mode (self->search_bar);
}

/**
 * cs_event_search_bar_set_search_mode:
 * @self: a #CsEventSearchBar
 * @search_mode: whether to show the bar; showing it focuses the text
 */
void
cs_event_search_bar_set_search_mode (CsEventSearchBar *self,
                                     gboolean          search_mode)
{
  g_return_if_fail (CS_IS_EVENT_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, search_mode);
  if (search_mode)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/**
 * cs_event_search_bar_set_query:
 * @self: a #CsEventSearchBar
 * @column: the column to search
 * @mode: how its text must match
 * @text: the text; "" clears the search
 *
 * Sets what to search for, as the bar's drop-downs and entry do, and starts
 * counting the matches.
 */
void
cs_event_search_bar_set_query (CsEventSearchBar *self,
                               CsEventColumn     column,
                               CsSearchMode      mode,
                               const char       *text)
{
  g_return_if_fail (CS_IS_EVENT_SEARCH_BAR (self));
  g_return_if_fail (column < CS_N_COLUMNS);
  g_return_if_fail (text != NULL);

  g_signal_handlers_block_by_func (self->column_dropdown, query_changed_cb, self);
  g_signal_handlers_block_by_func (self->mode_dropdown, query_changed_cb, self);
  gtk_drop_down_set_selected (self->column_dropdown, column);
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  g_signal_handlers_unblock_by_func (self->column_dropdown, query_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->mode_dropdown, query_changed_cb, self);

  /* The entry's delayed "search-changed" then finds this query current. */
  cs_event_search_bar_restart (self);
}

/**
 * cs_event_search_bar_get_busy:
 * @self: a #CsEventSearchBar
 *
 * Returns: whether a search or count runs
 */
gboolean
cs_event_search_bar_get_busy (CsEventSearchBar *self)
{
  g_return_val_if_fail (CS_IS_EVENT_SEARCH_BAR (self), FALSE);

  return self->busy;
}

/**
 * cs_event_search_bar_get_match_text:
 * @self: a #CsEventSearchBar
 *
 * Returns: (transfer none): the counter's text, see
 *   #CsEventSearchBar:match-text
 */
const char *
cs_event_search_bar_get_match_text (CsEventSearchBar *self)
{
  g_return_val_if_fail (CS_IS_EVENT_SEARCH_BAR (self), "");

  return self->match_text;
}
