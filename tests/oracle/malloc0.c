/* malloc0.c: an LD_PRELOAD shim that decides what malloc(0) returns.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * trace-cmd report (3.1.6) parses a recording's TRACECLOCK option from a
 * block of the option's size; for an empty option that is malloc(0), and
 * tracecmd_parse_trace_clock() reads past its end (valgrind: "Invalid read
 * of size 1 ... 0 bytes after a block of size 0").  Whatever heap garbage
 * lies there becomes the clock: about one time in 256 it reads as a clock
 * without seconds, report prints raw counts instead of "SECONDS.NANOS:",
 * and an oracle that parses report's text counts no event at all.  The
 * public i686 recordings have an empty TRACECLOCK option, so the oracles
 * over them failed now and then (funcgraph-oracle in CI).
 *
 * Under this shim malloc(0) returns a block that holds the text of
 * $CS_MALLOC0_TEXT, or an empty string when it is unset: the oracles run
 * trace-cmd through the tests' trace-cmd wrapper (trace-cmd.in), which
 * preloads it, so report reads an empty clock every time.  The writer's
 * test sets CS_MALLOC0_TEXT=[garbage] to make the wrong reading happen
 * every time instead, so a file of ours that depends on it fails at once.
 * Anything else is glibc's own malloc; the block is glibc's too, so free()
 * and realloc() take it.  The contents of a fresh block are unspecified:
 * no correct program notices.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc (size_t size);

void *malloc (size_t size);

void *
malloc (size_t size)
{
  const char *text;
  size_t len;
  char *block;

  if (size != 0)
    return __libc_malloc (size);
  /* getenv() allocates nothing, so it is safe inside malloc(). */
  text = getenv ("CS_MALLOC0_TEXT");
  if (text == NULL)
    text = "";
  len = strlen (text) + 1;
  block = __libc_malloc (len < 16 ? 16 : len);
  if (block != NULL)
    {
      memset (block, 0, len < 16 ? 16 : len);
      memcpy (block, text, len);
    }
  return block;
}
