/* cs-explain-formats.h: what the explanation reads of each event format
 * (cs-explain-formats.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <string.h>

#include "cs-explain.h"

G_BEGIN_DECLS

/* The wakeups the tracker feeds the wakeup rule, and the event types that
 * change a CPU's state ("system:name", NULL-terminated). */
extern const char *const cs_explain_wake_events[];
extern const char *const cs_explain_state_events[];

typedef enum {
  EV_OTHER,
  EV_SWITCH,
  EV_WAKE,
  EV_MIGRATE,
  EV_IRQ_ENTRY,
  EV_IRQ_EXIT,
  EV_SOFTIRQ_ENTRY,
  EV_SOFTIRQ_EXIT,
  EV_IRQS_OFF,
  EV_IRQS_ON,
  EV_PREEMPT_OFF,
  EV_PREEMPT_ON,
} CsExplainEventKind;

/* Indexes into CsExplainFormat.fields, by kind (cs-explain-formats.c's
 * kind_fields). */
enum { F_PREV_PID, F_PREV_PRIO, F_PREV_COMM, F_NEXT_PID, F_NEXT_PRIO, F_NEXT_COMM, F_PREV_STATE };
enum { F_PID, F_PRIO, F_TARGET_CPU, F_FLAGS };
enum { F_DEST_CPU = 1 };
enum { F_IRQ, F_IRQ_NAME };
enum { F_VEC };

/* What the tracker knows of an event format: its kind and the fields it
 * reads, looked up once (a search by name walks the format's list). */
typedef struct {
  const struct tep_event *format;       /* whose this is */
  CsExplainEventKind kind;
  CsExplainSource source;       /* of a section's events */
  CsPluginField fields[7];
} CsExplainFormat;


typedef struct {
  GHashTable *formats;          /* struct tep_event * -> CsExplainFormat * (owned) */
  GPtrArray *by_id;             /* CsExplainFormat * (borrowed) by tep_event id: a hash
                                 * lookup per event showed in the sweep's profile */
} CsExplainFormats;

CsExplainFormats      *_cs_explain_formats_new      (void);
void                   _cs_explain_formats_free     (CsExplainFormats    *self);
const CsExplainFormat *_cs_explain_formats_classify (CsExplainFormats    *self,
                                                     const CsPluginEvent *event);
void _cs_explain_interrupt_of_record (const CsPluginEvent   *event,
                                      const CsExplainFormat *format,
                                      char                  *name,
                                      CsPluginInterrupt     *irq);

/* A number field, sign-extended when the format says it is signed. */
static inline gint64
_cs_explain_get_int (const CsPluginEvent *event,
                     const CsPluginField *field,
                     gint64               fallback)
{
  gint64 v;

  return cs_plugin_event_read_int (event, field, &v) ? v : fallback;
}

/* A string field (char[N], or __data_loc char[]) into @out, without an
 * allocation; the rest of @out is zeroed, so that the tracker's current()
 * copies it whole. */
static inline void
_cs_explain_copy_string (const CsPluginEvent *event,
                         const CsPluginField *field,
                         char                *out,
                         gsize                size)
{
  gsize len;
  const char *data = cs_plugin_event_peek_string (event, field, &len);

  len = data != NULL ? strnlen (data, MIN (len, size - 1)) : 0;
  if (len > 0)
    memcpy (out, data, len);
  memset (out + len, 0, size - len);
}

G_END_DECLS
