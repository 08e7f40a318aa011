/* index-test-util.h: what the index tests share: the project's recordings
 * and the oracles that read them with trace-cmd.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "cs-document.h"
#include "cs-tracedat-reader.h"
#include "cs-test-data.h"

G_BEGIN_DECLS

CsDocument *cs_test_load       (const char *name);
CsDocument *cs_test_load_path  (const char *path);
gboolean    cs_test_open_kvm_pair (CsTracedatReader **host,
                                   CsTracedatReader **guest);
GPtrArray  *cs_test_list_recordings (void);
JsonNode   *cs_test_run_oracle (const char *env_var,
                                const char *trace_path);
JsonArray  *cs_test_kmod_oracle_events (const char *trace_path);
JsonObject *cs_test_oracle_event (JsonArray  *events,
                                  const char *name,
                                  guint       nth);
guint64     cs_test_oracle_field (JsonObject *event,
                                  const char *field);
void        cs_test_assert_same_index (CsDocument *a,
                                       CsDocument *b);

G_END_DECLS
