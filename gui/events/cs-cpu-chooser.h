/* cs-cpu-chooser.h: a popover choosing which CPU plots show.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

#define CS_TYPE_CPU_CHOOSER (cs_cpu_chooser_get_type ())
G_DECLARE_FINAL_TYPE (CsCpuChooser, cs_cpu_chooser, CS, CPU_CHOOSER, GtkPopover)

GtkWidget *cs_cpu_chooser_new (CsAnalysis *analysis);

G_END_DECLS
