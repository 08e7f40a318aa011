/* cs-cli-clock.c: what `chronoscope info` says about a recording's clock
 * and its peer (issue 25): the clock as recorded and converted (TSC2NSEC),
 * the trace ID, the guests a host names (GUEST options), the host a guest
 * names and its time shift (TIME_SHIFT), and with `--peer FILE` whether
 * the two recordings relate and where the guest's events land on the
 * host's clock.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "cs-cli-clock.h"
#include "cs-format.h"
#include "cs-kvm-activity.h"
#include "cs-tracedat-clock.h"

struct _CsCliClock {
  CsTracedatReader *reader;
  CsTracedatReader *peer;
  CsTimeShift *shift;           /* this file's TIME_SHIFT, or NULL */
  GError *shift_error;          /* why not (NO_PEER: there is none) */
  GPtrArray *guests;            /* CsTracedatGuest, this file's GUEST options */
  guint n_damaged_guests;
  /* --peer */
  gboolean is_guest;            /* this file is the guest of the pair */
  CsTimeRelation *relation;
  GError *relation_error;
  gboolean have_span;
  gint64 guest_first_host_ns;
  gint64 guest_last_host_ns;
  guint64 n_unconverted;        /* guest records the relation could not convert */
  gint64 host_first_ns;
  gint64 host_last_ns;
  GPtrArray *activities;        /* CsKvmVcpuActivity or NULL, by vCPU */
};

void
cs_cli_clock_free (CsCliClock *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->reader);
  g_clear_object (&self->peer);
  cs_time_shift_free (self->shift);
  g_clear_error (&self->shift_error);
  g_clear_pointer (&self->guests, g_ptr_array_unref);
  cs_time_relation_free (self->relation);
  g_clear_error (&self->relation_error);
  g_clear_pointer (&self->activities, g_ptr_array_unref);
  g_free (self);
}

static char *
trace_id_text (guint64 id)
{
  return g_strdup_printf ("0x%016" PRIX64, id);
}

/* Ticks (signed) to ns with the recording's TSC2NSEC, without DATE/OFFSET. */
static gint64
offset_ns (CsTracedatReader *reader, gint64 ticks)
{
  guint64 mag = ticks < 0 ? (guint64) 0 - (guint64) ticks : (guint64) ticks;
  gint64 ns = (gint64) (cs_tracedat_reader_ticks_to_ns (reader, mag) -
                        (guint64) cs_tracedat_reader_get_ts_offset (reader));

  return ticks < 0 ? -ns : ns;
}

/* Every record of @reader: min and max of their host times and the
 * first/last of their own times.  Linear in the guest's records; only
 * with --peer. */
static gboolean
scan_guest (CsCliClock *self, CsTracedatReader *guest, GError **error)
{
  gboolean any = FALSE;

  for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (guest); cpu++)
    {
      g_autoptr(CsTracedatCpu) stream = NULL;
      CsTracedatRecord rec;
      GError *local = NULL;

      if (cs_tracedat_reader_get_cpu_data_size (guest, cpu) == 0)
        continue;
      stream = cs_tracedat_reader_open_cpu (guest, cpu, error);
      if (stream == NULL)
        return FALSE;
      while (cs_tracedat_cpu_next (stream, &rec, &local))
        {
          gint64 ns;

          if (!cs_time_relation_guest_to_host (self->relation, cpu, rec.raw_ts, &ns))
            {
              self->n_unconverted++;
              continue;
            }
          self->guest_first_host_ns = any ? MIN (self->guest_first_host_ns, ns) : ns;
          self->guest_last_host_ns = any ? MAX (self->guest_last_host_ns, ns) : ns;
          any = TRUE;
        }
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  self->have_span = any;
  return TRUE;
}

/* The host's view of each vCPU whose thread the GUEST option names. */
static gboolean
measure_vcpus (CsCliClock *self, GError **error)
{
  g_autoptr(CsVcpuTimeline) timeline =
    cs_vcpu_timeline_new_for_guest (self->is_guest ? self->peer : self->reader, self->relation,
                                    NULL, error);

  if (timeline == NULL)
    return FALSE;
  self->activities = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_kvm_vcpu_activity_free);
  for (guint v = 0; v < cs_vcpu_timeline_get_n_threads (timeline); v++)
    g_ptr_array_add (self->activities, cs_vcpu_timeline_get_tid (timeline, v) > 0
                                       ? cs_kvm_activity_from_timeline (timeline, v) : NULL);
  return TRUE;
}

/**
 * cs_cli_clock_new:
 * @path: a trace.dat recording
 * @peer_path: (nullable): the other recording of a host/guest pair
 * @host_first_ns: the first event time of the host recording, when
 *   @peer_path is given and @path is the host (else ignored)
 * @host_last_ns: its last event time
 * @error: return location for a #GError
 *
 * Reads the clock options of @path (and @peer_path).  That @path has no
 * peer, or does not relate to @peer_path, is not an error: it is what
 * `info` reports.
 *
 * Errors: those of cs_tracedat_reader_open() for either file.
 *
 * Returns: (transfer full) (nullable): the description, %NULL on error
 */
CsCliClock *
cs_cli_clock_new (const char  *path,
                  const char  *peer_path,
                  gint64       host_first_ns,
                  gint64       host_last_ns,
                  GError     **error)
{
  g_autoptr(CsCliClock) self = g_new0 (CsCliClock, 1);

  /* Alone, only the file's options are read: parsing its event formats
   * would double what `info` costs on an indexed recording. */
  self->reader = peer_path == NULL ? cs_tracedat_reader_open_options (path, error)
                                   : cs_tracedat_reader_open (path, error);
  if (self->reader == NULL)
    return NULL;
  self->shift = cs_tracedat_reader_dup_time_shift (self->reader, &self->shift_error);
  self->guests = cs_tracedat_reader_dup_guests (self->reader, &self->n_damaged_guests);
  if (peer_path == NULL)
    return g_steal_pointer (&self);

  self->peer = cs_tracedat_reader_open (peer_path, error);
  if (self->peer == NULL)
    return NULL;
  /* The guest of the pair is the one with a TIME_SHIFT option. */
  self->is_guest = cs_tracedat_reader_has_time_shift (self->reader) ||
                   !cs_tracedat_reader_has_time_shift (self->peer);
  self->relation = self->is_guest
                   ? cs_time_relation_new (self->peer, self->reader, &self->relation_error)
                   : cs_time_relation_new (self->reader, self->peer, &self->relation_error);
  if (self->relation == NULL)
    return g_steal_pointer (&self);
  if (!scan_guest (self, self->is_guest ? self->reader : self->peer, error))
    return NULL;
  if (self->is_guest)
    {
      /* The host's span: its records' times, first and last. */
      gint64 f = G_MAXINT64, l = G_MININT64;

      for (guint cpu = 0; cpu < cs_tracedat_reader_get_n_cpus (self->peer); cpu++)
        {
          g_autoptr(CsTracedatCpu) stream = NULL;
          CsTracedatRecord rec;

          if (cs_tracedat_reader_get_cpu_data_size (self->peer, cpu) == 0)
            continue;
          stream = cs_tracedat_reader_open_cpu (self->peer, cpu, error);
          if (stream == NULL)
            return NULL;
          while (cs_tracedat_cpu_next (stream, &rec, NULL))
            {
              f = MIN (f, rec.ts_ns);
              l = MAX (l, rec.ts_ns);
            }
        }
      host_first_ns = f;
      host_last_ns = l;
    }
  self->host_first_ns = host_first_ns;
  self->host_last_ns = host_last_ns;
  if (!measure_vcpus (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static const char *
role (CsCliClock *self)
{
  gboolean host = self->guests->len > 0;
  gboolean guest = cs_tracedat_reader_has_time_shift (self->reader);

  return host && guest ? "host and guest" : host ? "host" : guest ? "guest" : NULL;
}

/* The offset libtracecmd applies on @vcpu at guest time @guest_ts (ticks),
 * and the sample whose scaling applies (NULL: none, with one sample). */
static gboolean
offset_at (const CsTimeShift *shift, guint vcpu, gint64 guest_ts, gint64 *offset,
           gint64 *scaling, gint64 *fraction)
{
  const CsTimeShiftSample *s = NULL;

  if (!cs_time_shift_get_offset_at (shift, vcpu, (guint64) MAX (guest_ts, 0), offset, &s))
    return FALSE;
  *scaling = s != NULL ? s->scaling : 1;
  *fraction = s != NULL ? s->fraction : 0;
  return TRUE;
}

static void
add_time_shift_json (CsCliClock *self, JsonBuilder *b)
{
  g_autofree char *peer = NULL;

  json_builder_set_member_name (b, "time_shift");
  if (self->shift == NULL)
    {
      if (g_error_matches (self->shift_error, CS_TRACEDAT_CLOCK_ERROR,
                           CS_TRACEDAT_CLOCK_ERROR_NO_PEER))
        json_builder_add_null_value (b);
      else
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "error");
          json_builder_add_string_value (b, self->shift_error->message);
          json_builder_end_object (b);
        }
      return;
    }
  peer = trace_id_text (self->shift->peer_trace_id);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "peer_trace_id");
  json_builder_add_string_value (b, peer);
  json_builder_set_member_name (b, "flags");
  json_builder_add_int_value (b, self->shift->flags);
  json_builder_set_member_name (b, "interpolate");
  json_builder_add_boolean_value (b, (self->shift->flags & CS_TIME_SHIFT_FLAG_INTERPOLATE) != 0);
  /* The times `info` shows are the guest's own: the shift is not applied. */
  json_builder_set_member_name (b, "applied_to_times");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_set_member_name (b, "vcpus");
  json_builder_begin_array (b);
  for (guint v = 0; v < self->shift->n_vcpus; v++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "vcpu");
      json_builder_add_int_value (b, v);
      json_builder_set_member_name (b, "samples");
      json_builder_begin_array (b);
      for (guint i = 0; i < self->shift->n_samples[v]; i++)
        {
          const CsTimeShiftSample *s = &self->shift->samples[v][i];

          json_builder_begin_object (b);
          json_builder_set_member_name (b, "time");
          json_builder_add_int_value (b, s->time);
          json_builder_set_member_name (b, "offset");
          json_builder_add_int_value (b, s->offset);
          json_builder_set_member_name (b, "offset_ns");
          json_builder_add_int_value (b, offset_ns (self->reader, s->offset));
          json_builder_set_member_name (b, "scaling");
          json_builder_add_int_value (b, s->scaling);
          json_builder_set_member_name (b, "fraction_bits");
          json_builder_add_int_value (b, s->fraction);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_guests_json (CsCliClock *self, JsonBuilder *b)
{
  json_builder_set_member_name (b, "guests");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->guests->len; i++)
    {
      const CsTracedatGuest *g = g_ptr_array_index (self->guests, i);
      g_autofree char *id = trace_id_text (g->trace_id);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, g->name);
      json_builder_set_member_name (b, "trace_id");
      json_builder_add_string_value (b, id);
      json_builder_set_member_name (b, "vcpu_threads");
      json_builder_begin_object (b);
      for (guint v = 0; v < g->n_vcpus; v++)
        {
          char key[16];

          g_snprintf (key, sizeof key, "%u", v);
          json_builder_set_member_name (b, key);
          json_builder_add_int_value (b, g->vcpu_tids[v]);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "n_damaged_guest_options");
  json_builder_add_int_value (b, self->n_damaged_guests);
}

/* The host's kvm view of one vCPU: null members when its thread is
 * unknown. */
static void
add_activity_json (const CsKvmVcpuActivity *a, JsonBuilder *b)
{
  json_builder_set_member_name (b, "host");
  if (a == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "n_entries");
  json_builder_add_int_value (b, (gint64) a->n_entries);
  json_builder_set_member_name (b, "n_exits");
  json_builder_add_int_value (b, (gint64) a->n_exits);
  json_builder_set_member_name (b, "time_in_guest_ns");
  json_builder_add_int_value (b, a->in_guest_ns);
  /* null: the host recorded no sched_switch, so it cannot tell */
  json_builder_set_member_name (b, "time_not_running_ns");
  if (a->not_running_ns >= 0)
    json_builder_add_int_value (b, a->not_running_ns);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "first_ns");
  json_builder_add_int_value (b, a->first_ns);
  json_builder_set_member_name (b, "last_ns");
  json_builder_add_int_value (b, a->last_ns);
  json_builder_set_member_name (b, "longest_exit_ns");
  json_builder_add_int_value (b, a->longest_exit_ns);
  json_builder_set_member_name (b, "longest_exit_at_ns");
  json_builder_add_int_value (b, a->longest_exit_at_ns);
  json_builder_set_member_name (b, "longest_exit_reason");
  if (a->longest_exit_reason != NULL)
    json_builder_add_string_value (b, a->longest_exit_reason);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "exits_by_reason");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->reasons->len; i++)
    {
      const CsKvmExitReason *r = g_ptr_array_index (a->reasons, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "reason");
      json_builder_add_string_value (b, r->reason);
      json_builder_set_member_name (b, "n_exits");
      json_builder_add_int_value (b, (gint64) r->n_exits);
      json_builder_set_member_name (b, "out_of_guest_ns");
      json_builder_add_int_value (b, r->out_ns);
      json_builder_set_member_name (b, "longest_ns");
      json_builder_add_int_value (b, r->longest_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_peer_json (CsCliClock *self, const char *peer_path, JsonBuilder *b)
{
  const CsTimeShift *shift;
  const CsTracedatGuest *g;

  json_builder_set_member_name (b, "peer");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, peer_path);
  json_builder_set_member_name (b, "role");
  json_builder_add_string_value (b, self->is_guest ? "host" : "guest");
  json_builder_set_member_name (b, "related");
  json_builder_add_boolean_value (b, self->relation != NULL);
  json_builder_set_member_name (b, "error");
  if (self->relation == NULL)
    json_builder_add_string_value (b, self->relation_error->message);
  else
    json_builder_add_null_value (b);
  if (self->relation == NULL)
    {
      json_builder_end_object (b);
      return;
    }
  shift = cs_time_relation_get_time_shift (self->relation);
  g = cs_time_relation_get_guest (self->relation);
  json_builder_set_member_name (b, "guest_name");
  if (g != NULL)
    json_builder_add_string_value (b, g->name);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "vcpus");
  json_builder_begin_array (b);
  for (guint v = 0; v < shift->n_vcpus; v++)
    {
      gint64 off = 0, scaling = 1, fraction = 0;
      CsTracedatReader *guest = self->is_guest ? self->reader : self->peer;

      /* The correction at the guest's first sample (the one that applies
       * to its events when there are two samples and no interpolation). */
      offset_at (shift, v, shift->n_samples[v] > 0 ? shift->samples[v][0].time : 0,
                 &off, &scaling, &fraction);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "vcpu");
      json_builder_add_int_value (b, v);
      json_builder_set_member_name (b, "host_thread");
      json_builder_add_int_value (b, cs_time_relation_get_vcpu_tid (self->relation, v));
      json_builder_set_member_name (b, "offset_ticks");
      json_builder_add_int_value (b, off);
      json_builder_set_member_name (b, "offset_ns");
      json_builder_add_int_value (b, offset_ns (guest, off));
      json_builder_set_member_name (b, "scaling");
      json_builder_add_int_value (b, scaling);
      json_builder_set_member_name (b, "fraction_bits");
      json_builder_add_int_value (b, fraction);
      add_activity_json (g_ptr_array_index (self->activities, v), b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "guest_first_host_ns");
  json_builder_add_int_value (b, self->guest_first_host_ns);
  json_builder_set_member_name (b, "guest_last_host_ns");
  json_builder_add_int_value (b, self->guest_last_host_ns);
  json_builder_set_member_name (b, "host_first_ns");
  json_builder_add_int_value (b, self->host_first_ns);
  json_builder_set_member_name (b, "host_last_ns");
  json_builder_add_int_value (b, self->host_last_ns);
  json_builder_set_member_name (b, "overlap_ns");
  json_builder_add_int_value (b, MIN (self->guest_last_host_ns, self->host_last_ns) -
                                 MAX (self->guest_first_host_ns, self->host_first_ns));
  json_builder_set_member_name (b, "n_unconverted_events");
  json_builder_add_int_value (b, (gint64) self->n_unconverted);
  json_builder_end_object (b);
}

/**
 * cs_cli_clock_add_json:
 * @self: a description
 * @peer_path: (nullable): the peer's path, as given to cs_cli_clock_new()
 * @builder: a builder inside an object
 *
 * Adds the members "clock_description", "tsc2nsec", "trace_id", "role",
 * "guests", "n_damaged_guest_options", "time_shift" and, with a peer,
 * "peer".
 */
void
cs_cli_clock_add_json (CsCliClock  *self,
                       const char  *peer_path,
                       JsonBuilder *builder)
{
  g_autofree char *desc = cs_tracedat_reader_dup_clock_description (self->reader);
  guint64 id;
  guint32 mult, shift;

  json_builder_set_member_name (builder, "clock_description");
  json_builder_add_string_value (builder, desc);
  json_builder_set_member_name (builder, "tsc2nsec");
  if (cs_tracedat_reader_get_tsc2nsec (self->reader, &mult, &shift))
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "multiplier");
      json_builder_add_int_value (builder, mult);
      json_builder_set_member_name (builder, "shift");
      json_builder_add_int_value (builder, shift);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_int_value (builder, (gint64) cs_tracedat_reader_get_tsc2nsec_offset (self->reader));
      json_builder_end_object (builder);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "trace_id");
  if (cs_tracedat_reader_get_trace_id (self->reader, &id))
    {
      g_autofree char *text = trace_id_text (id);
      json_builder_add_string_value (builder, text);
    }
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "role");
  if (role (self) != NULL)
    json_builder_add_string_value (builder, role (self));
  else
    json_builder_add_null_value (builder);
  add_guests_json (self, builder);
  add_time_shift_json (self, builder);
  if (self->peer != NULL)
    add_peer_json (self, peer_path, builder);
}

static void
print_activity (guint vcpu, const CsKvmVcpuActivity *a)
{
  g_autofree char *in_guest = NULL;
  g_autofree char *longest = NULL;

  if (a == NULL)
    return;
  in_guest = cs_format_duration (a->in_guest_ns);
  longest = cs_format_duration (a->longest_exit_ns);
  /* TRANSLATORS: vCPU, host thread, a duration, entries, exits */
  g_print (_("%-14s vCPU %u (host thread %d): %s in the guest, %" PRIu64
             " entries, %" PRIu64 " exits\n"),
           _("Host view:"), vcpu, a->tid, in_guest, a->n_entries, a->n_exits);
  for (guint i = 0; i < a->reasons->len; i++)
    {
      const CsKvmExitReason *r = g_ptr_array_index (a->reasons, i);
      g_autofree char *out = cs_format_duration (r->out_ns);

      /* TRANSLATORS: an exit reason, a count, a duration */
      g_print (_("%-14s   %-22s %8" PRIu64 " exits, %s out of the guest\n"),
               "", r->reason, r->n_exits, out);
    }
  if (a->longest_exit_reason != NULL)
    {
      g_autofree char *at = cs_format_timestamp (a->longest_exit_at_ns);

      /* TRANSLATORS: a duration, an exit reason, a time */
      g_print (_("%-14s   longest exit %s (%s) at %s\n"), "", longest, a->longest_exit_reason, at);
    }
}

/**
 * cs_cli_clock_print_text:
 * @self: a description
 * @peer_path: (nullable): the peer's path, as given to cs_cli_clock_new()
 *
 * Prints the clock line and, when there is one, the peer lines of `info`.
 */
void
cs_cli_clock_print_text (CsCliClock *self,
                         const char *peer_path)
{
  g_autofree char *desc = cs_tracedat_reader_dup_clock_description (self->reader);
  guint64 id;

  g_print ("%-14s %s\n", _("Trace clock:"), desc);
  if (cs_tracedat_reader_get_trace_id (self->reader, &id))
    g_print ("%-14s 0x%016" PRIX64 "\n", _("Trace ID:"), id);
  for (guint i = 0; i < self->guests->len; i++)
    {
      const CsTracedatGuest *g = g_ptr_array_index (self->guests, i);

      /* TRANSLATORS: a guest's name, then its trace ID */
      g_print ("%-14s ", _("Guest:"));
      g_print (_("\"%s\", trace ID 0x%016" PRIX64 " (this recording is its host)"),
               g->name, g->trace_id);
      g_print ("\n");
      for (guint v = 0; v < g->n_vcpus; v++)
        /* TRANSLATORS: a vCPU number, then the host thread's pid */
        g_print (_("%-14s vCPU %u runs on host thread %d\n"), "", v, g->vcpu_tids[v]);
    }
  if (self->shift != NULL)
    {
      g_print ("%-14s ", _("Host:"));
      g_print (_("trace ID 0x%016" PRIX64 " (this recording is its guest; its TIME_SHIFT is "
                 "not applied to the times below)"), self->shift->peer_trace_id);
      g_print ("\n");
      for (guint v = 0; v < self->shift->n_vcpus; v++)
        {
          gint64 off = 0, scaling = 1, fraction = 0;
          g_autofree char *off_text = NULL;

          if (self->shift->n_samples[v] == 0 ||
              !offset_at (self->shift, v, self->shift->samples[v][0].time, &off, &scaling, &fraction))
            continue;
          off_text = cs_format_duration (offset_ns (self->reader, off));
          /* TRANSLATORS: vCPU, samples, offset in ticks, in s, scaling, fraction bits */
          g_print (_("%-14s vCPU %u: %u samples, offset %" PRId64 " ticks (%s), "
                     "scaling %" PRId64 " >> %" PRId64 "\n"),
                   "", v, self->shift->n_samples[v], off, off_text, scaling, fraction);
        }
    }
  else if (self->shift_error != NULL &&
           !g_error_matches (self->shift_error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_NO_PEER))
    g_print ("%-14s %s\n", _("Host:"), self->shift_error->message);

  if (self->peer == NULL)
    return;
  if (self->relation == NULL)
    {
      g_print ("%-14s %s\n", _("Not aligned:"), self->relation_error->message);
      return;
    }
  {
    g_autofree char *gf = cs_format_timestamp (self->guest_first_host_ns);
    g_autofree char *gl = cs_format_timestamp (self->guest_last_host_ns);
    g_autofree char *hf = cs_format_timestamp (self->host_first_ns);
    g_autofree char *hl = cs_format_timestamp (self->host_last_ns);
    gint64 overlap = MIN (self->guest_last_host_ns, self->host_last_ns) -
                     MAX (self->guest_first_host_ns, self->host_first_ns);

    /* TRANSLATORS: the peer's file, then "host" or "guest" */
    g_print ("%-14s ", _("Aligned with:"));
    g_print (_("%s (%s) by the TIME_SHIFT option"), peer_path,
             self->is_guest ? _("host") : _("guest"));
    g_print ("\n");
    /* TRANSLATORS: four times of the host's clock */
    g_print (_("%-14s guest events at %s – %s of the host's clock; the host recorded %s – %s\n"),
             "", gf, gl, hf, hl);
    if (overlap < 0)
      {
        g_autofree char *gap = cs_format_duration (-overlap);
        /* TRANSLATORS: a duration */
        g_print (_("%-14s the two do not overlap: %s apart\n"), "", gap);
      }
  }
  for (guint v = 0; v < self->activities->len; v++)
    print_activity (v, g_ptr_array_index (self->activities, v));
}
