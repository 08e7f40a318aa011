/* cs-event-menu.h: the context menu of an event, task or CPU, shared by the
 * timeline and the event list, and the event's field dialog.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-document.h"

G_BEGIN_DECLS

/**
 * CsEventMenuTarget:
 * @has_event: whether @event is valid: the menu offers the event type and
 *   its fields
 * @event: the event under the pointer
 * @has_task: whether @pid is valid
 * @pid: the task (for an event, its common_pid; on a CPU plot without an
 *   event, the task that ran there)
 * @has_cpu: whether @cpu is valid
 * @cpu: the CPU
 * @stream_path: (nullable): in a window of several recordings, the path of
 *   the recording clicked (the stream filter)
 * @stream_name: (nullable): its name, for the menu's labels
 * @source: (nullable): the recording @event and @pid belong to when it is
 *   not the window's own (another stream's row): names and raw fields
 *   are read from it, the event type is offered as a filter under the
 *   window's id of the same "system:name", and task plots are left out
 *
 * What a right-click landed on.
 */
typedef struct {
  gboolean has_event;
  CsEvent event;
  gboolean has_task;
  gint32 pid;
  gboolean has_cpu;
  guint cpu;
  const char *stream_path;
  const char *stream_name;
  CsDocument *source;
} CsEventMenuTarget;

GMenuModel *cs_event_menu_build       (CsDocument              *document,
                                       const CsEventMenuTarget *target);
void        cs_event_menu_popup       (GtkWidget              **popover,
                                       GtkWidget               *parent,
                                       CsDocument              *document,
                                       const CsEventMenuTarget *target,
                                       double                   x_px,
                                       double                   y_px);
GtkWindow  *cs_event_fields_show      (GtkWidget               *parent,
                                       CsDocument              *document,
                                       const CsEvent           *event);

G_END_DECLS
