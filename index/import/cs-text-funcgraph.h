/* cs-text-funcgraph.h: the function_graph tracer's own text layout, turned
 * into funcgraph_entry / funcgraph_exit events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The layout is Documentation/trace/ftrace.rst's "function_graph" section:
 *
 *   [<abstime> |] <cpu>) [<comm>-<pid> |] [<flags> |] [<mark><dur> us] |  <body>
 *
 * where the body is `func() {`, `func();`, `}` (with funcgraph-tail
 * `} /\* func *\/`) or a comment `/\* ... *\/`, indented two blanks per
 * depth, and ` <cpu>)  <comm>-<pid>  =>  <comm>-<pid>` marks a context
 * switch.  Without funcgraph-abstime there is no timestamp: times are then
 * rebuilt per CPU from the durations (each function starts where the
 * previous one ended; a line with no duration advances by 1 µs), so the
 * picture keeps the calls' lengths and order but not the idle gaps.
 */
#pragma once

#include <glib.h>

#include "cs-text-line.h"

G_BEGIN_DECLS

typedef struct _CsTextFuncgraph CsTextFuncgraph;

/**
 * CsTextFuncgraphEmit:
 * @line: an event (funcgraph_entry, funcgraph_exit or print) with its
 *   fields as `key=value` text in @line->payload
 * @user_data: closure
 * @error: for the callee's failure
 *
 * Returns: %FALSE with @error set to stop
 */
typedef gboolean (*CsTextFuncgraphEmit) (const CsTextLine *line,
                                         gpointer          user_data,
                                         GError          **error);

gboolean          cs_text_funcgraph_is_line (const char          *line);
CsTextFuncgraph  *cs_text_funcgraph_new     (void);
void              cs_text_funcgraph_free    (CsTextFuncgraph     *self);
gboolean          cs_text_funcgraph_take    (CsTextFuncgraph     *self,
                                             char                *line,
                                             CsTextFuncgraphEmit  emit,
                                             gpointer             user_data,
                                             gboolean            *understood,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextFuncgraph, cs_text_funcgraph_free)

G_END_DECLS
