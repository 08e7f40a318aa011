/* cs-recording-filters.h: the file chooser filters for the recordings
 * Chronoscope reads.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void cs_recording_filters_add (GtkFileChooser *chooser);

G_END_DECLS
