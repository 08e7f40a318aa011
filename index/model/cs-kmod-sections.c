/* cs-kmod-sections.c: pairing and reading the kernel module's events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index stores time, type and pid for every event but no fields, and
 * must not be rebuilt for this.  The module's events are rare, so the first
 * query walks the event chunks of only the CPUs whose cpu_type_counts say
 * they hold some, stops on each CPU as soon as it has seen them all, reads
 * their fields from the recording with libtraceevent and keeps the result
 * on the document.  A recording without them never touches the index.
 */
#include "config.h"

#include <event-parse.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-document-private.h"
#include "cs-kmod-sections.h"

/* The events we read, as named in kmod/chronoscope_trace.h. */
typedef enum {
  KE_IRQS_OFF_BEGIN,
  KE_IRQS_OFF_END,
  KE_PREEMPT_OFF_BEGIN,
  KE_PREEMPT_OFF_END,
  KE_WAKEUP_LATENCY,
  KE_N_EVENTS,
} KmodEvent;

static const char *const kmod_event_names[KE_N_EVENTS] = {
  "irqs_off_begin", "irqs_off_end", "preempt_off_begin", "preempt_off_end", "wakeup_latency",
};

#define KMOD_SYSTEM "chronoscope"

struct _CsKmodIndex {
  GArray *sections;      /* CsKmodSection, sorted by begin_ns */
  GArray *latencies;     /* CsKmodWakeupLatency, sorted by time_ns */
};

/* One event found in the chunks, before its fields are read. */
typedef struct {
  CsEvent event;
  KmodEvent which;
} FoundEvent;

void
_cs_kmod_index_free (CsKmodIndex *index)
{
  if (index == NULL)
    return;
  g_array_unref (index->sections);
  g_array_unref (index->latencies);
  g_free (index);
}

/**
 * cs_kmod_section_kind_to_string:
 * @kind: a section kind
 *
 * The name of a section kind for users, in the words of ftrace's latency
 * tracers (Documentation/trace/ftrace.rst: "irqs-off", "preempt-off").
 *
 * Returns: (transfer none): "irqs-off" or "preempt-off"
 */
const char *
cs_kmod_section_kind_to_string (CsKmodSectionKind kind)
{
  return kind == CS_KMOD_SECTION_IRQS_OFF ? "irqs-off" : "preempt-off";
}

/* The index's type id of each module event, -1 when the recording lacks it
 * or holds none of it.  Returns whether any has events. */
static gboolean
find_types (CsDocument *self,
            gint        type_ids[KE_N_EVENTS])
{
  gboolean any = FALSE;

  for (guint k = 0; k < KE_N_EVENTS; k++)
    type_ids[k] = -1;
  for (guint t = 0; t < cs_document_get_n_event_types (self); t++)
    {
      const CsEventType *type = cs_document_get_event_type (self, t);

      if (type->n_events == 0 || g_strcmp0 (type->system, KMOD_SYSTEM) != 0)
        continue;
      for (guint k = 0; k < KE_N_EVENTS; k++)
        if (g_strcmp0 (type->name, kmod_event_names[k]) == 0)
          {
            type_ids[k] = (gint) type->id;
            any = TRUE;
          }
    }
  return any;
}

/* Appends the module events of one CPU to @found, in time order. */
static gboolean
collect_cpu (CsDocument  *self,
             guint        cpu,
             const gint   type_ids[KE_N_EVENTS],
             GArray      *found,
             GError     **error)
{
  guint64 expected = 0, seen = 0;
  gint64 n_chunks = _cs_document_get_n_chunks (self, cpu);

  for (guint k = 0; k < KE_N_EVENTS; k++)
    if (type_ids[k] >= 0)
      expected += cs_document_get_cpu_type_count (self, cpu, (guint) type_ids[k]);

  for (gint64 chunk = 0; chunk < n_chunks && seen < expected; chunk++)
    {
      CsEventChunkCache *cache = _cs_document_get_chunk (self, cpu, chunk, error);

      if (cache == NULL)
        return FALSE;
      for (guint i = 0; i < cache->n; i++)
        {
          gint type = (gint) cache->cols[EV_TYPE][i];

          for (guint k = 0; k < KE_N_EVENTS; k++)
            {
              FoundEvent f;

              if (type != type_ids[k])
                continue;
              f.which = (KmodEvent) k;
              f.event.ts_ns = cache->cols[EV_TS][i];
              f.event.offset = (guint64) cache->cols[EV_OFFSET][i];
              f.event.pid = (gint32) cache->cols[EV_PID][i];
              f.event.type_id = (guint32) type;
              f.event.cpu = cpu;
              f.event.row = cache->first_row + i;
              g_array_append_val (found, f);
              seen++;
              break;
            }
        }
    }
  return TRUE;
}

/* Reads the named numeric field of a record; the module's formats declare
 * every field we read, so a missing one means a damaged recording. */
static gboolean
read_number (CsDocument         *self,
             struct tep_event   *format,
             struct tep_record  *rec,
             const char         *name,
             guint64            *value,
             GError            **error)
{
  struct tep_format_field *field = tep_find_field (format, name);
  unsigned long long v;

  if (field == NULL || (gsize) field->offset + field->size > (gsize) rec->size ||
      tep_read_number_field (field, rec->data, &v) != 0)
    {
      g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                   _("%s: the %s:%s event at offset %" PRIu64 " has no field %s"),
                   self->trace_path, KMOD_SYSTEM, format->name, (guint64) rec->offset, name);
      return FALSE;
    }
  *value = v;
  return TRUE;
}

static gboolean
read_latency (CsDocument          *self,
              struct tep_event    *format,
              struct tep_record   *rec,
              const FoundEvent    *f,
              CsKmodWakeupLatency *out,
              GError             **error)
{
  struct tep_format_field *comm = tep_find_field (format, "comm");
  guint64 pid, target_cpu;

  memset (out, 0, sizeof *out);
  out->time_ns = f->event.ts_ns;
  out->cpu = f->event.cpu;
  if (!read_number (self, format, rec, "pid", &pid, error) ||
      !read_number (self, format, rec, "target_cpu", &target_cpu, error) ||
      !read_number (self, format, rec, "latency_ns", &out->latency_ns, error) ||
      !read_number (self, format, rec, "threshold_ns", &out->threshold_ns, error))
    return FALSE;
  out->pid = (gint32) pid;
  out->target_cpu = (gint32) target_cpu;
  if (comm != NULL && (gsize) comm->offset + comm->size <= (gsize) rec->size)
    g_strlcpy (out->comm, (const char *) rec->data + comm->offset,
               MIN (sizeof out->comm, (gsize) comm->size + 1));
  return TRUE;
}

/* Per CPU and kind, the section whose begin has been seen and whose end
 * has not: sections run one at a time and cannot leave their CPU (the
 * module disables interrupts or preemption for them). */
typedef struct {
  gboolean open;
  CsKmodSection section;
} OpenSection;

static void
close_section (GArray        *sections,
               OpenSection   *open,
               gint64         end_ns,
               guint64        measured_ns)
{
  open->section.end_ns = MAX (end_ns, open->section.begin_ns);
  open->section.measured_ns = measured_ns;
  g_array_append_val (sections, open->section);
  open->open = FALSE;
}

static gboolean
add_section_event (CsDocument        *self,
                   struct tep_event  *format,
                   struct tep_record *rec,
                   const FoundEvent  *f,
                   OpenSection       *open,
                   GArray            *sections,
                   GError           **error)
{
  gboolean is_begin = f->which == KE_IRQS_OFF_BEGIN || f->which == KE_PREEMPT_OFF_BEGIN;
  guint64 requested, measured = 0;

  if (!read_number (self, format, rec, "requested_ns", &requested, error) ||
      (!is_begin && !read_number (self, format, rec, "measured_ns", &measured, error)))
    return FALSE;

  if (is_begin)
    {
      /* A begin while one is open: the end was lost (missed events).  The
       * earlier section cannot have lasted past this begin. */
      if (open->open)
        close_section (sections, open, f->event.ts_ns, 0);
      open->open = TRUE;
      open->section.kind = f->which == KE_IRQS_OFF_BEGIN ? CS_KMOD_SECTION_IRQS_OFF
                                                         : CS_KMOD_SECTION_PREEMPT_OFF;
      open->section.cpu = f->event.cpu;
      open->section.begin_ns = f->event.ts_ns;
      open->section.requested_ns = requested;
      return TRUE;
    }

  if (!open->open)
    {
      /* An end without its begin: the recording started inside the
       * section, so it shows from the recording's start. */
      open->section.kind = f->which == KE_IRQS_OFF_END ? CS_KMOD_SECTION_IRQS_OFF
                                                       : CS_KMOD_SECTION_PREEMPT_OFF;
      open->section.cpu = f->event.cpu;
      open->section.begin_ns = MIN (self->first_ns, f->event.ts_ns);
    }
  open->section.requested_ns = requested;
  close_section (sections, open, f->event.ts_ns, measured);
  return TRUE;
}

static int
compare_sections (gconstpointer a,
                  gconstpointer b)
{
  const CsKmodSection *x = a, *y = b;

  if (x->begin_ns != y->begin_ns)
    return x->begin_ns < y->begin_ns ? -1 : 1;
  return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static int
compare_latencies (gconstpointer a,
                   gconstpointer b)
{
  const CsKmodWakeupLatency *x = a, *y = b;

  if (x->time_ns != y->time_ns)
    return x->time_ns < y->time_ns ? -1 : 1;
  return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Turns one CPU's events (time order) into sections and latencies. */
static gboolean
read_cpu_events (CsDocument   *self,
                 CsTraceFile  *file,
                 const GArray *found,
                 CsKmodIndex  *index,
                 GError      **error)
{
  struct tep_handle *tep = cs_trace_file_get_tep (file);
  OpenSection open[2] = { { 0 } };

  for (guint i = 0; i < found->len; i++)
    {
      const FoundEvent *f = &g_array_index (found, FoundEvent, i);
      struct tep_event *format;
      CsRecord rec;

      if (!cs_trace_file_read_at (file, f->event.cpu, f->event.offset, &rec, error))
        return FALSE;
      format = tep_find_event_by_record (tep, rec.tep_record);
      if (format == NULL)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("%s has no format for the event at offset %" PRIu64 " of CPU %u"),
                       self->trace_path, f->event.offset, f->event.cpu);
          return FALSE;
        }
      if (f->which == KE_WAKEUP_LATENCY)
        {
          CsKmodWakeupLatency latency;

          if (!read_latency (self, format, rec.tep_record, f, &latency, error))
            return FALSE;
          g_array_append_val (index->latencies, latency);
        }
      else
        {
          gboolean irqs = f->which == KE_IRQS_OFF_BEGIN || f->which == KE_IRQS_OFF_END;

          if (!add_section_event (self, format, rec.tep_record, f, &open[irqs ? 0 : 1],
                                  index->sections, error))
            return FALSE;
        }
    }
  /* A begin without an end: the recording stopped inside the section. */
  for (guint k = 0; k < G_N_ELEMENTS (open); k++)
    if (open[k].open)
      close_section (index->sections, &open[k], self->last_ns, 0);
  return TRUE;
}

static CsKmodIndex *
build_index (CsDocument  *self,
             GError     **error)
{
  CsKmodIndex *index = g_new0 (CsKmodIndex, 1);
  gint type_ids[KE_N_EVENTS];
  CsTraceFile *file = NULL;

  index->sections = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  index->latencies = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  if (!find_types (self, type_ids))
    return index;

  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (FoundEvent));

      if (!collect_cpu (self, cpu, type_ids, found, error))
        goto fail;
      if (found->len == 0)
        continue;
      if (file == NULL && (file = cs_document_get_trace_file (self)) == NULL)
        {
          g_set_error (error, CS_INDEX_ERROR, CS_INDEX_ERROR_CORRUPT,
                       _("The recording %s can no longer be read"), self->trace_path);
          goto fail;
        }
      if (!read_cpu_events (self, file, found, index, error))
        goto fail;
    }
  g_array_sort (index->sections, compare_sections);
  g_array_sort (index->latencies, compare_latencies);
  return index;

fail:
  _cs_kmod_index_free (index);
  return NULL;
}

/* The document's cached module events, found on first use. */
static CsKmodIndex *
ensure_index (CsDocument  *self,
              GError     **error)
{
  if (self->kmod_index == NULL)
    self->kmod_index = build_index (self, error);
  return self->kmod_index;
}

/**
 * cs_document_has_kmod_events:
 * @document: a document
 *
 * Whether the recording holds any event of the module's trace system
 * (`chronoscope`, kmod/chronoscope_trace.h), marks included.  Reads only
 * the event types loaded at open: no query, no cost.  Call from the
 * document's thread.
 *
 * Returns: %TRUE when some chronoscope:* event type has events
 */
gboolean
cs_document_has_kmod_events (CsDocument *document)
{
  g_return_val_if_fail (CS_IS_DOCUMENT (document), FALSE);

  for (guint t = 0; t < cs_document_get_n_event_types (document); t++)
    {
      const CsEventType *type = cs_document_get_event_type (document, t);

      if (type->n_events > 0 && g_strcmp0 (type->system, KMOD_SYSTEM) == 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * cs_document_get_kmod_sections:
 * @document: a document
 * @begin_ns: start of the span, ns in the trace clock
 * @end_ns: end of the span (exclusive)
 * @error: return location for a #GError
 *
 * The module's irqs-off and preempt-off sections (chronoscope:irqs_off_begin
 * and _end, preempt_off_begin and _end) that overlap [@begin_ns, @end_ns),
 * that is with begin_ns < @end_ns and end_ns > @begin_ns (a section of zero
 * length counts when its begin is in the span).  A *_begin is paired with
 * the next *_end of the same kind on its CPU; a begin left open ends at the
 * recording's last_ns, an end without a begin starts at its first_ns.
 *
 * The first call walks the index's event chunks of the CPUs that hold
 * module events and reads the events' fields from the recording; the
 * result is kept on the document, so later calls cost a scan of a short
 * array.  Call from the document's thread.
 *
 * Returns: (transfer full) (element-type CsKmodSection): the sections
 *   sorted by begin_ns (then CPU), empty when none, or %NULL with @error set
 *   in %CS_INDEX_ERROR (%CS_INDEX_ERROR_SQLITE, %CS_INDEX_ERROR_CORRUPT for
 *   a damaged index or recording)
 */
GArray *
cs_document_get_kmod_sections (CsDocument  *document,
                               gint64       begin_ns,
                               gint64       end_ns,
                               GError     **error)
{
  CsKmodIndex *index;
  GArray *out;

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((index = ensure_index (document, error)) == NULL)
    return NULL;
  out = g_array_new (FALSE, FALSE, sizeof (CsKmodSection));
  for (guint i = 0; i < index->sections->len; i++)
    {
      const CsKmodSection *s = &g_array_index (index->sections, CsKmodSection, i);

      if (s->begin_ns >= end_ns)
        break;
      if (s->end_ns > begin_ns || (s->end_ns == s->begin_ns && s->begin_ns >= begin_ns))
        g_array_append_val (out, *s);
    }
  return out;
}

/**
 * cs_document_get_kmod_wakeup_latencies:
 * @document: a document
 * @pid: the woken task (field pid of chronoscope:wakeup_latency), or -1 for
 *   all tasks
 * @begin_ns: start of the span, ns in the trace clock
 * @end_ns: end of the span (exclusive)
 * @error: return location for a #GError
 *
 * The module's wakeup_latency events whose timestamp lies in
 * [@begin_ns, @end_ns).  The latency itself spans
 * [time_ns - latency_ns, time_ns): a caller drawing it must widen its span
 * by the longest latency it expects.  Cached like
 * cs_document_get_kmod_sections(); call from the document's thread.
 *
 * Returns: (transfer full) (element-type CsKmodWakeupLatency): the events
 *   sorted by time_ns, empty when none, or %NULL with @error set as for
 *   cs_document_get_kmod_sections()
 */
GArray *
cs_document_get_kmod_wakeup_latencies (CsDocument  *document,
                                       gint32       pid,
                                       gint64       begin_ns,
                                       gint64       end_ns,
                                       GError     **error)
{
  CsKmodIndex *index;
  GArray *out;

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((index = ensure_index (document, error)) == NULL)
    return NULL;
  out = g_array_new (FALSE, FALSE, sizeof (CsKmodWakeupLatency));
  for (guint i = 0; i < index->latencies->len; i++)
    {
      const CsKmodWakeupLatency *l = &g_array_index (index->latencies, CsKmodWakeupLatency, i);

      if (l->time_ns >= end_ns)
        break;
      if (l->time_ns >= begin_ns && (pid < 0 || l->pid == pid))
        g_array_append_val (out, *l);
    }
  return out;
}
