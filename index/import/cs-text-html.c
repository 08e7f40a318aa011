/* cs-text-html.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A line-by-line state machine: lines outside the trace data are skipped
 * (they are the page and its JavaScript, not trace text); a trace-data
 * block that holds JSON (systrace also stores other data that way) is
 * skipped whole.
 */
#include "config.h"

#include <string.h>

#include "cs-text-html.h"

typedef enum {
  OUTSIDE,
  BLOCK_START,    /* in a trace-data block, before its first line */
  BLOCK,
  JSON_BLOCK,
  LEGACY,         /* in the linuxPerfData string */
} State;

struct _CsTextHtml
{
  State state;
  guint n_blocks;
};

/**
 * cs_text_html_sniff:
 * @head: the first bytes of a file, NUL-terminated
 *
 * Returns: whether @head is the start of an HTML page that looks like a
 *   systrace (a trace-data block, linuxPerfData, or systrace's name)
 */
gboolean
cs_text_html_sniff (const char *head)
{
  g_autofree char *lower = g_ascii_strdown (head, MIN (strlen (head), 65536));

  if (strstr (lower, "<html") == NULL && strstr (lower, "<!doctype html") == NULL)
    return FALSE;
  return strstr (lower, "trace-data") != NULL || strstr (lower, "linuxperfdata") != NULL ||
         strstr (lower, "systrace") != NULL || strstr (lower, "trace-viewer") != NULL ||
         strstr (lower, "atrace") != NULL;
}

/** cs_text_html_new: Returns: (transfer full): an unwrapper at the page's start */
CsTextHtml *
cs_text_html_new (void)
{
  return g_new0 (CsTextHtml, 1);
}

/** cs_text_html_free: @self: (transfer full) (nullable): what to free */
void
cs_text_html_free (CsTextHtml *self)
{
  g_free (self);
}

/** cs_text_html_get_n_blocks: Returns: trace-data blocks and linuxPerfData strings met */
guint
cs_text_html_get_n_blocks (CsTextHtml *self)
{
  return self->n_blocks;
}

static void
shift (char       *line,
       const char *from)
{
  memmove (line, from, strlen (from) + 1);
}

/**
 * cs_text_html_unwrap:
 * @self: the unwrapper
 * @line: the next line of the page, NUL-terminated; on %TRUE rewritten in
 *   place to the trace text it holds
 *
 * Returns: whether @line holds a line of trace text (%FALSE: skip it)
 */
gboolean
cs_text_html_unwrap (CsTextHtml *self,
                     char       *line)
{
  char *p, *end;

  switch (self->state)
    {
    case OUTSIDE:
      if ((p = strstr (line, "class=\"trace-data\"")) != NULL && (p = strchr (p, '>')) != NULL)
        {
          self->state = BLOCK_START;
          self->n_blocks++;
          shift (line, p + 1);
          return cs_text_html_unwrap (self, line);
        }
      if ((p = strstr (line, "linuxPerfData")) != NULL && (p = strchr (p, '"')) != NULL)
        {
          self->state = LEGACY;
          self->n_blocks++;
          shift (line, p + 1);
          return cs_text_html_unwrap (self, line);
        }
      return FALSE;

    case BLOCK_START:
    case BLOCK:
    case JSON_BLOCK:
      if ((p = strstr (line, "</script>")) != NULL)
        {
          gboolean json = self->state == JSON_BLOCK;

          *p = '\0';
          if (self->state == BLOCK_START)
            {
              const char *first = line + strspn (line, " \t\r\n");
              json = *first == '{' || *first == '[';
            }
          self->state = OUTSIDE;
          return !json && line[strspn (line, " \t\r\n")] != '\0';
        }
      if (self->state == BLOCK_START)
        {
          const char *first = line + strspn (line, " \t\r\n");

          if (*first == '\0')
            return FALSE;
          self->state = *first == '{' || *first == '[' ? JSON_BLOCK : BLOCK;
        }
      return self->state == BLOCK;

    case LEGACY:
      /* Each line ends with "\n\"; the string with "\n";" or "";". */
      end = line + strlen (line);
      while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
        *--end = '\0';
      if (end > line && end[-1] == '\\')
        *--end = '\0';
      else if ((p = strstr (line, "\";")) != NULL)
        {
          *p = '\0';
          end = p;
          self->state = OUTSIDE;
        }
      if (end - line >= 2 && end[-2] == '\\' && end[-1] == 'n')
        end[-2] = '\0';
      return line[strspn (line, " \t")] != '\0';
    }
  return FALSE;
}
