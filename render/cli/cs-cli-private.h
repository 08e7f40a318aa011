/* cs-cli-private.h: the commands that live in their own files, and what
 * cs-cli.c shares with them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

#include "cs-document.h"

G_BEGIN_DECLS

/* Loads @path through the index worker (as `info` does), reporting a
 * failure on stderr as "chronoscope COMMAND: ..."; NULL then. */
CsDocument *_cs_cli_load_document (const char   *command,
                                   const char   *path);
/* Reports @error about @path on stderr, naming the file once. */
void        _cs_cli_fail_file     (const char   *command,
                                   const char   *path,
                                   const GError *error);

/* Reports @message on stderr as "chronoscope COMMAND: MESSAGE". */
void        _cs_cli_fail          (const char   *command,
                                   const char   *message);
/* Parses the options of @command (argv[0] is its name), reporting a
 * failure on stderr; on success *@path is the one FILE argument. */
gboolean    _cs_cli_parse         (const char   *command,
                                   const char   *parameter_string,
                                   const char   *summary,
                                   GOptionEntry *entries,
                                   int           argc,
                                   char        **argv,
                                   const char  **path);

/* `chronoscope query FILE SQL`, cs-cli-query.c */
int         cs_cli_query          (int           argc,
                                   char        **argv);
/* `chronoscope stats FILE`, cs-cli-stats.c */
int         cs_cli_stats          (int           argc,
                                   char        **argv);
/* `chronoscope render FILE -o OUT.png|svg|pdf`, cs-cli-render.c */
int         cs_cli_render         (int           argc,
                                   char        **argv);

G_END_DECLS
