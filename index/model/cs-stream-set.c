/* cs-stream-set.c: the recordings of one window, on one time axis.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The rules are in cs-stream-set.h.  Relating is cheap but for a guest's
 * first relation, which opens its host's event formats and samples a few
 * pages per host CPU (cs_time_relation_new(), about 0.1 s); the set relates
 * every stream again on each change, so a guest keeps its relation while
 * its host stays the same stream.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "cs-stream-private.h"
#include "cs-stream-set.h"

struct _CsStreamSet
{
  GObject parent_instance;

  /* owned */
  GPtrArray *streams;   /* CsStream, display order */

  /* borrowed (weak) */
  CsStream *pinned;     /* the reference whatever the order, or NULL */
};

enum {
  SIGNAL_STREAM_UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void cs_stream_set_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsStreamSet, cs_stream_set, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      cs_stream_set_list_model_init))

static GType
list_get_item_type (GListModel *model)
{
  return CS_TYPE_STREAM;
}

static guint
list_get_n_items (GListModel *model)
{
  return CS_STREAM_SET (model)->streams->len;
}

static gpointer
list_get_item (GListModel *model, guint position)
{
  CsStreamSet *self = CS_STREAM_SET (model);

  if (position >= self->streams->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->streams, position));
}

static void
cs_stream_set_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

static void
cs_stream_set_dispose (GObject *object)
{
  CsStreamSet *self = CS_STREAM_SET (object);

  g_clear_weak_pointer (&self->pinned);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  G_OBJECT_CLASS (cs_stream_set_parent_class)->dispose (object);
}

static void
cs_stream_set_class_init (CsStreamSetClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cs_stream_set_dispose;

  /**
   * CsStreamSet::stream-updated:
   * @self: the set
   * @stream: the stream
   *
   * What views draw of @stream changed while the list did not: the host's
   * view of a guest's vCPUs, built in the background
   * (cs_stream_peek_vcpu_timeline()), is ready.  Views redraw; nothing
   * else need be read again.
   */
  signals[SIGNAL_STREAM_UPDATED] =
    g_signal_new ("stream-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 1, CS_TYPE_STREAM);
}

static void
cs_stream_set_init (CsStreamSet *self)
{
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * cs_stream_set_new:
 *
 * Returns: (transfer full): an empty set
 */
CsStreamSet *
cs_stream_set_new (void)
{
  return g_object_new (CS_TYPE_STREAM_SET, NULL);
}

/**
 * cs_stream_set_get_n_streams:
 * @self: a set
 *
 * Returns: how many streams it holds
 */
guint
cs_stream_set_get_n_streams (CsStreamSet *self)
{
  g_return_val_if_fail (CS_IS_STREAM_SET (self), 0);
  return self->streams->len;
}

/**
 * cs_stream_set_get_stream:
 * @self: a set
 * @position: 0 .. cs_stream_set_get_n_streams() - 1, top to bottom
 *
 * Returns: (transfer none): the stream there
 */
CsStream *
cs_stream_set_get_stream (CsStreamSet *self,
                          guint        position)
{
  g_return_val_if_fail (CS_IS_STREAM_SET (self), NULL);
  g_return_val_if_fail (position < self->streams->len, NULL);
  return g_ptr_array_index (self->streams, position);
}

/**
 * cs_stream_set_get_reference:
 * @self: a set
 *
 * Returns: (transfer none) (nullable): the stream whose clock is the axis
 *   (%CS_STREAM_ALIGNMENT_REFERENCE), %NULL when the set is empty
 */
CsStream *
cs_stream_set_get_reference (CsStreamSet *self)
{
  g_return_val_if_fail (CS_IS_STREAM_SET (self), NULL);
  for (guint i = 0; i < self->streams->len; i++)
    if (cs_stream_get_alignment (g_ptr_array_index (self->streams, i)) ==
        CS_STREAM_ALIGNMENT_REFERENCE)
      return g_ptr_array_index (self->streams, i);
  return NULL;
}

static CsStream *
find_trace_id (CsStreamSet *self, CsStream *except, guint64 id)
{
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);
      guint64 sid;

      if (s != except && cs_stream_get_trace_id (s, &sid) && sid == id)
        return s;
    }
  return NULL;
}

/* A stream that looks like a KVM host (a TRACEID and no TIME_SHIFT). */
static CsStream *
find_other_host (CsStreamSet *self, CsStream *except)
{
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);

      if (s != except && cs_stream_get_trace_id (s, NULL) &&
          !cs_stream_get_peer_trace_id (s, NULL))
        return s;
    }
  return NULL;
}

/* Relates @guest (which has a TIME_SHIFT option) to its host in the set.
 * Returns whether it is a related guest; otherwise *@why says why not. */
static gboolean
relate_guest (CsStreamSet *self, CsStream *guest, char **why)
{
  g_autoptr(GError) error = NULL;
  CsStream *host;
  CsTracedatReader *host_reader;
  CsTimeRelation *rel;
  guint64 peer = 0;
  g_autofree char *note = NULL;

  cs_stream_get_peer_trace_id (guest, &peer);
  host = find_trace_id (self, guest, peer);
  if (host == NULL)
    host = find_other_host (self, guest);
  if (host == NULL)
    {
      *why = g_strdup_printf (_("Not aligned: %s is a KVM guest's recording whose host "
                                "(trace ID 0x%016" PRIX64 ") is not open; add the host's "
                                "recording to align it."),
                              cs_stream_get_name (guest), peer);
      return FALSE;
    }
  /* a guest already related to this host keeps its relation, and with it
   * the host's view of its vCPUs: both depend on the two files only */
  rel = cs_stream_get_host (guest) == host ? _cs_stream_get_relation (guest) : NULL;
  host_reader = rel == NULL ? _cs_stream_get_full_reader (host, &error) : NULL;
  if (rel == NULL && host_reader != NULL)
    rel = cs_time_relation_new (host_reader, _cs_stream_get_reader (guest), &error);
  if (rel == NULL)
    {
      *why = g_strdup_printf (_("Not aligned with %s: %s"), cs_stream_get_name (host),
                              error->message);
      return FALSE;
    }
  {
    const CsTimeShift *shift = cs_time_relation_get_time_shift (rel);
    guint n = 0;

    for (guint v = 0; v < shift->n_vcpus; v++)
      n += shift->n_samples[v];
    note = g_strdup_printf (ngettext ("Guest of %s: times converted to the host's clock by "
                                      "its TIME_SHIFT option (%u vCPU, %u samples), per "
                                      "timestamp.",
                                      "Guest of %s: times converted to the host's clock by "
                                      "its TIME_SHIFT option (%u vCPUs, %u samples), per "
                                      "timestamp.", shift->n_vcpus),
                            cs_stream_get_name (host), shift->n_vcpus, n);
  }
  _cs_stream_set_alignment (guest, CS_STREAM_ALIGNMENT_GUEST, 0, host, rel, note);
  return TRUE;
}

/* Why @s is not on @ref's clock, or NULL when it is. */
static char *
clock_difference (CsStream *s, CsStream *ref)
{
  const char *h = cs_stream_get_host_name (s), *rh = cs_stream_get_host_name (ref);
  const char *c = cs_stream_get_clock (s), *rc = cs_stream_get_clock (ref);

  if (g_strcmp0 (c, rc) != 0)
    return g_strdup_printf (_("Not aligned: its trace clock (%s) is not %s's (%s)."),
                            c[0] != '\0' ? c : "?", cs_stream_get_name (ref),
                            rc[0] != '\0' ? rc : "?");
  if (h == NULL || rh == NULL)
    return g_strdup_printf (_("Not aligned: the recordings do not name their machines, so "
                              "nothing tells that %s and %s share a clock."),
                            cs_stream_get_name (s), cs_stream_get_name (ref));
  if (g_strcmp0 (h, rh) != 0)
    return g_strdup_printf (_("Not aligned: recorded on %s, not on %s like %s."), h, rh,
                            cs_stream_get_name (ref));
  return NULL;
}

/* The reference keeps a related guest's relation (its host maps through
 * it) and says so; @why: why it is not related, or NULL. */
static void
relate_reference (CsStream *ref, const char *why)
{
  CsTimeRelation *rel = _cs_stream_get_relation (ref);
  CsStream *host = cs_stream_get_host (ref);
  g_autofree char *note = NULL;

  if (why == NULL && rel != NULL && host != NULL &&
      cs_stream_get_alignment (ref) == CS_STREAM_ALIGNMENT_GUEST)
    {
      note = g_strdup_printf (_("Guest of %s, whose times are converted to this recording's "
                                "clock by its TIME_SHIFT option, inverted, per timestamp."),
                              cs_stream_get_name (host));
      _cs_stream_set_alignment (ref, CS_STREAM_ALIGNMENT_REFERENCE, 0, host, rel, note);
      return;
    }
  _cs_stream_set_alignment (ref, CS_STREAM_ALIGNMENT_REFERENCE, 0, NULL, NULL,
                            why != NULL ? why : "");
}

static void
relate (CsStreamSet *self)
{
  g_autoptr(GHashTable) notes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  CsStream *ref = NULL;

  /* 1. guests */
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);
      char *why = NULL;

      if (cs_stream_get_peer_trace_id (s, NULL) && !relate_guest (self, s, &why))
        g_hash_table_insert (notes, s, why);
    }

  /* 2. the reference: the pinned stream, else the first one that is not a
   * related guest */
  if (self->pinned != NULL && g_ptr_array_find (self->streams, self->pinned, NULL))
    ref = self->pinned;
  for (guint i = 0; ref == NULL && i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);

      if (cs_stream_get_alignment (s) != CS_STREAM_ALIGNMENT_GUEST ||
          cs_stream_get_host (s) == NULL || g_hash_table_contains (notes, s))
        ref = s;
    }

  /* 3. everything else against it */
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);
      const char *why = g_hash_table_lookup (notes, s);
      g_autofree char *diff = NULL;
      g_autofree char *placed = NULL;
      gint64 base;

      if (s == ref)
        {
          relate_reference (s, why);
          continue;
        }
      if (why == NULL && cs_stream_get_alignment (ref) == CS_STREAM_ALIGNMENT_REFERENCE &&
          _cs_stream_get_relation (ref) != NULL && cs_stream_get_host (ref) == s)
        {
          g_autofree char *note = g_strdup_printf (_("Host of %s: times converted to the "
                                                     "guest's clock by the inverse of its "
                                                     "TIME_SHIFT option, per timestamp."),
                                                   cs_stream_get_name (ref));

          _cs_stream_set_alignment (s, CS_STREAM_ALIGNMENT_HOST, 0, NULL, NULL, note);
          _cs_stream_set_reference_guest (s, ref);
          continue;
        }
      if (why == NULL && cs_stream_get_alignment (s) == CS_STREAM_ALIGNMENT_GUEST &&
          cs_stream_get_host (s) != NULL)
        continue;
      if (why == NULL)
        diff = clock_difference (s, ref);
      if (why == NULL && diff == NULL)
        {
          g_autofree char *same = g_strdup_printf (_("Same machine and clock as %s: times "
                                                     "as recorded."),
                                                   cs_stream_get_name (ref));
          _cs_stream_set_alignment (s, CS_STREAM_ALIGNMENT_AS_RECORDED, 0, NULL, NULL, same);
          continue;
        }
      base = cs_document_get_first_ns (cs_stream_get_document (ref)) -
             cs_document_get_first_ns (cs_stream_get_document (s));
      {
        const char *reason = why != NULL ? why : diff;
        g_autofree char *sentence = g_str_has_suffix (reason, ".") ? g_strdup (reason)
                                                                   : g_strconcat (reason, ".", NULL);

        /* TRANSLATORS: the first %s is why two recordings are not aligned,
         * one sentence or more */
        placed = g_strdup_printf (_("%s Its start is placed at %s's start; shift it by hand "
                                    "to align it."), sentence, cs_stream_get_name (ref));
      }
      _cs_stream_set_alignment (s, CS_STREAM_ALIGNMENT_UNRELATED, base, NULL, NULL, placed);
    }
}

static void
on_stream_updated (CsStream *stream, GParamSpec *pspec, CsStreamSet *self)
{
  g_signal_emit (self, signals[SIGNAL_STREAM_UPDATED], 0, stream);
}

static void
on_stream_changed (CsStream *stream, GParamSpec *pspec, CsStreamSet *self)
{
  guint pos;

  if (cs_stream_set_find (self, stream, &pos))
    g_list_model_items_changed (G_LIST_MODEL (self), pos, 1, 1);
}

/**
 * cs_stream_set_add:
 * @self: a set
 * @document: an open recording
 * @name: (nullable): its display name, %NULL for the file's base name
 *
 * Adds @document as the last stream and relates every stream again (see
 * the header).  Emits #GListModel::items-changed, and again for a stream
 * whenever its offset, collapsed or hidden state changes.  Costs the stream's
 * header read and, for a guest or the host of an open guest, one
 * cs_time_relation_new().
 *
 * Returns: (transfer none): the new stream
 */
CsStream *
cs_stream_set_add (CsStreamSet *self,
                   CsDocument  *document,
                   const char  *name)
{
  CsStream *stream;

  g_return_val_if_fail (CS_IS_STREAM_SET (self), NULL);
  g_return_val_if_fail (CS_IS_DOCUMENT (document), NULL);

  stream = cs_stream_new (document, name);
  g_ptr_array_add (self->streams, stream);
  relate (self);
  g_signal_connect_object (stream, "notify::offset-ns", G_CALLBACK (on_stream_changed),
                           self, 0);
  g_signal_connect_object (stream, "notify::collapsed", G_CALLBACK (on_stream_changed),
                           self, 0);
  g_signal_connect_object (stream, "notify::hidden", G_CALLBACK (on_stream_changed),
                           self, 0);
  g_signal_connect_object (stream, "notify::vcpu-timeline-ready",
                           G_CALLBACK (on_stream_updated), self, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, self->streams->len - 1,
                              self->streams->len);
  return stream;
}

/**
 * cs_stream_set_find:
 * @self: a set
 * @stream: a stream
 * @position: (out) (optional): where it is
 *
 * Returns: whether @stream is in @self
 */
gboolean
cs_stream_set_find (CsStreamSet *self,
                    CsStream    *stream,
                    guint       *position)
{
  g_return_val_if_fail (CS_IS_STREAM_SET (self), FALSE);
  return g_ptr_array_find (self->streams, stream, position);
}

/**
 * cs_stream_set_find_path:
 * @self: a set
 * @trace_path: a recording's file, as cs_document_get_trace_path() says it
 *
 * Returns: (transfer none) (nullable): the stream of that file
 */
CsStream *
cs_stream_set_find_path (CsStreamSet *self,
                         const char  *trace_path)
{
  g_return_val_if_fail (CS_IS_STREAM_SET (self), NULL);
  for (guint i = 0; i < self->streams->len; i++)
    if (g_strcmp0 (cs_stream_get_path (g_ptr_array_index (self->streams, i)), trace_path) == 0)
      return g_ptr_array_index (self->streams, i);
  return NULL;
}

/**
 * cs_stream_set_remove:
 * @self: a set
 * @stream: one of its streams
 *
 * Closes @stream (drops the set's reference) and relates the others again:
 * a guest whose host is closed becomes unrelated, with a note.
 */
void
cs_stream_set_remove (CsStreamSet *self,
                      CsStream    *stream)
{
  guint pos, n;

  g_return_if_fail (CS_IS_STREAM_SET (self));
  if (!g_ptr_array_find (self->streams, stream, &pos))
    return;
  g_signal_handlers_disconnect_by_data (stream, self);
  g_ptr_array_remove_index (self->streams, pos);
  relate (self);
  n = self->streams->len;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n + 1, n);
}

/**
 * cs_stream_set_move:
 * @self: a set
 * @stream: one of its streams
 * @position: its new place, 0 .. n - 1 (larger: last)
 *
 * Reorders the streams; moving another stream first makes it the reference
 * unless it is a related guest.
 */
void
cs_stream_set_move (CsStreamSet *self,
                    CsStream    *stream,
                    guint        position)
{
  guint pos;

  g_return_if_fail (CS_IS_STREAM_SET (self));
  if (!g_ptr_array_find (self->streams, stream, &pos))
    return;
  position = MIN (position, self->streams->len - 1);
  if (position == pos)
    return;
  g_ptr_array_steal_index (self->streams, pos);
  g_ptr_array_insert (self->streams, (int) position, stream);
  relate (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, self->streams->len,
                              self->streams->len);
}

/**
 * cs_stream_set_set_reference:
 * @self: a set
 * @stream: (nullable): one of its streams, or %NULL for the default
 *
 * Makes @stream the reference whatever the order (a window keeps its own
 * recording's clock as its axis): a related KVM guest as reference puts
 * its host on the guest's clock (%CS_STREAM_ALIGNMENT_HOST).  Relates the
 * streams again.
 */
void
cs_stream_set_set_reference (CsStreamSet *self,
                             CsStream    *stream)
{
  g_return_if_fail (CS_IS_STREAM_SET (self));
  g_set_weak_pointer (&self->pinned, stream);
  relate (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, self->streams->len, self->streams->len);
}

/**
 * cs_stream_set_get_span:
 * @self: a set
 * @begin_ns: (out): the earliest first event of its visible streams, on the axis
 * @end_ns: (out): the latest last event, on the axis
 *
 * Returns: %FALSE when no visible stream has events (the outs untouched)
 */
gboolean
cs_stream_set_get_span (CsStreamSet *self,
                        gint64      *begin_ns,
                        gint64      *end_ns)
{
  gboolean any = FALSE;
  gint64 b = 0, e = 0;

  g_return_val_if_fail (CS_IS_STREAM_SET (self), FALSE);
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (self->streams, i);
      CsDocument *doc = cs_stream_get_document (s);
      gint64 f, l;

      if (cs_stream_get_hidden (s) || cs_document_get_n_events (doc) == 0)
        continue;
      f = cs_stream_to_axis_ns (s, 0, cs_document_get_first_ns (doc));
      l = cs_stream_to_axis_ns (s, 0, cs_document_get_last_ns (doc));
      b = any ? MIN (b, f) : f;
      e = any ? MAX (e, l) : l;
      any = TRUE;
    }
  if (any)
    {
      *begin_ns = b;
      *end_ns = e;
    }
  return any;
}
