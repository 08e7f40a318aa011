/* cs-session.h: saving and restoring what a window shows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cs-view-model.h"

G_BEGIN_DECLS

/**
 * CS_SESSION_ERROR:
 *
 * Errors reading a session file: %CS_SESSION_ERROR_INVALID for a file that
 * is not a Chronoscope session (or one from a newer version), JSON syntax
 * errors come as %JSON_PARSER_ERROR, file errors as %G_FILE_ERROR.
 */
#define CS_SESSION_ERROR (cs_session_error_quark ())

typedef enum {
  CS_SESSION_ERROR_INVALID,
} CsSessionError;

typedef struct _CsSession CsSession;

GQuark      cs_session_error_quark     (void);
CsSession  *cs_session_capture         (CsViewModel *model);
CsSession  *cs_session_load            (const char  *path,
                                        GError     **error);
gboolean    cs_session_save            (CsSession   *session,
                                        const char  *path,
                                        GError     **error);
CsSession  *cs_session_copy            (CsSession   *session);
void        cs_session_free            (CsSession   *session);
const char *cs_session_get_recording   (CsSession   *session);
const char * const *cs_session_get_disabled_plugins (CsSession *session);
void        cs_session_restore_geometry (CsSession  *session,
                                        CsViewModel *model);
void        cs_session_restore_view    (CsSession   *session,
                                        CsViewModel *model);
char       *cs_session_get_last_path   (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSession, cs_session_free)

G_END_DECLS
