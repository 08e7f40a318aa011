/* cs-event-list-view.c: the event list under the timeline.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A GtkColumnView over a GtkSingleSelection of a CsEventList, with
 * KernelShark's columns: #, CPU, Time, Task, PID, Latency, Event and Info.
 * The list model makes a CsEventItem only for the rows the view shows, so
 * the list of a recording of 80 M events costs what 40 visible rows cost;
 * nothing here iterates the model.  Each cell is a single GtkLabel, bound
 * and rebound as rows scroll past (the columns and their cells are in
 * cs-event-list-columns.c).
 *
 * Selecting a row (by click, keyboard, search or cs_event_list_view_select_row())
 * scrolls the list to it and notifies #CsEventListView:selected-row; the
 * window moves the timeline's active marker there when
 * #CsEventListView:graph-follows is set.
 *
 * Scrolling to a row: GTK 4.8 has no gtk_column_view_scroll_to() (4.12).
 * The column view's rows are a GtkListView child whose "list.scroll-to-item"
 * action (the one a focused row uses to bring itself into view) anchors the
 * layout on any position, so it is immediate at any row count.  Actions
 * resolve upwards from a widget, so it is activated on that child rather
 * than on the column view.  A row out of sight is centred by scrolling to
 * the row half a page beyond it, and focused after the next frame (so that
 * arrow keys go on from it).  Two GTK 4.8 quirks shape the rest: a model
 * that went to zero rows and back is laid out with only its first row
 * until it is set again, and a jump asked before a new model is laid out
 * does the same; so the model is set again once a filter is applied, and
 * jumps wait for a frame after a model change.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cs-event-list-view-private.h"
#include "cs-event-menu.h"
#include "cs-format.h"

typedef enum {
  PENDING_SETTLE,   /* a new model: let the list lay it out first */
  PENDING_SCROLL,   /* then scroll to the pending row */
  PENDING_FOCUS,    /* scrolled: focus the row */
} PendingStep;

struct _CsEventListView
{
  GtkWidget parent_instance;

  /* template widgets */
  GtkWidget *toolbar;
  GtkLabel *count_label;
  GtkProgressBar *progress_bar;
  GtkCheckButton *follow_button;
  GtkToggleButton *search_button;
  CsEventSearchBar *search_bar;
  GtkScrolledWindow *scrolled_window;
  GtkColumnView *column_view;

  /* owned */
  GtkSingleSelection *selection;
  CsEventList *model;
  GtkWidget *context_menu;
  guint reattach_idle;
  gboolean refilter_selected;           /* refilter_event to select again */
  CsEvent refilter_event;
  CsStream *refilter_stream;            /* its stream in a merged list */
  GtkColumnViewColumn *details;         /* the column view's */
  GtkColumnViewColumn *stream_column;   /* the column view's */
  CsEventListDetails details_source;    /* what the "Plugins" column reads */

  /* a row scrolled to, focused after the next frame */
  gboolean layout_pending;
  PendingStep pending_step;
  guint pending_row;
  GdkFrameClock *pending_clock;
  guint unsized_frames;         /* frames waited for rows with a height */
};

G_DEFINE_FINAL_TYPE (CsEventListView, cs_event_list_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_SELECTED_ROW,
  PROP_GRAPH_FOLLOWS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------ */
/* Columns (their cells are in cs-event-list-columns.c)                      */

/**
 * cs_event_list_view_set_details_func:
 * @self: a #CsEventListView
 * @func: (nullable): what to say of a row (plugins' details); %NULL hides
 *   the column
 * @user_data: its closure
 *
 * Shows a last column, "Plugins", filled by @func for each row as it is
 * shown.  Calling it again (even with the same function) fills the rows
 * on screen again, for details that changed.
 */
void
cs_event_list_view_set_details_func (CsEventListView    *self,
                                     CsEventDetailsFunc  func,
                                     gpointer            user_data)
{
  g_return_if_fail (CS_IS_EVENT_LIST_VIEW (self));

  self->details_source.func = func;
  self->details_source.user_data = user_data;
  /* Hiding and showing binds the column's cells again. */
  gtk_column_view_column_set_visible (self->details, FALSE);
  gtk_column_view_column_set_visible (self->details, func != NULL);
}

/* ------------------------------------------------------------------------ */
/* Selection and scrolling                                                   */

static GtkWidget *
cs_event_list_view_get_rows_widget (CsEventListView *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;

  return NULL;
}

/* Rows are one line each, so all equally tall; 0 before any is laid out. */
static int
cs_event_list_view_get_row_height (CsEventListView *self)
{
  GtkWidget *rows = cs_event_list_view_get_rows_widget (self);

  for (GtkWidget *row = rows != NULL ? gtk_widget_get_first_child (rows) : NULL;
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_mapped (row) && gtk_widget_get_height (row) > 0)
      return gtk_widget_get_height (row);

  return 0;
}

/* "list.scroll-to-item" on a row in view does not scroll: it moves the
 * list's keyboard focus to the row, so that arrow keys go on from it
 * rather than from the row focused before. */
static void
cs_event_list_view_focus_row (CsEventListView *self)
{
  GtkWidget *rows = cs_event_list_view_get_rows_widget (self);

  if (rows == NULL || self->model == NULL ||
      self->pending_row >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return;

  gtk_widget_activate_action (rows, "list.scroll-to-item", "u", self->pending_row);
}

static void after_paint_cb (GdkFrameClock   *clock,
                            CsEventListView *self);

static void
cs_event_list_view_stop_waiting (CsEventListView *self)
{
  /* By function: a clock disposed with its surface has no handlers left. */
  if (self->pending_clock != NULL)
    g_signal_handlers_disconnect_by_func (self->pending_clock, after_paint_cb, self);
  g_clear_object (&self->pending_clock);
}

/* Goes on with the pending row after the next frame has been laid out. */
static void
cs_event_list_view_wait_frame (CsEventListView *self,
                               GdkFrameClock   *clock,
                               PendingStep      step)
{
  self->pending_step = step;
  if (self->pending_clock == NULL)
    {
      self->pending_clock = g_object_ref (clock);
      g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), self);
    }
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
}

#define MAX_UNSIZED_FRAMES 30

/* Whether @row lies wholly within the page at @value; TRUE when the list
 * has no row or page with a height yet (nothing to tell by). */
static gboolean
row_in_page (guint  row,
             int    row_height,
             double value,
             double page)
{
  return row_height <= 0 || page <= 0 ||
         ((double) row * row_height >= value && (double) (row + 1) * row_height <= value + page);
}

static void
cs_event_list_view_scroll_to_row (CsEventListView *self,
                                  guint            row)
{
  GtkWidget *rows = cs_event_list_view_get_rows_widget (self);
  GtkAdjustment *adjustment;
  GdkFrameClock *clock;
  double value, page;
  int row_height;
  guint n_items, half_page, target;

  if (self->model == NULL || rows == NULL)
    return;
  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (row >= n_items)
    return;

  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  row_height = cs_event_list_view_get_row_height (self);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  self->pending_row = row;

  /* A model the list view has not laid out yet: GTK 4.8 asked to scroll
   * then may lay out only one row, and leave the rest blank. */
  if (clock != NULL && self->layout_pending)
    {
      cs_event_list_view_wait_frame (self, clock, PENDING_SCROLL);
      return;
    }

  /* Shown, but no row or page with a height yet: there is nothing to
   * scroll by, so look again after a frame rather than take the row as in
   * view (the likeliest way a live picture's list stayed at the top with
   * its selected row out of sight, three times in sanitized CI runs on a
   * loaded machine), a few frames at most (a list kept at zero height must
   * not wake every frame). */
  if (clock != NULL && (row_height <= 0 || page <= 0) && self->unsized_frames < MAX_UNSIZED_FRAMES)
    {
      self->unsized_frames++;
      cs_event_list_view_wait_frame (self, clock, PENDING_SCROLL);
      return;
    }
  self->unsized_frames = 0;

  if (clock == NULL || row_in_page (row, row_height, value, page))
    {
      /* In view (or not shown yet): no need to move, only to focus. */
      cs_event_list_view_stop_waiting (self);
      cs_event_list_view_focus_row (self);
      return;
    }

  /* A row out of sight comes to the middle, with its neighbours around it:
   * bring the row half a page beyond it to the edge it comes from.  By
   * position, not pixels: the list view anchors its layout on that row, so
   * this costs the same for row 10 and row 80 million, and does not depend
   * on its estimate of the height of rows it never laid out (wrong for a
   * while after a filter changed the model, in GTK 4.8). */
  half_page = (guint) (page / row_height / 2);
  if ((double) row * row_height >= value)
    target = row + MIN (half_page, n_items - 1 - row);
  else
    target = row - MIN (half_page, row);
  gtk_widget_activate_action (rows, "list.scroll-to-item", "u", target);

  /* Focus the row once it is laid out: before that, the action would
   * scroll again, to an edge. */
  cs_event_list_view_wait_frame (self, clock, PENDING_FOCUS);
}

static void
after_paint_cb (GdkFrameClock   *clock,
                CsEventListView *self)
{
  PendingStep step = self->pending_step;

  cs_event_list_view_stop_waiting (self);
  self->layout_pending = FALSE;
  if (step == PENDING_SCROLL)
    cs_event_list_view_scroll_to_row (self, self->pending_row);
  else if (step == PENDING_FOCUS)
    cs_event_list_view_focus_row (self);
}

/* The selection has a new model: scrolling waits until it is laid out. */
static void
cs_event_list_view_model_changed (CsEventListView *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  self->layout_pending = clock != NULL;
  if (clock != NULL)
    cs_event_list_view_wait_frame (self, clock, PENDING_SETTLE);
}

static void
selected_changed_cb (CsEventListView *self)
{
  guint row = gtk_single_selection_get_selected (self->selection);

  if (row != GTK_INVALID_LIST_POSITION)
    cs_event_list_view_scroll_to_row (self, row);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

/* ------------------------------------------------------------------------ */
/* A new filter                                                              */

/* GTK 4.8's list view, told that all rows went away and then that the new
 * ones arrived (as CsEventList says when a filter is applied), sometimes
 * lays out only the first new row and leaves the rest of the list blank.
 * Given the list again as a new model, it lays it out as on opening. */
static gboolean
reattach_model_cb (gpointer user_data)
{
  CsEventListView *self = CS_EVENT_LIST_VIEW (user_data);
  guint selected = gtk_single_selection_get_selected (self->selection);

  self->reattach_idle = 0;
  if (self->model == NULL || !cs_event_list_get_ready (self->model))
    return G_SOURCE_REMOVE;

  g_signal_handlers_block_by_func (self->selection, selected_changed_cb, self);
  gtk_single_selection_set_model (self->selection, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->model));
  cs_event_list_view_model_changed (self);
  gtk_single_selection_set_selected (self->selection, selected);
  g_signal_handlers_unblock_by_func (self->selection, selected_changed_cb, self);
  /* The event selected before the filter changed stays selected (or the
   * row at its time, when the filter hides it). */
  if (self->refilter_selected)
    {
      self->refilter_selected = FALSE;
      if (self->refilter_stream != NULL
          ? cs_event_list_view_select_stream_event (self, self->refilter_stream, &self->refilter_event)
          : cs_event_list_view_select_event (self, &self->refilter_event))
        return G_SOURCE_REMOVE;
    }
  if (gtk_single_selection_get_selected (self->selection) != selected)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
  else if (selected != GTK_INVALID_LIST_POSITION)
    cs_event_list_view_scroll_to_row (self, selected);

  return G_SOURCE_REMOVE;
}

static void
ready_changed_cb (CsEventListView *self)
{
  CsEventItem *item = gtk_single_selection_get_selected_item (self->selection);

  /* A new filter: "ready" changes before the old rows go, taking the
   * selection with them. */
  if (item != NULL && !self->refilter_selected)
    {
      self->refilter_event = *cs_event_item_get_event (item);
      g_set_object (&self->refilter_stream, cs_event_item_get_stream (item));
      self->refilter_selected = TRUE;
    }
  /* In an idle: after the list's own items-changed, which follows this
   * notification. */
  if (cs_event_list_get_ready (self->model) && self->reattach_idle == 0)
    self->reattach_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, reattach_model_cb, self, NULL);
}

/* ------------------------------------------------------------------------ */
/* The toolbar                                                               */

static void
cs_event_list_view_update_count (CsEventListView *self)
{
  g_autofree char *count = NULL;
  g_autofree char *text = NULL;
  CsDocument *document;
  CsEventFilter *filter;
  guint64 n_events, n_total;

  if (self->model == NULL)
    {
      gtk_label_set_label (self->count_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
      return;
    }

  document = cs_event_list_get_document (self->model);
  filter = cs_event_list_get_filter (self->model);
  n_events = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  n_total = cs_document_get_n_events (document);
  if (cs_event_list_get_stream_set (self->model) != NULL)
    {
      CsStreamSet *set = cs_event_list_get_stream_set (self->model);

      /* all the window's recordings, hidden ones too */
      n_total = 0;
      for (guint i = 0; i < cs_stream_set_get_n_streams (set); i++)
        n_total += cs_document_get_n_events (cs_stream_get_document (cs_stream_set_get_stream (set, i)));
    }
  count = cs_format_count (n_events);

  if (!cs_event_list_get_ready (self->model))
    {
      /* TRANSLATORS: shown while a filter is applied to the list */
      text = g_strdup (_("Filtering…"));
    }
  else if (filter != NULL && !cs_event_filter_is_empty (filter))
    {
      g_autofree char *total = cs_format_count (n_total);

      /* TRANSLATORS: "1,234 of 2,512 events", with a filter */
      text = g_strdup_printf (ngettext ("%s of %s event", "%s of %s events", (gulong) n_total),
                              count, total);
    }
  else
    {
      text = g_strdup_printf (ngettext ("%s event", "%s events", (gulong) n_events), count);
    }

  gtk_label_set_label (self->count_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), !cs_event_list_get_ready (self->model));
  gtk_progress_bar_set_fraction (self->progress_bar, cs_event_list_get_progress (self->model));
}

/* ------------------------------------------------------------------------ */
/* Context menu                                                              */

/**
 * cs_event_list_view_popup_menu_at_row:
 * @self: a #CsEventListView
 * @row: a row of the list
 * @x_px: where to point, in @self's coordinates
 * @y_px: where to point, in @self's coordinates
 *
 * Selects @row and shows its context menu (filters by its task, event type
 * and CPU, its task plot, its raw fields), as a right-click on it does.
 */
void
cs_event_list_view_popup_menu_at_row (CsEventListView *self,
                                      guint            row,
                                      double           x_px,
                                      double           y_px)
{
  g_autoptr(CsEventItem) item = NULL;
  CsEventMenuTarget target = { 0 };

  g_return_if_fail (CS_IS_EVENT_LIST_VIEW (self));

  if (self->model == NULL || row >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return;

  gtk_single_selection_set_selected (self->selection, row);
  item = g_list_model_get_item (G_LIST_MODEL (self->model), row);
  if (item == NULL)
    return;

  target.has_event = TRUE;
  target.event = *cs_event_item_get_event (item);
  target.has_task = TRUE;
  target.pid = target.event.pid;
  target.has_cpu = TRUE;
  target.cpu = target.event.cpu;
  if (cs_event_item_get_stream (item) != NULL)
    {
      /* the stream as a filter dimension */
      target.stream_path = cs_stream_get_path (cs_event_item_get_stream (item));
      target.stream_name = cs_stream_get_name (cs_event_item_get_stream (item));
    }
  if (cs_event_item_get_document (item) != cs_event_list_get_document (self->model))
    {
      /* Another stream's event: names and raw fields from its own
       * recording, its type as a filter of the same "system:name". */
      target.source = cs_event_item_get_document (item);
    }

  cs_event_menu_popup (&self->context_menu, GTK_WIDGET (self),
                       cs_event_list_get_document (self->model), &target, x_px, y_px);
}

static void
context_click_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  CsEventListView *self)
{
  guint row = _cs_event_list_columns_pick_row (self->column_view, x, y);
  double view_x, view_y;

  if (row == 0)
    return;

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  if (!gtk_widget_translate_coordinates (GTK_WIDGET (self->column_view), GTK_WIDGET (self),
                                         x, y, &view_x, &view_y))
    view_x = x, view_y = y;
  cs_event_list_view_popup_menu_at_row (self, row - 1, view_x, view_y);
}

/* ------------------------------------------------------------------------ */
/* Search shortcut                                                           */

static gboolean
start_search_cb (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  CsEventListView *self = CS_EVENT_LIST_VIEW (user_data);

  if (self->model == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;

  cs_event_search_bar_set_search_mode (self->search_bar, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void
cs_event_list_view_dispose (GObject *object)
{
  CsEventListView *self = CS_EVENT_LIST_VIEW (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  cs_event_list_view_stop_waiting (self);
  g_clear_handle_id (&self->reattach_idle, g_source_remove);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  self->details_source.document = NULL;
  g_clear_object (&self->refilter_stream);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_EVENT_LIST_VIEW);

  G_OBJECT_CLASS (cs_event_list_view_parent_class)->dispose (object);
}

static void
cs_event_list_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  CsEventListView *self = CS_EVENT_LIST_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_SELECTED_ROW:
      g_value_set_uint (value, cs_event_list_view_get_selected_row (self));
      break;
    case PROP_GRAPH_FOLLOWS:
      g_value_set_boolean (value, cs_event_list_view_get_graph_follows (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_event_list_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  CsEventListView *self = CS_EVENT_LIST_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      cs_event_list_view_set_model (self, g_value_get_object (value));
      break;
    case PROP_SELECTED_ROW:
      cs_event_list_view_select_row (self, g_value_get_uint (value));
      break;
    case PROP_GRAPH_FOLLOWS:
      cs_event_list_view_set_graph_follows (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
follow_toggled_cb (CsEventListView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GRAPH_FOLLOWS]);
}

static void
cs_event_list_view_class_init (CsEventListViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_event_list_view_dispose;
  object_class->get_property = cs_event_list_view_get_property;
  object_class->set_property = cs_event_list_view_set_property;

  /**
   * CsEventListView:model:
   *
   * The events listed, in time order, possibly filtered.
   */
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, CS_TYPE_EVENT_LIST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsEventListView:selected-row:
   *
   * The selected row of the model, or %GTK_INVALID_LIST_POSITION.
   */
  properties[PROP_SELECTED_ROW] =
    g_param_spec_uint ("selected-row", NULL, NULL, 0, G_MAXUINT, GTK_INVALID_LIST_POSITION,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * CsEventListView:graph-follows:
   *
   * Whether selecting a row should move the timeline's active marker to the
   * event and show it (KernelShark's "Graph follows").  The view only
   * shows the switch; the window acts on it.
   */
  properties[PROP_GRAPH_FOLLOWS] =
    g_param_spec_boolean ("graph-follows", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CS_TYPE_EVENT_SEARCH_BAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/chronoscope/Chronoscope/cs-event-list-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, toolbar);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, count_label);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, follow_button);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, search_button);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, search_bar);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, scrolled_window);
  gtk_widget_class_bind_template_child (widget_class, CsEventListView, column_view);

  gtk_widget_class_set_css_name (widget_class, "eventlist");

}

static void
cs_event_list_view_init (CsEventListView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected",
                            G_CALLBACK (selected_changed_cb), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  cs_event_search_bar_set_selection (self->search_bar, self->selection);

  self->details = _cs_event_list_columns_add (self->column_view, &self->details_source);
  self->stream_column = _cs_event_list_columns_find (self->column_view, CS_COLUMN_STREAM);
  gtk_column_view_column_set_visible (self->stream_column, FALSE);

  g_signal_connect_swapped (self->follow_button, "notify::active",
                            G_CALLBACK (follow_toggled_cb), self);
  g_object_bind_property (self->search_button, "active",
                          self->search_bar, "search-mode-enabled",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (context_click_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (gesture));

  /* Ctrl+F anywhere in the window opens the search (global scope: the
   * window's shortcut manager handles it wherever the focus is). */
  controller = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_f, GDK_CONTROL_MASK),
                                                          gtk_callback_action_new (start_search_cb, self, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  cs_event_list_view_update_count (self);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

/**
 * cs_event_list_view_new:
 *
 * Returns: (transfer floating): an empty event list
 */
GtkWidget *
cs_event_list_view_new (void)
{
  return g_object_new (CS_TYPE_EVENT_LIST_VIEW, NULL);
}

/**
 * cs_event_list_view_get_model:
 * @self: a #CsEventListView
 *
 * Returns: (transfer none) (nullable): the events listed
 */
CsEventList *
cs_event_list_view_get_model (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), NULL);

  return self->model;
}

/**
 * cs_event_list_view_set_model:
 * @self: a #CsEventListView
 * @model: (nullable): the events to list
 *
 * Lists @model, with nothing selected and the search reset.
 */
void
cs_event_list_view_set_model (CsEventListView *self,
                              CsEventList     *model)
{
  g_return_if_fail (CS_IS_EVENT_LIST_VIEW (self));
  g_return_if_fail (model == NULL || CS_IS_EVENT_LIST (model));

  if (self->model == model)
    return;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, model);
  self->details_source.document = model != NULL ? cs_event_list_get_document (model) : NULL;
  self->refilter_selected = FALSE;
  /* the Stream column when the list merges several recordings */
  gtk_column_view_column_set_visible (self->stream_column,
                                      model != NULL && cs_event_list_get_stream_set (model) != NULL &&
                                      cs_stream_set_get_n_streams (cs_event_list_get_stream_set (model)) > 1);

  if (model != NULL)
    {
      g_signal_connect_object (model, "items-changed",
                               G_CALLBACK (cs_event_list_view_update_count), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (model, "notify::ready",
                               G_CALLBACK (cs_event_list_view_update_count), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (model, "notify::ready",
                               G_CALLBACK (ready_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (model, "notify::progress",
                               G_CALLBACK (cs_event_list_view_update_count), self, G_CONNECT_SWAPPED);
    }

  /* The old rows go first, the new ones come after: told that one model's
   * rows became the other's, GTK 4.8's list looks for the rows it showed
   * among the new ones, reading them one by one (every row of a live
   * picture, seconds of the main thread). */
  gtk_single_selection_set_model (self->selection, NULL);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (model));
  cs_event_list_view_model_changed (self);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  cs_event_search_bar_stop (self->search_bar);
  cs_event_list_view_update_count (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * cs_event_list_view_get_selected_row:
 * @self: a #CsEventListView
 *
 * Returns: the selected row, or %GTK_INVALID_LIST_POSITION
 */
guint
cs_event_list_view_get_selected_row (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), GTK_INVALID_LIST_POSITION);

  return gtk_single_selection_get_selected (self->selection);
}

/**
 * cs_event_list_view_get_selected_item:
 * @self: a #CsEventListView
 *
 * Returns: (transfer none) (nullable): the selected event
 */
CsEventItem *
cs_event_list_view_get_selected_item (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), NULL);

  return gtk_single_selection_get_selected_item (self->selection);
}

/**
 * cs_event_list_view_row_in_view:
 * @self: a #CsEventListView
 * @row: a row of its model
 *
 * Returns: whether @row lies wholly within the list's page, by the rule
 *   scrolling to a row follows (a row in view is not scrolled to); %TRUE
 *   while no row or page has a height yet (nothing to tell by)
 */
gboolean
cs_event_list_view_row_in_view (CsEventListView *self,
                                guint            row)
{
  GtkAdjustment *adjustment;

  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), TRUE);

  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  return row_in_page (row, cs_event_list_view_get_row_height (self),
                      gtk_adjustment_get_value (adjustment),
                      gtk_adjustment_get_page_size (adjustment));
}

/**
 * cs_event_list_view_select_row:
 * @self: a #CsEventListView
 * @row: a row, or %GTK_INVALID_LIST_POSITION to select nothing
 *
 * Selects @row and scrolls the list to show it.
 */
void
cs_event_list_view_select_row (CsEventListView *self,
                               guint            row)
{
  g_return_if_fail (CS_IS_EVENT_LIST_VIEW (self));

  if (row == gtk_single_selection_get_selected (self->selection))
    {
      if (row != GTK_INVALID_LIST_POSITION)
        cs_event_list_view_scroll_to_row (self, row);
      return;
    }

  gtk_single_selection_set_selected (self->selection, row);
}

/**
 * cs_event_list_view_select_event:
 * @self: a #CsEventListView
 * @event: an event of the list's recording
 *
 * Selects the row of @event (cs_event_list_find_row()) and scrolls to it.
 * When a filter hides @event, the row at or after its time is selected
 * instead.
 *
 * Returns: whether a row was selected
 */
gboolean
cs_event_list_view_select_event (CsEventListView *self,
                                 const CsEvent   *event)
{
  g_autoptr(GError) error = NULL;
  guint64 row = 0;

  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (self->model == NULL || !cs_event_list_get_ready (self->model))
    return FALSE;

  if (!cs_event_list_find_row (self->model, event, &row, &error))
    {
      if (error != NULL)
        {
          g_message ("Cannot find the event in the list: %s", error->message);
          return FALSE;
        }
      if (!cs_event_list_find_row_at_time (self->model, event->ts_ns, &row, &error))
        {
          if (error != NULL)
            g_message ("Cannot find a row at %" G_GINT64_FORMAT ": %s", event->ts_ns, error->message);
          return FALSE;
        }
    }

  if (row >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return FALSE;

  cs_event_list_view_select_row (self, (guint) row);
  return TRUE;
}

/**
 * cs_event_list_view_select_stream_event:
 * @self: a #CsEventListView
 * @stream: (nullable): the stream @event is in, in a list of several
 *   recordings; %NULL for the window's own recording
 * @event: an event of that stream's recording
 *
 * As cs_event_list_view_select_event(), for an event of any stream of a
 * merged list.  When the event is not listed (filtered out, its stream
 * hidden), nothing is selected.
 *
 * Returns: whether a row was selected
 */
gboolean
cs_event_list_view_select_stream_event (CsEventListView *self,
                                        CsStream        *stream,
                                        const CsEvent   *event)
{
  g_autoptr(GError) error = NULL;
  guint64 row = 0;

  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  if (stream == NULL)
    return cs_event_list_view_select_event (self, event);
  if (self->model == NULL || !cs_event_list_get_ready (self->model))
    return FALSE;
  if (!cs_event_list_find_stream_row (self->model, stream, event, &row, &error))
    {
      if (error != NULL)
        g_message ("Cannot find the event in the list: %s", error->message);
      return FALSE;
    }
  if (row >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return FALSE;
  cs_event_list_view_select_row (self, (guint) row);
  return TRUE;
}

/**
 * cs_event_list_view_get_graph_follows:
 * @self: a #CsEventListView
 *
 * Returns: whether selecting a row should move the timeline's marker
 */
gboolean
cs_event_list_view_get_graph_follows (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), FALSE);

  return gtk_check_button_get_active (self->follow_button);
}

/**
 * cs_event_list_view_set_graph_follows:
 * @self: a #CsEventListView
 * @graph_follows: whether selecting a row should move the timeline's marker
 */
void
cs_event_list_view_set_graph_follows (CsEventListView *self,
                                      gboolean         graph_follows)
{
  g_return_if_fail (CS_IS_EVENT_LIST_VIEW (self));

  /* The button notifies, and follow_toggled_cb() passes it on. */
  gtk_check_button_set_active (self->follow_button, graph_follows);
}

/**
 * cs_event_list_view_get_search_bar:
 * @self: a #CsEventListView
 *
 * Returns: (transfer none): the list's search bar
 */
CsEventSearchBar *
cs_event_list_view_get_search_bar (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), NULL);

  return self->search_bar;
}

/**
 * cs_event_list_view_get_column_view:
 * @self: a #CsEventListView
 *
 * Returns: (transfer none): the column view, for its geometry in tests
 */
GtkColumnView *
cs_event_list_view_get_column_view (CsEventListView *self)
{
  g_return_val_if_fail (CS_IS_EVENT_LIST_VIEW (self), NULL);

  return self->column_view;
}
