/* cs-index-error.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-index-error.h"

G_DEFINE_QUARK (cs-index-error-quark, cs_index_error)
