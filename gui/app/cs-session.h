/* cs-session.h: saving and restoring what a window shows.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-window.h"

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
CsSession  *cs_session_capture         (CsWindow    *window);
CsSession  *cs_session_load            (const char  *path,
                                        GError     **error);
gboolean    cs_session_save            (CsSession   *session,
                                        const char  *path,
                                        GError     **error);
void        cs_session_free            (CsSession   *session);
const char *cs_session_get_recording   (CsSession   *session);
void        cs_session_restore         (CsSession   *session,
                                        CsWindow    *window);
gboolean    cs_session_open            (CsWindow    *window,
                                        const char  *path,
                                        GError     **error);
char       *cs_session_get_last_path   (void);
gboolean    cs_session_save_last       (CsWindow    *window,
                                        GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsSession, cs_session_free)

G_END_DECLS
