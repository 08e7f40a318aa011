/* cs-record-error.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-record-error.h"

G_DEFINE_QUARK (cs-record-error-quark, cs_record_error)

/* Stable names of the codes, used by the record-helper protocol so that the
 * window can tell a refusal from a crash without parsing messages. */
static const char * const nicks[] = {
  [CS_RECORD_ERROR_PERMISSION] = "permission",
  [CS_RECORD_ERROR_NO_TRACEFS] = "no-tracefs",
  [CS_RECORD_ERROR_UNKNOWN_EVENT] = "unknown-event",
  [CS_RECORD_ERROR_BAD_FILTER] = "bad-filter",
  [CS_RECORD_ERROR_TRACER_REFUSED] = "tracer-refused",
  [CS_RECORD_ERROR_BAD_OPTION] = "bad-option",
  [CS_RECORD_ERROR_DISK_FULL] = "disk-full",
  [CS_RECORD_ERROR_OUTPUT] = "output",
  [CS_RECORD_ERROR_COMMAND] = "command",
  [CS_RECORD_ERROR_BUSY] = "busy",
  [CS_RECORD_ERROR_FAILED] = "failed",
};

/**
 * cs_record_error_to_nick:
 * @code: a #CsRecordError code
 *
 * Returns: (transfer none): a stable lower-case name of @code ("bad-filter"),
 *   "failed" for an unknown code
 */
const char *
cs_record_error_to_nick (int code)
{
  if (code < 0 || code >= (int) G_N_ELEMENTS (nicks))
    return "failed";
  return nicks[code];
}

/**
 * cs_record_error_from_nick:
 * @nick: a name from cs_record_error_to_nick()
 *
 * Returns: the #CsRecordError code, %CS_RECORD_ERROR_FAILED when unknown
 */
int
cs_record_error_from_nick (const char *nick)
{
  for (guint i = 0; i < G_N_ELEMENTS (nicks); i++)
    if (g_strcmp0 (nick, nicks[i]) == 0)
      return (int) i;
  return CS_RECORD_ERROR_FAILED;
}
