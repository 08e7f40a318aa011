/* cs-test-data.h: where the C tests find their recordings: the project's
 * own in tests/data ($CS_TESTDATA), the public ones of
 * ../shared/testdata/public ($CS_SHARED_TESTDATA), which a fresh clone does
 * not have: a test that needs one skips, naming the missing folder; and
 * the real KVM host/guest pair of ../shared/testdata/kvm.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char       *cs_test_own_path            (const char *name);
const char *cs_test_public_dir          (void);
char       *cs_test_public_path         (const char *name);
char       *cs_test_path                (const char *name);
gboolean    cs_test_public_or_add_skip  (const char *test_path,
                                         const char *name);
char       *cs_test_kvm_path            (const char *name);

G_END_DECLS
