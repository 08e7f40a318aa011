/* cs-text-cpu-pages.h: one CPU's events from text, put in time order and
 * written as ring-buffer pages to a temporary file.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The pages are those of the kernel's ring buffer as events/header_page
 * and events/header_event describe them (a 16-byte header: timestamp and
 * commit; then events with a 5-bit type_len and a 27-bit time delta,
 * type 30 extending the delta), with 8-byte longs, 4096 bytes a page.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/** CS_TEXT_CPU_PAGES_PAGE_BYTES: the size of the pages written */
#define CS_TEXT_CPU_PAGES_PAGE_BYTES 4096

typedef struct _CsTextCpuPages CsTextCpuPages;

CsTextCpuPages *cs_text_cpu_pages_new        (const char      *dir,
                                              gsize            window_bytes,
                                              GError         **error);
void            cs_text_cpu_pages_free       (CsTextCpuPages  *self);
gboolean        cs_text_cpu_pages_add        (CsTextCpuPages  *self,
                                              gint64           ts_ns,
                                              const guint8    *data,
                                              gsize            len,
                                              GError         **error);
void            cs_text_cpu_pages_add_missed (CsTextCpuPages *self,
                                              guint64          n_missed);
gboolean        cs_text_cpu_pages_finish     (CsTextCpuPages  *self,
                                              GError         **error);
int             cs_text_cpu_pages_get_fd     (CsTextCpuPages  *self);
guint64         cs_text_cpu_pages_get_size   (CsTextCpuPages  *self);
guint64         cs_text_cpu_pages_get_n_events (CsTextCpuPages *self);
guint64         cs_text_cpu_pages_get_n_late (CsTextCpuPages  *self);
guint64         cs_text_cpu_pages_get_n_reordered (CsTextCpuPages *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsTextCpuPages, cs_text_cpu_pages_free)

G_END_DECLS
