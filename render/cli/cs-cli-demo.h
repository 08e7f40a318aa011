/* cs-cli-demo.h: `chronoscope demo`, the classroom scenarios.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <sys/types.h>

#include "cs-document.h"

G_BEGIN_DECLS

int      cs_cli_demo               (int           argc,
                                    char        **argv);
char   **cs_cli_demo_window_environ (char        **envp,
                                     uid_t         uid,
                                     const char   *home,
                                     const char   *runtime_root);

G_END_DECLS
