/* malloc0-garbage.c: an LD_PRELOAD shim for test-tracedat-writer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * malloc(0) returns a block that starts with the text "[garbage]", which
 * is what heap garbage held about one time in 256 when libtracecmd parsed
 * an empty TRACECLOCK option as clock text (and trace-cmd report then
 * printed raw counts instead of seconds).  Under this shim that reading
 * goes wrong every time, so a file that depends on it fails at once.
 * Anything else is glibc's own malloc; the block is glibc's too, so free()
 * and realloc() take it.  The contents of a fresh block are unspecified:
 * no correct program notices.
 */
#include <stddef.h>
#include <string.h>

extern void *__libc_malloc (size_t size);

void *malloc (size_t size);

void *
malloc (size_t size)
{
  static const char garbage[] = "[garbage]";
  char *block;

  if (size != 0)
    return __libc_malloc (size);
  block = __libc_malloc (sizeof garbage);
  if (block != NULL)
    memcpy (block, garbage, sizeof garbage);
  return block;
}
