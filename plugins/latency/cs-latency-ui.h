/* cs-latency-ui.h: the latency plugin's per-recording state, its page,
 * its timeline layer and the virtual list of pairs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One CsLatency per recording (the plugin's instance, cs-latency-plugin.c)
 * holds the definition whose results the window shows: the page
 * (cs-latency-page.c, its content cs-latency-content.c) asks for a
 * definition's pass with _cs_latency_run(), and once the pass is ready
 * the page and the layer (cs-latency-layer.c) read its database.  The
 * page's widgets are templates (G_DECLARE_FINAL_TYPE below, their
 * layouts in cs-latency.gresource.xml).  Everything runs on the main
 * thread.
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-latency-stats.h"
#include "explain/cs-explain.h"

G_BEGIN_DECLS

/**
 * CsLatencyReadyFunc:
 * @data: what _cs_latency_add_listener() was given
 *
 * The definition shown changed: its results can be read.
 */
typedef void (*CsLatencyReadyFunc) (gpointer data);

/**
 * CsLatencyExplained:
 * @links: (element-type CsExplainLink) (nullable): for a wakeup pair,
 *   its wakeup chain, link 0 the pair itself
 * @alone: (nullable): for another pair, the breakdown of B's CPU
 * @stop: why @links ends where it does
 * @contributor: the contributor of the breakdown shown
 *   (_cs_latency_explained_get_shown()) whose slices the timeline
 *   highlights (an index into its contributors), -1 for none
 * @link: the chain link the timeline highlights and whose breakdown the
 *   page shows, -1 for none (the pair's own)
 *
 * The pair the page explains, as the layer `explain`
 * (cs-latency-explain-layer.c) draws it over the CPU plots.
 */
typedef struct {
  GArray *links;
  CsExplainBreakdown *alone;
  CsExplainStop stop;
  int contributor;
  int link;
} CsLatencyExplained;

void _cs_latency_explained_free (CsLatencyExplained *explained);
const CsExplainBreakdown *_cs_latency_explained_get_shown (const CsLatencyExplained *explained);

/**
 * CsLatency:
 * @plugin: the latency plugin
 * @document: the recording (borrowed; outlives the instance)
 * @param: (nullable): the definition whose results are shown (its pass
 *   is ready), %NULL until one ran
 * @requested: (nullable): the definition asked for, its pass not ready yet
 * @pairs: (element-type CsLatencyPairInfo) (nullable): @param's pairs of
 *   event types, for keys and labels
 * @listeners: pages to tell when @param changes
 * @layer_stmt: (nullable): the task layer's prepared query on @param's
 *   database
 * @cpu_layer_stmt: the CPU layer's two queries (a range of rowids, a row
 *   by rowid), %NULL until prepared
 * @longest: (nullable): the CPU layer's copy of @param's longest pairs
 *   (cs-latency-layer.c), bounded
 * @explained: (nullable): the pair the page explains, drawn by the layer
 *   `explain`
 * @blockers_param: (nullable): the parameter of the pass `blockers` whose
 *   results came last ("wakeup>=NS")
 *
 * The plugin's instance for one recording.
 */
typedef struct {
  CsPlugin *plugin;
  CsPluginDocument *document;
  char *param;
  char *requested;
  GPtrArray *pairs;
  GArray *listeners;
  sqlite3_stmt *layer_stmt;
  sqlite3_stmt *cpu_layer_stmt[2];
  GArray *longest;
  CsLatencyExplained *explained;
  char *blockers_param;
} CsLatency;

CsLatency *_cs_latency_new             (CsPlugin           *plugin,
                                        CsPluginDocument   *document);
void       _cs_latency_free            (CsLatency          *self);
void       _cs_latency_run             (CsLatency          *self,
                                        const char         *param);
void       _cs_latency_pass_ready      (CsLatency          *self,
                                        const char         *param);
sqlite3   *_cs_latency_get_db          (CsLatency          *self);
const char *_cs_latency_get_title      (CsLatency          *self);
void       _cs_latency_add_listener    (CsLatency          *self,
                                        CsLatencyReadyFunc  ready,
                                        CsLatencyReadyFunc  gone,
                                        gpointer            data);
void       _cs_latency_remove_listener (CsLatency          *self,
                                        gpointer            data);
void       _cs_latency_set_blockers_listener (CsLatency    *self,
                                              gpointer      data,
                                              CsLatencyReadyFunc blockers);

/**
 * CsLatencyCustomFunc:
 * @param: a definition the user wrote in the dialog, checked with
 *   cs_latency_def_new()
 * @data: what _cs_latency_custom_dialog_show() was given
 */
typedef void (*CsLatencyCustomFunc) (const char *param,
                                     gpointer    data);

/* The dialog "Custom pair" (cs-latency-custom.c). */
#define CS_LATENCY_TYPE_CUSTOM_DIALOG (cs_latency_custom_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyCustomDialog, cs_latency_custom_dialog, CS_LATENCY, CUSTOM_DIALOG, GtkWindow)

GtkWindow *_cs_latency_custom_dialog_show (CsLatency           *latency,
                                           GtkWindow           *parent,
                                           const char          *initial,
                                           CsLatencyCustomFunc  done,
                                           gpointer             data);

char     **_cs_latency_saved_get_custom (CsPluginDocument *document);
char      *_cs_latency_saved_get_shown  (CsPluginDocument *document);
void       _cs_latency_saved_add_custom (CsPluginDocument *document,
                                         const char       *param);
void       _cs_latency_saved_set_shown  (CsPluginDocument *document,
                                         const char       *param);

/* The page "Latency" (cs-latency-page.c) and what it shows of one
 * recording (cs-latency-content.c). */
#define CS_LATENCY_TYPE_PAGE (cs_latency_page_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyPage, cs_latency_page, CS_LATENCY, PAGE, GtkBox)
#define CS_LATENCY_TYPE_CONTENT (cs_latency_content_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyContent, cs_latency_content, CS_LATENCY, CONTENT, GtkBox)

void       _cs_latency_add_page        (CsPlugin           *plugin);
GtkWidget *_cs_latency_content_new     (CsLatency          *latency,
                                        CsPluginWindow     *window);
void       _cs_latency_content_set_window_range (CsLatencyContent *self,
                                                 gint64            begin_ns,
                                                 gint64            end_ns);
void       _cs_latency_content_show    (CsLatencyContent   *self,
                                        const char         *param);
void       _cs_latency_add_layer       (CsPlugin           *plugin);
void       _cs_latency_add_explain_layer (CsPlugin         *plugin);

/* Why the pair activated last was late, beside the page's list
 * (cs-latency-explain-view.c); a contributor of its breakdown
 * (cs-latency-contributor-row.c) and a step of its wakeup chain
 * (cs-latency-link-row.c) as lines of its lists. */
#define CS_LATENCY_TYPE_EXPLAIN_VIEW (cs_latency_explain_view_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyExplainView, cs_latency_explain_view, CS_LATENCY, EXPLAIN_VIEW, GtkBox)
#define CS_LATENCY_TYPE_CONTRIBUTOR_ROW (cs_latency_contributor_row_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyContributorRow, cs_latency_contributor_row, CS_LATENCY, CONTRIBUTOR_ROW,
                      GtkListBoxRow)
#define CS_LATENCY_TYPE_LINK_ROW (cs_latency_link_row_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyLinkRow, cs_latency_link_row, CS_LATENCY, LINK_ROW, GtkListBoxRow)

void       _cs_latency_explain_view_set_latency (CsLatencyExplainView *self,
                                                 CsLatency            *latency,
                                                 CsPluginWindow       *window);
gboolean   _cs_latency_explain_view_show (CsLatencyExplainView *self,
                                          const CsLatencyItem  *item);
void       _cs_latency_explain_view_clear (CsLatencyExplainView *self,
                                           gboolean              gone);
GtkWidget *_cs_latency_contributor_row_new (const CsExplainContributor *contributor,
                                            gint64                      total_ns);
void       _cs_latency_contributor_fill    (cairo_t                    *cr,
                                            const CsExplainContributor *contributor,
                                            double                      x,
                                            double                      y,
                                            double                      width,
                                            double                      height);
char      *_cs_latency_format_share        (gint64                      ns,
                                            gint64                      total_ns);
GtkWidget *_cs_latency_link_row_new (CsPluginDocument    *document,
                                     const CsExplainLink *link);

/* Top blockers beside the histogram (cs-latency-blockers-view.c), a
 * line of its list (cs-latency-blocker-row.c). */
#define CS_LATENCY_TYPE_BLOCKERS_VIEW (cs_latency_blockers_view_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyBlockersView, cs_latency_blockers_view, CS_LATENCY, BLOCKERS_VIEW, GtkBox)
#define CS_LATENCY_TYPE_BLOCKER_ROW (cs_latency_blocker_row_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyBlockerRow, cs_latency_blocker_row, CS_LATENCY, BLOCKER_ROW, GtkListBoxRow)

void       _cs_latency_blockers_view_set_latency (CsLatencyBlockersView *self,
                                                  CsLatency             *latency);
void       _cs_latency_blockers_view_reset (CsLatencyBlockersView *self,
                                            gboolean               gone);
void       _cs_latency_blockers_view_ready (CsLatencyBlockersView *self);
GArray    *_cs_latency_blockers_view_dup_pairs (CsLatencyBlockersView  *self,
                                                char                  **what);
GtkWidget *_cs_latency_blocker_row_new (const CsExplainContributor *contributor);

void       _cs_latency_histogram_init  (GtkDrawingArea     *area,
                                        CsLatencyReadyFunc  selected,
                                        gpointer            data);
void       _cs_latency_histogram_set   (GtkDrawingArea     *area,
                                        GArray             *bars);
int        _cs_latency_histogram_get_selected (GtkDrawingArea *area);
void       _cs_latency_histogram_select       (GtkDrawingArea *area,
                                               int             bar);

#define CS_LATENCY_TYPE_ROW (cs_latency_row_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyRow, cs_latency_row, CS_LATENCY, ROW, GObject)

CsLatencyRow        *cs_latency_row_new      (const CsLatencyItem *item);
const CsLatencyItem *cs_latency_row_get_item (CsLatencyRow        *self);

#define CS_LATENCY_TYPE_ROWS (cs_latency_rows_get_type ())
G_DECLARE_FINAL_TYPE (CsLatencyRows, cs_latency_rows, CS_LATENCY, ROWS, GObject)

CsLatencyRows *cs_latency_rows_new       (void);
void           cs_latency_rows_set_query (CsLatencyRows *self,
                                          sqlite3       *db,
                                          gint64         begin_ns,
                                          gint64         end_ns,
                                          gint64         min_dur_ns,
                                          gint64         max_dur_ns,
                                          guint64        n_pairs);
void           cs_latency_rows_set_items (CsLatencyRows *self,
                                          GArray        *items);

G_END_DECLS
