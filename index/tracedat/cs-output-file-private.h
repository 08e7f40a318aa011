/* cs-output-file-private.h: writing output files safely (temporary name,
 * rename, errno kept), shared by the trace.dat writer, the recorder
 * (index/capture/) and the text importer (index/import/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-record-error.h"

G_BEGIN_DECLS

/* Output files: created in the output's folder so that the final rename is
 * atomic and "disk full" is about the right file system.  When the recorder
 * runs as root for another user (pkexec), files are created with that
 * user's file-system identity (setfsuid), so the user's permissions on the
 * folder apply and the recording belongs to them.  uid/gid -1: keep ours. */

/* cs-output-file.c */
gboolean _cs_record_output_error (GError     **error,
                                  int          saved_errno,
                                  const char  *format,
                                  ...) G_GNUC_PRINTF (3, 4);
int      _cs_record_create_temp  (const char  *final_path,
                                  const char  *suffix,
                                  gint64       uid,
                                  gint64       gid,
                                  char       **temp_path,
                                  GError     **error);
gboolean _cs_record_rename       (const char  *from,
                                  const char  *to,
                                  gint64       uid,
                                  gint64       gid,
                                  GError     **error);
/* A hard link @to of @from (same folder), as the user. */
gboolean _cs_record_link         (const char  *from,
                                  const char  *to,
                                  gint64       uid,
                                  gint64       gid,
                                  GError     **error);
gboolean _cs_record_write_all    (int          fd,
                                  const void  *data,
                                  gsize        len,
                                  const char  *path,
                                  GError     **error);

G_END_DECLS
