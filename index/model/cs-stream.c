/* cs-stream.c: one recording among several on a window's common time axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The header facts come from the recording's own options (UNAME,
 * TRACECLOCK, TSC2NSEC, TRACEID, TIME_SHIFT), read without parsing its event
 * formats (cs_tracedat_reader_open_options()); recordings that are not
 * trace.dat files (text and perf imports) have no such facts and are
 * unrelated to any other.  The alignment is set by CsStreamSet.
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cs-stream-private.h"

struct _CsStream
{
  GObject parent_instance;

  /* owned */
  CsDocument *document;
  CsTracedatReader *reader;       /* options only; NULL for non-trace.dat */
  CsTracedatReader *full_reader;  /* with event formats, made on demand */
  CsTimeRelation *relation;       /* GUEST only */
  CsStreamVcpuView vcpu;          /* GUEST only: cs-stream-vcpu.c */
  char *name;
  char *host_name;                /* NULL when unknown */
  char *kernel;
  char *clock_description;
  char *note;
  CsStreamAlignment alignment;
  gint64 base_offset_ns;
  gint64 offset_ns;
  gboolean collapsed;
  gboolean hidden;

  /* borrowed (weak): the host stream of a guest; the guest of a host
   * whose guest is the reference */
  CsStream *host;
  CsStream *reference_guest;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_OFFSET_NS,
  PROP_ALIGNMENT,
  PROP_NOTE,
  PROP_COLLAPSED,
  PROP_HIDDEN,
  PROP_VCPU_TIMELINE_READY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsStream, cs_stream, G_TYPE_OBJECT)

static void
cs_stream_dispose (GObject *object)
{
  CsStream *self = CS_STREAM (object);

  g_clear_weak_pointer (&self->host);
  g_clear_weak_pointer (&self->reference_guest);
  _cs_stream_vcpu_view_clear (&self->vcpu);
  g_clear_pointer (&self->relation, cs_time_relation_free);
  g_clear_object (&self->full_reader);
  g_clear_object (&self->reader);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (cs_stream_parent_class)->dispose (object);
}

static void
cs_stream_finalize (GObject *object)
{
  CsStream *self = CS_STREAM (object);

  g_free (self->name);
  g_free (self->host_name);
  g_free (self->kernel);
  g_free (self->clock_description);
  g_free (self->note);
  G_OBJECT_CLASS (cs_stream_parent_class)->finalize (object);
}

static void
cs_stream_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsStream *self = CS_STREAM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_OFFSET_NS:
      g_value_set_int64 (value, self->offset_ns);
      break;
    case PROP_ALIGNMENT:
      g_value_set_int (value, self->alignment);
      break;
    case PROP_NOTE:
      g_value_set_string (value, self->note);
      break;
    case PROP_COLLAPSED:
      g_value_set_boolean (value, self->collapsed);
      break;
    case PROP_HIDDEN:
      g_value_set_boolean (value, self->hidden);
      break;
    case PROP_VCPU_TIMELINE_READY:
      g_value_set_boolean (value, self->vcpu.timeline != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_stream_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsStream *self = CS_STREAM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      cs_stream_set_name (self, g_value_get_string (value));
      break;
    case PROP_OFFSET_NS:
      cs_stream_set_offset_ns (self, g_value_get_int64 (value));
      break;
    case PROP_COLLAPSED:
      cs_stream_set_collapsed (self, g_value_get_boolean (value));
      break;
    case PROP_HIDDEN:
      cs_stream_set_hidden (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_stream_class_init (CsStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = cs_stream_dispose;
  object_class->finalize = cs_stream_finalize;
  object_class->get_property = cs_stream_get_property;
  object_class->set_property = cs_stream_set_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, rw);
  properties[PROP_OFFSET_NS] = g_param_spec_int64 ("offset-ns", NULL, NULL,
                                                   G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_ALIGNMENT] = g_param_spec_int ("alignment", NULL, NULL,
                                                 CS_STREAM_ALIGNMENT_REFERENCE,
                                                 CS_STREAM_ALIGNMENT_UNRELATED,
                                                 CS_STREAM_ALIGNMENT_REFERENCE, ro);
  properties[PROP_NOTE] = g_param_spec_string ("note", NULL, NULL, NULL, ro);
  properties[PROP_COLLAPSED] = g_param_spec_boolean ("collapsed", NULL, NULL, FALSE, rw);
  properties[PROP_HIDDEN] = g_param_spec_boolean ("hidden", NULL, NULL, FALSE, rw);
  /* notified when cs_stream_peek_vcpu_timeline()'s background build is done */
  properties[PROP_VCPU_TIMELINE_READY] = g_param_spec_boolean ("vcpu-timeline-ready", NULL,
                                                               NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_stream_init (CsStream *self)
{
  self->note = g_strdup ("");
}

/* trace-cmd writes UNAME as "sysname nodename release version machine";
 * QEMU guests without a host name say "(none)". */
static void
read_uname (CsStream *self, const char *uname)
{
  g_auto(GStrv) words = uname != NULL ? g_strsplit (uname, " ", 4) : NULL;

  if (words == NULL || g_strv_length (words) < 3)
    return;
  if (words[1][0] != '\0' && g_strcmp0 (words[1], "(none)") != 0)
    self->host_name = g_strdup (words[1]);
  self->kernel = g_strdup (words[2]);
}

/**
 * cs_stream_new:
 * @document: an open recording
 * @name: (nullable): the name to show; %NULL for the file's base name
 *
 * Wraps @document as a stream and reads the facts of its header (host
 * name and kernel from its UNAME option, its clock, its TRACEID and
 * TIME_SHIFT options) from the file, without parsing event formats (about
 * a millisecond).  A recording that is not a trace.dat file has no such
 * facts.  Until a #CsStreamSet relates it, the stream is its own reference.
 *
 * Returns: (transfer full): a new stream holding a reference on @document
 */
CsStream *
cs_stream_new (CsDocument *document,
               const char *name)
{
  CsStream *self;
  const char *path;

  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);

  self = g_object_new (CS_TYPE_STREAM, NULL);
  self->document = g_object_ref (document);
  path = cs_document_get_trace_path (document);
  self->name = name != NULL ? g_strdup (name) : g_path_get_basename (path);
  if (g_strcmp0 (cs_document_get_source_format (document), "trace.dat") == 0)
    self->reader = cs_tracedat_reader_open_options (path, NULL);
  if (self->reader != NULL)
    {
      read_uname (self, cs_tracedat_reader_get_uname (self->reader));
      self->clock_description = cs_tracedat_reader_dup_clock_description (self->reader);
    }
  if (self->clock_description == NULL)
    self->clock_description = g_strdup (cs_stream_get_clock (self));
  return self;
}

/**
 * cs_stream_get_document:
 * @self: a stream
 *
 * Returns: (transfer none): its recording
 */
CsDocument *
cs_stream_get_document (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->document;
}

/**
 * cs_stream_get_name:
 * @self: a stream
 *
 * Returns: (transfer none): the name shown in its header (the file's base
 *   name unless set)
 */
const char *
cs_stream_get_name (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->name;
}

/**
 * cs_stream_set_name:
 * @self: a stream
 * @name: the name to show (not %NULL)
 */
void
cs_stream_set_name (CsStream   *self,
                    const char *name)
{
  g_return_if_fail (CS_IS_STREAM (self));
  g_return_if_fail (name != NULL);
  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

/**
 * cs_stream_get_path:
 * @self: a stream
 *
 * Returns: (transfer none): the recording's file
 */
const char *
cs_stream_get_path (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return cs_document_get_trace_path (self->document);
}

/**
 * cs_stream_get_host_name:
 * @self: a stream
 *
 * Returns: (transfer none) (nullable): the recording machine's host name
 *   (the node name of the UNAME option), %NULL when the file does not say
 *   or says "(none)"
 */
const char *
cs_stream_get_host_name (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->host_name;
}

/**
 * cs_stream_get_kernel:
 * @self: a stream
 *
 * Returns: (transfer none) (nullable): the kernel release of the UNAME
 *   option (e.g. "6.1.0-9-amd64"), %NULL when unknown
 */
const char *
cs_stream_get_kernel (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->kernel;
}

/**
 * cs_stream_get_clock:
 * @self: a stream
 *
 * Returns: (transfer none): the trace clock's name (cs_document_get_clock()),
 *   "" when unknown
 */
const char *
cs_stream_get_clock (CsStream *self)
{
  const char *clock;

  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  clock = cs_document_get_clock (self->document);
  return clock != NULL ? clock : "";
}

/**
 * cs_stream_get_clock_description:
 * @self: a stream
 *
 * Returns: (transfer none): the clock as `chronoscope info` says it, e.g.
 *   "x86-tsc, converted to ns by TSC2NSEC"
 */
const char *
cs_stream_get_clock_description (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->clock_description;
}

/**
 * cs_stream_get_trace_id:
 * @self: a stream
 * @trace_id: (out) (optional): its TRACEID option
 *
 * Returns: whether the recording has a TRACEID option
 */
gboolean
cs_stream_get_trace_id (CsStream *self,
                        guint64  *trace_id)
{
  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  return self->reader != NULL && cs_tracedat_reader_get_trace_id (self->reader, trace_id);
}

/**
 * cs_stream_get_peer_trace_id:
 * @self: a stream
 * @trace_id: (out) (optional): the host trace ID its TIME_SHIFT option names
 *
 * Returns: whether the recording is a KVM guest's with a readable
 *   TIME_SHIFT option
 */
gboolean
cs_stream_get_peer_trace_id (CsStream *self,
                             guint64  *trace_id)
{
  g_autoptr(CsTimeShift) shift = NULL;

  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  if (self->reader == NULL || !cs_tracedat_reader_has_time_shift (self->reader))
    return FALSE;
  shift = cs_tracedat_reader_dup_time_shift (self->reader, NULL);
  if (shift != NULL && trace_id != NULL)
    *trace_id = shift->peer_trace_id;
  return shift != NULL;
}

/**
 * cs_stream_get_alignment:
 * @self: a stream
 *
 * Returns: how its times reach the common axis (property "alignment")
 */
CsStreamAlignment
cs_stream_get_alignment (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), CS_STREAM_ALIGNMENT_REFERENCE);
  return self->alignment;
}

/**
 * cs_stream_get_note:
 * @self: a stream
 *
 * Returns: (transfer none): one translated sentence or two on how the
 *   stream is aligned and, when it is not, why (property "note"; "" for a
 *   lone recording)
 */
const char *
cs_stream_get_note (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->note;
}

/**
 * cs_stream_get_host:
 * @self: a stream
 *
 * Returns: (transfer none) (nullable): the host stream of a related KVM
 *   guest (%CS_STREAM_ALIGNMENT_GUEST, or the reference when the host is
 *   %CS_STREAM_ALIGNMENT_HOST), else %NULL
 */
CsStream *
cs_stream_get_host (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->host;
}

/**
 * cs_stream_get_reference_guest:
 * @self: a stream
 *
 * Returns: (transfer none) (nullable): for a %CS_STREAM_ALIGNMENT_HOST
 *   stream, the guest (the reference) whose conversion it goes through
 */
CsStream *
cs_stream_get_reference_guest (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), NULL);
  return self->alignment == CS_STREAM_ALIGNMENT_HOST ? self->reference_guest : NULL;
}

/**
 * cs_stream_get_vcpu_tid:
 * @self: a guest stream
 * @vcpu: one of its CPUs
 *
 * Returns: the host thread (pid in the host stream) that ran @vcpu, by
 *   the host's GUEST option; -1 when unknown or @self is not a guest
 */
gint32
cs_stream_get_vcpu_tid (CsStream *self,
                        guint     vcpu)
{
  g_return_val_if_fail (CS_IS_STREAM (self), -1);
  return self->relation != NULL ? cs_time_relation_get_vcpu_tid (self->relation, vcpu) : -1;
}

/**
 * cs_stream_get_offset_ns:
 * @self: a stream
 *
 * Returns: the manual shift in ns added to its times (property "offset-ns")
 */
gint64
cs_stream_get_offset_ns (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), 0);
  return self->offset_ns;
}

/**
 * cs_stream_set_offset_ns:
 * @self: a stream
 * @offset_ns: a shift in ns (negative: earlier), added after the
 *   automatic alignment; a host's shift moves its guests too
 */
void
cs_stream_set_offset_ns (CsStream *self,
                         gint64    offset_ns)
{
  g_return_if_fail (CS_IS_STREAM (self));
  if (self->offset_ns == offset_ns)
    return;
  self->offset_ns = offset_ns;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OFFSET_NS]);
}

/**
 * cs_stream_get_collapsed:
 * @self: a stream
 *
 * Returns: whether only its header row is drawn (property "collapsed")
 */
gboolean
cs_stream_get_collapsed (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  return self->collapsed;
}

/**
 * cs_stream_set_collapsed:
 * @self: a stream
 * @collapsed: whether to draw only its header row
 */
void
cs_stream_set_collapsed (CsStream *self,
                         gboolean  collapsed)
{
  g_return_if_fail (CS_IS_STREAM (self));
  collapsed = !!collapsed;
  if (self->collapsed == collapsed)
    return;
  self->collapsed = collapsed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSED]);
}

/**
 * cs_stream_get_hidden:
 * @self: a stream
 *
 * Returns: whether the timeline leaves it out (property "hidden")
 */
gboolean
cs_stream_get_hidden (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  return self->hidden;
}

/**
 * cs_stream_set_hidden:
 * @self: a stream
 * @hidden: whether the timeline leaves it out (it stays in its set)
 */
void
cs_stream_set_hidden (CsStream *self,
                      gboolean  hidden)
{
  g_return_if_fail (CS_IS_STREAM (self));
  hidden = !!hidden;
  if (self->hidden == hidden)
    return;
  self->hidden = hidden;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDDEN]);
}

static gint64
add_sat (gint64 a, gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

/* The ring-buffer time whose cs_tracedat_reader_ticks_to_ns() is @ts_ns
 * (the smallest such, within a tick): TSC2NSEC and DATE/OFFSET undone. */
static guint64
ns_to_ticks (CsTracedatReader *reader, gint64 ts_ns)
{
  guint32 mult = 0, shift = 0;
  gint64 ns = ts_ns - cs_tracedat_reader_get_ts_offset (reader);
  unsigned __int128 t;

  if (ns < 0)
    return 0;
  if (!cs_tracedat_reader_get_tsc2nsec (reader, &mult, &shift) || mult == 0)
    return (guint64) ns;
  t = (((unsigned __int128) ns << shift) + mult - 1) / mult;
  return t > G_MAXUINT64 ? G_MAXUINT64 : (guint64) t;
}

/**
 * cs_stream_guest_to_host_ns:
 * @self: a stream
 * @vcpu: the guest CPU whose clock @ts_ns was read from (TIME_SHIFT
 *   samples are per vCPU)
 * @ts_ns: a time of the guest's recording, ns of its own clock
 * @host_ns: (out): the same moment in ns of its host's clock (the clock
 *   of cs_stream_get_vcpu_timeline()), before any mapping onto the axis
 *
 * Converts a related guest's time as libtracecmd converts its events: the
 * ring-buffer ticks that TSC2NSEC (and DATE/OFFSET) turn into @ts_ns (the
 * smallest such, so up to 1 ns earlier than the event's own ticks give),
 * then the TIME_SHIFT option's offset and scaling of @vcpu at that time
 * (cs_time_relation_guest_to_host()).  A related guest is as for
 * cs_stream_get_vcpu_timeline().
 *
 * Returns: %FALSE when @self is not a related guest or @vcpu has no
 *   samples (@host_ns untouched)
 */
gboolean
cs_stream_guest_to_host_ns (CsStream *self,
                            guint     vcpu,
                            gint64    ts_ns,
                            gint64   *host_ns)
{
  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  g_return_val_if_fail (host_ns != NULL, FALSE);
  return self->relation != NULL && self->reader != NULL &&
         cs_time_relation_guest_to_host (self->relation, vcpu, ns_to_ticks (self->reader, ts_ns),
                                         host_ns);
}

/* A guest time (ns of its own clock) in ns of its host's clock; a vCPU
 * without samples takes vCPU 0's. */
static gint64
guest_to_host (CsStream *self, guint cpu, gint64 ts_ns)
{
  gint64 host_ns;

  if (cs_stream_guest_to_host_ns (self, cpu, ts_ns, &host_ns) ||
      cs_stream_guest_to_host_ns (self, 0, ts_ns, &host_ns))
    return host_ns;
  return ts_ns;
}

/**
 * cs_stream_get_start_shift:
 * @self: a stream
 * @offset_ns: (out) (optional): the TIME_SHIFT offset at the first sample
 *   of vCPU 0, in ns (its ticks' magnitude through TSC2NSEC, as trace-cmd's
 *   mul_u64_u32_shr() converts it, then the sign)
 * @scaling: (out) (optional): that sample's scaling ratio (1: none)
 * @fraction_bits: (out) (optional): that sample's fraction bits
 *
 * The correction a %CS_STREAM_ALIGNMENT_GUEST stream's TIME_SHIFT option
 * applies at its start (trace-cmd.dat.v7(5), option 12; the offset
 * changes over time, see cs_stream_guest_to_host_ns()).
 *
 * Returns: %FALSE when @self is not a guest aligned to its host, or its
 *   option has no sample (the outs untouched)
 */
gboolean
cs_stream_get_start_shift (CsStream *self,
                           gint64   *offset_ns,
                           gint64   *scaling,
                           gint64   *fraction_bits)
{
  const CsTimeShift *shift;
  const CsTimeShiftSample *sample = NULL;
  gint64 off = 0;
  guint64 mag;
  gint64 ns;

  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  if (self->alignment != CS_STREAM_ALIGNMENT_GUEST || self->relation == NULL ||
      self->reader == NULL)
    return FALSE;
  shift = cs_time_relation_get_time_shift (self->relation);
  if (shift->n_vcpus == 0 || shift->n_samples[0] == 0 ||
      !cs_time_shift_get_offset_at (shift, 0, (guint64) MAX (shift->samples[0][0].time, 0),
                                    &off, &sample))
    return FALSE;
  mag = off < 0 ? (guint64) 0 - (guint64) off : (guint64) off;
  ns = (gint64) (cs_tracedat_reader_ticks_to_ns (self->reader, mag) -
                 (guint64) cs_tracedat_reader_get_ts_offset (self->reader));
  if (offset_ns != NULL)
    *offset_ns = off < 0 ? -ns : ns;
  if (scaling != NULL)
    *scaling = sample != NULL ? sample->scaling : 1;
  if (fraction_bits != NULL)
    *fraction_bits = sample != NULL ? sample->fraction : 0;
  return TRUE;
}

/**
 * cs_stream_is_kvm_host:
 * @self: a stream
 *
 * Returns: whether the recording is a KVM host's: its GUEST option
 *   (trace-cmd.dat.v7(5), option 11) names at least one guest
 */
gboolean
cs_stream_is_kvm_host (CsStream *self)
{
  g_autoptr(GPtrArray) guests = NULL;

  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  if (self->reader == NULL)
    return FALSE;
  guests = cs_tracedat_reader_dup_guests (self->reader, NULL);
  return guests != NULL && guests->len > 0;
}

/**
 * cs_stream_is_aligned:
 * @self: a stream
 *
 * Whether its place on the axis rests on something: the reference, a
 * stream "as recorded", a host of the reference guest, a guest of an
 * aligned host, or an unrelated stream that the user shifted by hand
 * (a manual offset other than 0).  An unrelated stream left where its
 * start was put (at the reference's start), and the guests of such a
 * host, are not: cs_stream_to_axis_ns() still places them, but their times
 * say nothing about the reference's.
 *
 * Returns: %FALSE when its axis times are only a placement
 */
gboolean
cs_stream_is_aligned (CsStream *self)
{
  g_return_val_if_fail (CS_IS_STREAM (self), FALSE);
  switch (self->alignment)
    {
    case CS_STREAM_ALIGNMENT_GUEST:
      /* as cs_stream_to_axis_ns(): through its host's mapping, unless the
       * host is itself a guest */
      return self->host == NULL || self->host->alignment == CS_STREAM_ALIGNMENT_GUEST ||
             cs_stream_is_aligned (self->host);
    case CS_STREAM_ALIGNMENT_UNRELATED:
      return self->offset_ns != 0;
    case CS_STREAM_ALIGNMENT_REFERENCE:
    case CS_STREAM_ALIGNMENT_AS_RECORDED:
    case CS_STREAM_ALIGNMENT_HOST:
    default:
      return TRUE;
    }
}

/**
 * cs_stream_to_axis_ns:
 * @self: a stream
 * @cpu: the CPU (for a guest: the vCPU) whose clock @ts_ns was read from;
 *   it matters only for guests, whose TIME_SHIFT samples are per vCPU
 * @ts_ns: a time of the stream's recording (ns of its trace clock)
 *
 * Maps a time of the recording onto the common axis: per timestamp
 * through the guest's TIME_SHIFT option for a guest (then its host's
 * mapping), through the inverse of the reference guest's conversion for
 * its host, as recorded for the reference and same-clock streams, by
 * the start-to-start base offset for unrelated ones; then the manual
 * offset.  Saturates at the int64 limits.
 *
 * Returns: the axis time in ns
 */
gint64
cs_stream_to_axis_ns (CsStream *self,
                      guint     cpu,
                      gint64    ts_ns)
{
  gint64 t = ts_ns;

  g_return_val_if_fail (CS_IS_STREAM (self), ts_ns);
  if (self->alignment == CS_STREAM_ALIGNMENT_GUEST && self->relation != NULL)
    {
      /* the host's own mapping after the conversion: never a guest, and a
       * host of a reference guest maps through that guest (not this one) */
      t = guest_to_host (self, cpu, ts_ns);
      if (self->host != NULL && self->host->alignment != CS_STREAM_ALIGNMENT_GUEST)
        t = cs_stream_to_axis_ns (self->host, 0, t);
    }
  else if (self->alignment == CS_STREAM_ALIGNMENT_HOST && self->reference_guest != NULL &&
           self->reference_guest->relation != NULL)
    {
      /* the guest time that its conversion puts at @ts_ns, by fixed-point
       * steps (the TIME_SHIFT offset changes slowly with time) */
      CsStream *g = self->reference_guest;

      for (guint i = 0; i < 4; i++)
        {
          gint64 diff = ts_ns - guest_to_host (g, 0, t);

          if (diff == 0)
            break;
          t = add_sat (t, diff);
        }
      t = add_sat (t, g->offset_ns);
    }
  else
    t = add_sat (t, self->base_offset_ns);
  return add_sat (t, self->offset_ns);
}

/**
 * cs_stream_from_axis_ns:
 * @self: a stream
 * @cpu: as for cs_stream_to_axis_ns()
 * @axis_ns: a time of the common axis
 *
 * The inverse of cs_stream_to_axis_ns(): exact for all but guests and
 * hosts of a reference guest, for which it solves to_axis(t) = @axis_ns by a few fixed-point steps (the
 * TIME_SHIFT offset changes slowly with time), to within a nanosecond or
 * two of rounding.
 *
 * Returns: the time of the recording's clock that lands at @axis_ns
 */
gint64
cs_stream_from_axis_ns (CsStream *self,
                        guint     cpu,
                        gint64    axis_ns)
{
  gint64 t;

  g_return_val_if_fail (CS_IS_STREAM (self), axis_ns);
  if ((self->alignment != CS_STREAM_ALIGNMENT_GUEST || self->relation == NULL) &&
      self->alignment != CS_STREAM_ALIGNMENT_HOST)
    return add_sat (add_sat (axis_ns, -self->offset_ns), -self->base_offset_ns);

  t = axis_ns;
  for (guint i = 0; i < 4; i++)
    {
      gint64 diff = axis_ns - cs_stream_to_axis_ns (self, cpu, t);

      if (diff == 0)
        break;
      t = add_sat (t, diff);
    }
  return t;
}

/**
 * cs_stream_align_times:
 * @self: the stream to shift
 * @ts_ns: a moment of @self's recording (its CPU 0 for a guest)
 * @other: another stream of the same set
 * @other_ts_ns: the same moment as @other recorded it
 *
 * Sets @self's manual offset so that @ts_ns and @other_ts_ns land at the
 * same axis time: "align marker A of this stream to marker A of that one".
 * Notifies "offset-ns".
 */
void
cs_stream_align_times (CsStream *self,
                       gint64    ts_ns,
                       CsStream *other,
                       gint64    other_ts_ns)
{
  gint64 want, have;

  g_return_if_fail (CS_IS_STREAM (self));
  g_return_if_fail (CS_IS_STREAM (other));
  want = cs_stream_to_axis_ns (other, 0, other_ts_ns);
  have = cs_stream_to_axis_ns (self, 0, ts_ns);
  cs_stream_set_offset_ns (self, add_sat (self->offset_ns, want - have));
}

CsTracedatReader *
_cs_stream_get_reader (CsStream *self)
{
  return self->reader;
}

/* The reader with event formats, which reading CPU pages needs (the host
 * side of a CsTimeRelation); about 0.1 s, once. */
CsTracedatReader *
_cs_stream_get_full_reader (CsStream *self, GError **error)
{
  if (self->full_reader == NULL && self->reader != NULL)
    self->full_reader = cs_tracedat_reader_open (cs_stream_get_path (self), error);
  else if (self->reader == NULL)
    g_set_error (error, CS_TRACEDAT_CLOCK_ERROR, CS_TRACEDAT_CLOCK_ERROR_NO_PEER,
                 _("%s is not a trace.dat recording"), self->name);
  return self->full_reader;
}

/* A related guest's relation (owned by @self), or NULL. */
CsTimeRelation *
_cs_stream_get_relation (CsStream *self)
{
  return self->relation;
}

/* Set by CsStreamSet after _cs_stream_set_alignment (@self, HOST...). */
void
_cs_stream_set_reference_guest (CsStream *self, CsStream *guest)
{
  g_set_weak_pointer (&self->reference_guest, guest);
}

/* Set by CsStreamSet; @relation is taken (transfer full), unless it is
 * @self's own already. */
void
_cs_stream_set_alignment (CsStream          *self,
                          CsStreamAlignment  alignment,
                          gint64             base_offset_ns,
                          CsStream          *host,
                          CsTimeRelation    *relation,
                          const char        *note)
{
  gboolean changed_alignment = self->alignment != alignment;
  gboolean changed_note = g_strcmp0 (self->note, note) != 0;

  self->base_offset_ns = base_offset_ns;
  if (relation != self->relation)
    {
      _cs_stream_vcpu_view_clear (&self->vcpu);
      g_clear_pointer (&self->relation, cs_time_relation_free);
      self->relation = relation;
    }
  g_set_weak_pointer (&self->host, host);
  self->alignment = alignment;
  if (changed_note)
    {
      g_free (self->note);
      self->note = g_strdup (note != NULL ? note : "");
    }
  if (changed_alignment)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALIGNMENT]);
  if (changed_note)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
}

/* The host's view of a guest's vCPUs, which cs-stream-vcpu.c builds. */
CsStreamVcpuView *
_cs_stream_get_vcpu_view (CsStream *self)
{
  return &self->vcpu;
}

/* Says "vcpu-timeline-ready" (cs-stream-vcpu.c, when a build is done). */
void
_cs_stream_notify_vcpu_timeline_ready (CsStream *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VCPU_TIMELINE_READY]);
}
