/* cs-plot-args.h: the lists of CPUs and tasks given on the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cs-document.h"

G_BEGIN_DECLS

GArray  *cs_plot_args_parse_cpus  (const char  *text,
                                   GError     **error);
char    *cs_plot_args_format_cpus (const guint *cpus,
                                   guint        n_cpus);
GArray  *cs_plot_args_parse_pids  (const char  *text,
                                   GError     **error);
GStrv    cs_plot_args_split_comms (const char  *text);
void     cs_plot_args_add_tasks_by_comm (CsDocument         *document,
                                         const char * const *comms,
                                         GArray             *pids);
GArray  *cs_plot_args_select_cpus (CsDocument  *document,
                                   GArray      *requested);

G_END_DECLS
