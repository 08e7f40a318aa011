/* cs-document-private.h: CsDocument's fields, shared by cs-document.c
 * (opening, small tables) and cs-document-queries.c (timeline queries).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include "cs-document.h"
#include "cs-index-private.h"

G_BEGIN_DECLS

typedef struct {
  gint64 chunk;           /* -1 when empty */
  guint64 first_row;
  guint n;
  guint missing;          /* bit (1 << EV_*) per column not decoded (a scan
                           * of some types leaves out the pid, a count by
                           * time all but the ts) */
  gint64 *cols[EV_N_COLUMNS];
} CsEventChunkCache;

/* One CPU's rows of event_chunk_types, read a block of block_chunks
 * chunks at a time (cs-chunk-types.c): blocks[b] is NULL until block b
 * is read. */
typedef struct _CsChunkTypesBlock CsChunkTypesBlock;
typedef struct {
  guint64 n_chunks;
  guint64 n_blocks;
  guint block_chunks;
  CsChunkTypesBlock **blocks;
} CsChunkTypes;
#define CS_CHUNK_TYPES_ANY G_MAXUINT16

struct _CsDocument
{
  GObject parent_instance;

  char *trace_path;
  char *index_path;
  char *identity;
  sqlite3 *db;
  CsTraceFile *trace_file;      /* opened on first use */

  char *clock;
  char *compression;            /* NULL when not compressed */
  char *source_format;          /* "trace.dat" or the kind of trace text */
  guint64 n_bad_lines;          /* of trace text */
  guint64 first_bad_line;
  guint file_version;
  guint n_cpus;
  guint64 n_events;
  gint64 first_ns;
  gint64 last_ns;
  guint summary_shift;
  guint summary_levels;
  gint64 summary_origin_ns;     /* where level 0 of the summaries starts */
  gint64 *offset_bases;         /* n_cpus: added to the chunks' offsets */

  CsCpuInfo *cpus;              /* n_cpus */
  GArray *event_types;          /* CsEventType, strings in @strings */
  GArray *tep_ids;              /* gint32: the format IDs of the types with events */
  GHashTable *cpu_type_counts;  /* (cpu << 20 | type) -> guint64* */
  GArray *tasks;                /* CsTask sorted by pid */
  GStringChunk *strings;

  sqlite3_stmt *ev_start;
  sqlite3_stmt *ev_range;
  sqlite3_stmt *sl_start;
  sqlite3_stmt *sl_range;
  sqlite3_stmt *ir_start;       /* prepared on first use (cs-document-irqs.c) */
  sqlite3_stmt *ir_range;
  sqlite3_stmt *mg_start;       /* prepared on first use (cs-document-migrations.c) */
  sqlite3_stmt *mg_range;
  GPtrArray **cpu_names;        /* kind x n_cpus, each NULL until read (cs-document-names.c) */
  sqlite3_stmt *summary;
  sqlite3_stmt *summary_runs;
  sqlite3_stmt *task_range;     /* prepared on first use */
  sqlite3_stmt *task_dir;       /* prepared on first use */
  sqlite3_stmt *task_chunk;     /* prepared on first use */
  /* pid -> GArray of its task_chunks rows without their data, at most
   * TASK_DIRS_MAX of them (cs-task-rows.c). */
  GHashTable *task_dirs;
  /* Walks of a task's chunks kept for its next spans (cs-task-timeline.c). */
  GPtrArray *task_walks;
  guint task_walk_next;
  sqlite3_stmt *ev_chunk;       /* prepared on first use */
  sqlite3_stmt *missed;         /* prepared on first use */

  /* Per CPU, the types each event chunk holds (event_chunk_types), read
   * a block at a time (cs-chunk-types.c). */
  CsChunkTypes *chunk_types;    /* n_cpus, or NULL */
  guint chunk_types_block;      /* chunks per block; 0: cs-chunk-types.c's */

  /* Per CPU, the last decoded event chunk (allocated on first use): every
   * frame of a zoomed-in view and every hover hits it. */
  CsEventChunkCache **chunk_caches;  /* n_cpus */
};

/* Event chunks by position, for CsEventList.  Every chunk but a CPU's last
 * holds exactly CS_EVENT_CHUNK_ROWS events, so the chunk of a CPU-local row
 * is row / CS_EVENT_CHUNK_ROWS. */
gint64             _cs_document_get_n_chunks   (CsDocument  *self,
                                                guint        cpu);
/* A row of switch_state_counts (cs-index-schema.c). */
typedef struct {
  guint cpu;
  gint type_id;
  gboolean is_null;
  gint64 prev_state;
  guint64 n_events;
} CsSwitchStateCount;

GArray            *_cs_document_dup_switch_states (CsDocument *self,
                                                   GError    **error);
/* What to add to the offsets of @cpu's event chunks decoded without
 * _cs_document_get_chunk() (cpus.offset_base: 0 but for a live index). */
gint64             _cs_document_get_offset_base (CsDocument *self,
                                                 guint       cpu);
CsEventChunkCache *_cs_document_get_chunk      (CsDocument  *self,
                                                guint        cpu,
                                                gint64       chunk,
                                                GError     **error);
gint64             _cs_document_find_chunk     (CsDocument  *self,
                                                guint        cpu,
                                                gint64       ts_ns,
                                                GError     **error);
guint64            _cs_document_count_before   (CsDocument  *self,
                                                guint        cpu,
                                                gint64       ts_ns,
                                                GError     **error);

/* Called for each event or slice of a span, in time order; return FALSE
 * to stop (cs-document-queries.c). */
typedef gboolean (*EventFunc) (const CsEvent *event, gpointer user_data);
typedef gboolean (*SliceFunc) (const CsSlice *slice, gpointer user_data);
/* A chunk's decoded columns (_cs_document_scan_chunk_rows()); FALSE stops. */
typedef gboolean (*ChunkRowsFunc) (gint64 *const *cols, guint n_rows, gpointer user_data);
/* Whether _cs_document_scan_chunk_rows() decodes a chunk, told from its
 * blob and row (first_ns, last_ns) before decoding. */
typedef enum { CHUNK_DECODE, CHUNK_PASS, CHUNK_STOP } ChunkPeek;
typedef ChunkPeek (*ChunkPeekFunc) (const guint8 *data, gsize size, guint n_rows,
                                    gint64 first_ns, gint64 last_ns, gpointer user_data);

/* Rows [@from, @to) of an event chunk, in a span; return FALSE to stop. */
typedef gboolean (*ChunkFunc) (const CsEventChunkCache *chunk, guint from, guint to,
                               gpointer user_data);

/* The event chunks of @cpu over [@begin_ns, @end_ns), each with its rows
 * in the span, in time order; @wanted (nullable, by type id, @n_types of
 * them): chunks holding none of those types are skipped undecoded (the
 * chunk's other types are in the rows: the caller looks at their type);
 * @skip: the columns the caller does not read, bit (1 << EV_*) each,
 * left undecoded (their cols[] then hold nothing of this chunk), and
 * cs-document-events.c's own UP_TO_WANTED (a chunk's rows after its last
 * of the @wanted types left out: chunk->n counts only those decoded).
 * Rows of a chunk stay valid until the document's next read of @cpu's
 * events. */
gboolean           _cs_document_scan_event_chunks (CsDocument     *self,
                                                   guint           cpu,
                                                   gint64          begin_ns,
                                                   gint64          end_ns,
                                                   const gboolean *wanted,
                                                   guint           n_types,
                                                   guint           skip,
                                                   ChunkFunc       func,
                                                   gpointer        user_data,
                                                   GError        **error);
/* The events of @cpu in [@begin_ns, @end_ns); @wanted (nullable, by type
 * id, @n_types of them): only those types, chunks holding none are
 * skipped undecoded, and the events' pid is -1 (not decoded). */
gboolean           _cs_document_scan_events    (CsDocument     *self,
                                                guint           cpu,
                                                gint64          begin_ns,
                                                gint64          end_ns,
                                                const gboolean *wanted,
                                                guint           n_types,
                                                EventFunc       func,
                                                gpointer        user_data,
                                                GError        **error);
/* Whether at most one event chunk of @cpu in four can hold the types
 * @wanted says (by the CPU's counts of them): where listing the chunks
 * that do from event_chunk_types pays. */
gboolean           _cs_document_types_are_rare (CsDocument     *self,
                                                guint           cpu,
                                                const gboolean *wanted,
                                                guint           n_types);
/* cs-chunk-types.c: event_chunk_types read whole (a pass, on first
 * call) or a span's blocks of it; whether a chunk may hold a type; the
 * last chunk of a short span; freeing it. */
void               _cs_document_read_chunk_types (CsDocument *self);
gboolean           _cs_document_read_chunk_types_span (CsDocument *self,
                                                       guint       cpu,
                                                       gint64      first,
                                                       gint64      last);
gint64             _cs_document_chunk_types_last_before (CsDocument *self,
                                                         guint       cpu,
                                                         gint64      first,
                                                         gint64      end_ns);
gboolean           _cs_document_chunk_may_hold_type (CsDocument *self,
                                                     guint       cpu,
                                                     gint64      chunk,
                                                     guint       type_id);
gboolean           _cs_document_chunk_may_hold  (CsDocument     *self,
                                                 guint           cpu,
                                                 gint64          chunk,
                                                 const gboolean *wanted,
                                                 guint           n_types);
void               _cs_document_free_chunk_types (CsDocument *self);
void               _cs_document_set_chunk_types_block (CsDocument *self,
                                                       guint       n_chunks);
/* The rows of @table's chunks of @cpu overlapping [@begin_ns, @end_ns)
 * (cs-document-queries.c says how). */
gboolean           _cs_document_scan_chunk_rows (CsDocument              *self,
                                                 sqlite3_stmt            *start,
                                                 sqlite3_stmt            *range,
                                                 const char              *table,
                                                 guint                    cpu,
                                                 gint64                   begin_ns,
                                                 gint64                   end_ns,
                                                 guint                    max_rows,
                                                 guint                    n_columns,
                                                 const CsChunkColumnMode *modes,
                                                 guint                    skip,
                                                 ChunkPeekFunc            peek,
                                                 ChunkRowsFunc            func,
                                                 gpointer                 user_data,
                                                 GError                 **error);
GPtrArray         *_cs_document_cpu_names      (CsDocument  *self,
                                                guint        cpu,
                                                int          kind,
                                                GError     **error);
void               _cs_document_free_cpu_names (CsDocument  *self);
/* The slices of @cpu overlapping [@begin_ns, @end_ns), by begin. */
gboolean           _cs_document_scan_slices    (CsDocument  *self,
                                                guint        cpu,
                                                gint64       begin_ns,
                                                gint64       end_ns,
                                                SliceFunc    func,
                                                gpointer     user_data,
                                                GError     **error);
/* Called for each span of a CPU's time the slices do not vouch for. */
typedef gboolean (*SpanFunc) (gint64 from_ns, gint64 to_ns, gpointer user_data);
/* The spans of [@begin_ns, @end_ns) over which @cpu's slices do not stand
 * in for its sched_switch records (cs-document-queries.c says which). */
gboolean           _cs_document_scan_unswitched (CsDocument  *self,
                                                 guint        cpu,
                                                 gint64       begin_ns,
                                                 gint64       end_ns,
                                                 SpanFunc     func,
                                                 gpointer     user_data,
                                                 GError     **error);
/* The gaps between @cpu's slices that are idle, overlapping [@begin_ns,
 * @end_ns) (cs-document-queries.c says which). */
gboolean           _cs_document_scan_idle      (CsDocument  *self,
                                                guint        cpu,
                                                gint64       begin_ns,
                                                gint64       end_ns,
                                                SpanFunc     func,
                                                gpointer     user_data,
                                                GError     **error);
/* The document's handle on its recording, opened on first use. */
CsTraceFile       *_cs_document_ensure_trace_file (CsDocument  *self,
                                                   GError     **error);

G_END_DECLS

