/* cs-test-data.c: where the C tests find their recordings.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tests/data is the project's and is always there: its absence is a setup
 * fault, so cs_test_own_path() fails.  ../shared/testdata/public (meson
 * sets $CS_SHARED_TESTDATA to it) sits beside a developer's or CI's clone
 * only: a test that reads it skips (g_test_skip(), or a test case that
 * only skips) with a message naming the missing folder or file.
 */
#include "cs-test-data.h"

#include <string.h>

/**
 * cs_test_own_path:
 * @name: a file name under tests/data (may hold a subfolder)
 *
 * Returns: (transfer full): the path of @name in $CS_TESTDATA (tests/data,
 *   set by meson).  Fails the test when $CS_TESTDATA is unset or @name is
 *   not there.
 */
char *
cs_test_own_path (const char *name)
{
  const char *dir = g_getenv ("CS_TESTDATA");
  char *path;

  if (dir == NULL)
    g_error ("$CS_TESTDATA is not set: run the tests with meson test");
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_error ("Missing recording %s (tests/data is part of the repository)", path);
  return path;
}

/**
 * cs_test_public_dir:
 *
 * Returns: (nullable): the public recordings' folder ($CS_SHARED_TESTDATA,
 *   ../shared/testdata/public beside the source tree), or %NULL when it is
 *   not a directory.
 */
const char *
cs_test_public_dir (void)
{
  const char *dir = g_getenv ("CS_SHARED_TESTDATA");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return dir;
}

/* Why @name cannot be read (transfer full), or NULL when it can; @path_out
 * gets its path then. */
static char *
public_missing (const char *name,
                char      **path_out)
{
  const char *dir = cs_test_public_dir ();
  g_autofree char *path = NULL;

  if (dir == NULL)
    return g_strdup_printf ("no public recordings: %s is absent (it sits beside CI's "
                            "clone, not a fresh one)",
                            g_getenv ("CS_SHARED_TESTDATA") ? g_getenv ("CS_SHARED_TESTDATA")
                                                            : "$CS_SHARED_TESTDATA");
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_strdup_printf ("public recording %s is absent", path);
  *path_out = g_steal_pointer (&path);
  return NULL;
}

/**
 * cs_test_public_path:
 * @name: a file name under ../shared/testdata/public (may hold a subfolder,
 *   as `text/raw-tgid.txt`)
 *
 * The public recording @name, or a skipped test: call it from a test
 * function and return when it gives %NULL.
 *
 * Returns: (transfer full) (nullable): the path of @name, or %NULL after
 *   g_test_skip() with a message naming the missing folder or file.
 */
char *
cs_test_public_path (const char *name)
{
  char *path = NULL;
  g_autofree char *why = public_missing (name, &path);

  if (why != NULL)
    g_test_skip (why);
  return path;
}

/**
 * cs_test_path:
 * @name: `public/NAME` for the public recording NAME, else a name in
 *   tests/data
 *
 * One test function for both kinds of recordings, registered once per
 * recording: cs_test_public_path() or cs_test_own_path() by @name.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL after
 *   g_test_skip() when a public recording is absent.
 */
char *
cs_test_path (const char *name)
{
  if (g_str_has_prefix (name, "public/"))
    return cs_test_public_path (name + strlen ("public/"));
  return cs_test_own_path (name);
}

static void
skip_test (gconstpointer why)
{
  g_test_skip (why);
}

/**
 * cs_test_public_or_add_skip:
 * @test_path: the test case's path, as for g_test_add()
 * @name: the public recording the test case reads
 *
 * For test cases with fixtures, whose function runs even when the set-up
 * skips: call it before g_test_add() and add the test case only when it
 * returns %TRUE.  Otherwise it has added, at @test_path, a test case that
 * only skips, naming the missing folder or file.
 *
 * Returns: whether @name is there.
 */
gboolean
cs_test_public_or_add_skip (const char *test_path,
                            const char *name)
{
  g_autofree char *path = NULL;
  char *why = public_missing (name, &path);

  if (why == NULL)
    return TRUE;
  g_test_add_data_func_full (test_path, why, skip_test, g_free);
  return FALSE;
}

/* ../shared/testdata/kvm/@name, or NULL with the test skipped (and a
 * message) when that folder is absent. */
char *
cs_test_kvm_path (const char *name)
{
  const char *pub = cs_test_public_dir ();
  g_autofree char *dir = pub != NULL ? g_build_filename (pub, "..", "kvm", NULL) : NULL;
  char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("../shared/testdata/kvm is absent: the real KVM pair is not here");
      g_free (path);
      return NULL;
    }
  return path;
}
