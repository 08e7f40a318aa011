/* cs-text-html.h: the ftrace text inside Android systrace / atrace HTML.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * systrace (catapult's trace-viewer) writes the trace as text inside
 * `<script class="trace-data" type="application/text">` … `</script>`
 * blocks of an HTML page; older versions as a JavaScript string,
 * `var linuxPerfData = "\` with each line ending in `\n\`.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsTextHtml CsTextHtml;

gboolean    cs_text_html_sniff  (const char *head);
CsTextHtml *cs_text_html_new    (void);
void        cs_text_html_free   (CsTextHtml *self);
gboolean    cs_text_html_unwrap (CsTextHtml *self,
                                 char       *line);
guint       cs_text_html_get_n_blocks (CsTextHtml *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextHtml, cs_text_html_free)

G_END_DECLS
