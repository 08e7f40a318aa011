/* cs-event-filter.h: which events a view shows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A filter combines sets of CPUs, tasks (pids) and event types, each either
 * "show only these" or "hide these", with an optional advanced expression in
 * libtraceevent's filter syntax (the syntax of tracefs's events/.../filter
 * files and of `trace-cmd report -F`), for example
 * `sched/sched_switch: prev_prio < 100 && next_pid != 0`.  A filter is a
 * value: views copy it and compare with cs_event_filter_equal().
 */
#pragma once

#include <glib-object.h>

#include "cs-document.h"

G_BEGIN_DECLS

/**
 * CsFilterMode:
 * @CS_FILTER_ALL: the set is not used: everything passes
 * @CS_FILTER_SHOW_ONLY: only members of the set pass
 * @CS_FILTER_HIDE: members of the set do not pass
 */
typedef enum {
  CS_FILTER_ALL,
  CS_FILTER_SHOW_ONLY,
  CS_FILTER_HIDE,
} CsFilterMode;

/**
 * CsFilterField:
 * @CS_FILTER_CPU: the CPU whose ring buffer held the event
 * @CS_FILTER_PID: the task in whose context it was recorded (common_pid)
 * @CS_FILTER_TYPE: its event type (#CsEventType id)
 */
typedef enum {
  CS_FILTER_CPU,
  CS_FILTER_PID,
  CS_FILTER_TYPE,
  CS_FILTER_N_FIELDS,
} CsFilterField;

#define CS_TYPE_EVENT_FILTER (cs_event_filter_get_type ())
G_DECLARE_FINAL_TYPE (CsEventFilter, cs_event_filter, CS, EVENT_FILTER, GObject)

CsEventFilter *cs_event_filter_new            (void);
CsEventFilter *cs_event_filter_copy           (CsEventFilter *self);
gboolean       cs_event_filter_equal          (CsEventFilter *a,
                                               CsEventFilter *b);
gboolean       cs_event_filter_is_empty       (CsEventFilter *self);
void           cs_event_filter_clear          (CsEventFilter *self);

CsFilterMode   cs_event_filter_get_mode       (CsEventFilter *self,
                                               CsFilterField  field);
void           cs_event_filter_set_mode       (CsEventFilter *self,
                                               CsFilterField  field,
                                               CsFilterMode   mode);
void           cs_event_filter_add            (CsEventFilter *self,
                                               CsFilterField  field,
                                               gint64         value);
void           cs_event_filter_remove         (CsEventFilter *self,
                                               CsFilterField  field,
                                               gint64         value);
gboolean       cs_event_filter_contains       (CsEventFilter *self,
                                               CsFilterField  field,
                                               gint64         value);
GArray        *cs_event_filter_dup_values     (CsEventFilter *self,
                                               CsFilterField  field);

gboolean       cs_event_filter_set_expression (CsEventFilter *self,
                                               CsDocument    *document,
                                               const char    *expression,
                                               GError       **error);
const char    *cs_event_filter_get_expression (CsEventFilter *self);

gboolean       cs_event_filter_matches_event  (CsEventFilter *self,
                                               const CsEvent *event);

void           cs_event_filter_set_stream_mode (CsEventFilter *self,
                                               CsFilterMode   mode);
CsFilterMode   cs_event_filter_get_stream_mode (CsEventFilter *self);
void           cs_event_filter_add_stream     (CsEventFilter *self,
                                               const char    *trace_path);
GStrv          cs_event_filter_dup_streams    (CsEventFilter *self);
void           cs_event_filter_clear_streams  (CsEventFilter *self);
gboolean       cs_event_filter_passes_stream  (CsEventFilter *self,
                                               const char    *trace_path);
CsEventFilter *cs_event_filter_translate      (CsEventFilter *self,
                                               CsDocument    *from,
                                               CsDocument    *to,
                                               GError       **error);

char          *cs_event_filter_to_string      (CsEventFilter *self);
CsEventFilter *cs_event_filter_new_from_string (CsDocument   *document,
                                               const char    *text,
                                               GError       **error);

G_END_DECLS
