/* cs-cli-progress.c: the progress line of the command line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * One line on stderr, redrawn in place with \r while a command works
 * ("Indexing trace.dat: 42 % (1.2 GB of 3.6 GB), 12 s left") and erased
 * when it is done, so that what the command prints afterwards starts on a
 * clean line.  It is drawn only when stderr is a terminal and the global
 * --quiet/-q option was not given; stdout is never touched, so pipes and
 * --json output stay clean.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cs-cli-progress.h"

/* Redraws no more often than this unless the percentage changes. */
#define REDRAW_INTERVAL_US (250 * G_TIME_SPAN_MILLISECOND)
/* The estimate of the time left waits for this much work and time. */
#define ESTIMATE_MIN_FRACTION 0.02
#define ESTIMATE_MIN_US (1 * G_TIME_SPAN_SECOND)

struct _CsCliProgress {
  char *label;
  guint64 total_bytes;
  gboolean active;       /* stderr is a terminal and not --quiet */
  gboolean drawn;        /* a line is on the terminal */
  gboolean activity;     /* no fraction: "LABEL…" only */
  gint64 start_us;
  gint64 last_draw_us;
  int last_permille;
  gulong job_handler;
  CsIndexJob *job;
};

static gboolean cli_progress_quiet;

/**
 * cs_cli_progress_set_quiet:
 * @quiet: whether the global --quiet/-q option was given
 *
 * Switches every later progress line of this process off (or on again).
 * Call from the main thread before the command starts.
 */
void
cs_cli_progress_set_quiet (gboolean quiet)
{
  cli_progress_quiet = quiet;
}

/**
 * cs_cli_progress_get_quiet:
 *
 * Returns: whether --quiet/-q was given (cs_cli_progress_set_quiet())
 */
gboolean
cs_cli_progress_get_quiet (void)
{
  return cli_progress_quiet;
}

/**
 * cs_cli_progress_take_args:
 * @argc: the number of arguments
 * @argv: (array length=argc) (inout): the program's arguments; `-q` and
 *   `--quiet` are removed (until a `--`)
 *
 * Takes the global --quiet/-q option off a command line, for every command
 * (cs_cli_progress_set_quiet()).  chronoscope-record-helper does not
 * call it (it has no progress line: the window reads its JSON lines).
 *
 * Returns: the new argc (@argv stays %NULL-terminated when it was)
 */
int
cs_cli_progress_take_args (int    argc,
                           char **argv)
{
  int kept = 1;
  int i;

  for (i = 1; i < argc; i++)
    {
      if (g_strcmp0 (argv[i], "--") == 0)
        break;
      if (g_strcmp0 (argv[i], "-q") == 0 || g_strcmp0 (argv[i], "--quiet") == 0)
        {
          cs_cli_progress_set_quiet (TRUE);
          continue;
        }
      argv[kept++] = argv[i];
    }
  for (; i < argc; i++)
    argv[kept++] = argv[i];
  if (kept < argc)
    argv[kept] = NULL;
  return kept;
}

/**
 * cs_cli_progress_new:
 * @label: what is being done, shown before the percentage
 *   ("Indexing trace.dat"); copied
 * @total_bytes: how many bytes the whole work covers, for the "(1.2 GB of
 *   3.6 GB)" part, or 0 to leave that part out
 *
 * Starts a progress line.  It draws "LABEL: 0 %" at once when stderr is a
 * terminal and --quiet was not given, and nothing at all otherwise (then
 * every other call is a cheap no-op).  Use from one thread at a time.
 *
 * Returns: (transfer full): the line; cs_cli_progress_free() erases it
 */
CsCliProgress *
cs_cli_progress_new (const char *label,
                     guint64     total_bytes)
{
  CsCliProgress *self = g_new0 (CsCliProgress, 1);

  g_return_val_if_fail (label != NULL, self);

  self->label = g_strdup (label);
  self->total_bytes = total_bytes;
  self->active = !cli_progress_quiet && isatty (STDERR_FILENO);
  self->start_us = g_get_monotonic_time ();
  self->last_permille = -1;
  cs_cli_progress_update (self, 0.0);
  return self;
}

/**
 * cs_cli_progress_new_for_file:
 * @label: what is being done ("Indexing trace.dat"); copied
 * @path: the file the work reads; its size is the total
 *
 * A progress line about reading @path (cs_cli_progress_new()); when @path
 * cannot be stat()ed the byte counts are left out.
 *
 * Returns: (transfer full): the line
 */
CsCliProgress *
cs_cli_progress_new_for_file (const char *label,
                              const char *path)
{
  GStatBuf st;

  return cs_cli_progress_new (label, g_stat (path, &st) == 0 && st.st_size > 0
                                     ? (guint64) st.st_size : 0);
}

/**
 * cs_cli_progress_new_indexing:
 * @path: the recording being indexed
 *
 * The line "Indexing NAME: …" about @path (cs_cli_progress_new_for_file()).
 *
 * Returns: (transfer full): the line
 */
CsCliProgress *
cs_cli_progress_new_indexing (const char *path)
{
  g_autofree char *basename = g_path_get_basename (path);
  /* TRANSLATORS: the progress line on stderr, %s is the file's name */
  g_autofree char *label = g_strdup_printf (_("Indexing %s"), basename);

  return cs_cli_progress_new_for_file (label, path);
}

/**
 * cs_cli_progress_new_activity:
 * @label: what is being done ("Computing the statistics of trace.dat");
 *   copied
 *
 * A line for work that cannot say how far it is: "LABEL…" drawn once (on
 * the same terms as cs_cli_progress_new()) and erased by
 * cs_cli_progress_free(); cs_cli_progress_update() does nothing on it.
 *
 * Returns: (transfer full): the line
 */
CsCliProgress *
cs_cli_progress_new_activity (const char *label)
{
  CsCliProgress *self = g_new0 (CsCliProgress, 1);

  g_return_val_if_fail (label != NULL, self);

  self->label = g_strdup (label);
  self->activity = TRUE;
  self->active = !cli_progress_quiet && isatty (STDERR_FILENO);
  if (self->active)
    {
      fprintf (stderr, "\r%s…\033[K", self->label);
      fflush (stderr);
      self->drawn = TRUE;
    }
  return self;
}

/**
 * cs_cli_progress_set_detail:
 * @self: a line from cs_cli_progress_new_activity()
 * @detail: (nullable): what the work is doing now, or has done so far
 *   ("recording", "12.0 s, 3,456 events, 0 overruns, 1.2 MB written");
 *   %NULL goes back to "LABEL…"
 *
 * Redraws an activity line as "LABEL: DETAIL" (on the same terms as
 * cs_cli_progress_new(): nothing when stderr is not a terminal or with
 * --quiet), for work that reports phases or running totals instead of a
 * fraction.  Every call redraws; callers call it when the detail changes
 * or on a timer (`record` does once a second).  Does nothing on a line
 * with a fraction.
 */
void
cs_cli_progress_set_detail (CsCliProgress *self,
                            const char    *detail)
{
  g_return_if_fail (self != NULL);

  if (!self->active || !self->activity)
    return;
  if (detail == NULL)
    fprintf (stderr, "\r%s…\033[K", self->label);
  else
    {
      /* TRANSLATORS: a progress line: "Recording into trace.dat: 3.0 s, …" */
      g_autofree char *line = g_strdup_printf (_("%s: %s"), self->label, detail);

      fprintf (stderr, "\r%s\033[K", line);
    }
  fflush (stderr);
  self->drawn = TRUE;
  self->last_draw_us = g_get_monotonic_time ();
}

/**
 * cs_cli_progress_is_active:
 * @self: a progress line
 *
 * Returns: whether @self draws at all: stderr is a terminal and --quiet
 *   was not given
 */
gboolean
cs_cli_progress_is_active (CsCliProgress *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->active;
}

static void
cli_progress_draw (CsCliProgress *self,
                   double         fraction,
                   gint64         now_us)
{
  g_autoptr(GString) line = g_string_new (NULL);
  gint64 elapsed_us = now_us - self->start_us;

  g_string_append_printf (line, _("%s: %d %%"), self->label, (int) (fraction * 100.0));
  if (self->total_bytes > 0)
    {
      g_autofree char *done = g_format_size ((guint64) (fraction * (double) self->total_bytes));
      g_autofree char *total = g_format_size (self->total_bytes);

      g_string_append_printf (line, _(" (%s of %s)"), done, total);
    }
  if (fraction >= ESTIMATE_MIN_FRACTION && fraction < 1.0 && elapsed_us >= ESTIMATE_MIN_US)
    {
      double left_s = (double) elapsed_us / G_USEC_PER_SEC * (1.0 - fraction) / fraction;

      g_string_append_printf (line, _(", %.0f s left"), left_s);
    }
  /* \033[K erases what a longer earlier line left behind. */
  fprintf (stderr, "\r%s\033[K", line->str);
  fflush (stderr);
  self->drawn = TRUE;
  self->last_draw_us = now_us;
}

/**
 * cs_cli_progress_update:
 * @self: a progress line
 * @fraction: the work done, 0..1 (clamped)
 *
 * Redraws the line when the shown figures change: at most every 250 ms,
 * sooner when the percentage changes.
 */
void
cs_cli_progress_update (CsCliProgress *self,
                        double         fraction)
{
  gint64 now_us;
  int permille;

  g_return_if_fail (self != NULL);

  if (!self->active || self->activity)
    return;

  fraction = CLAMP (fraction, 0.0, 1.0);
  permille = (int) (fraction * 1000.0);
  now_us = g_get_monotonic_time ();
  if (self->drawn && permille / 10 == self->last_permille / 10 &&
      now_us - self->last_draw_us < REDRAW_INTERVAL_US)
    return;
  self->last_permille = permille;
  cli_progress_draw (self, fraction, now_us);
}

static void
cli_progress_job_fraction_cb (CsIndexJob    *job,
                              GParamSpec    *pspec,
                              CsCliProgress *self)
{
  cs_cli_progress_update (self, cs_index_job_get_fraction (job));
}

/**
 * cs_cli_progress_watch_job:
 * @self: a progress line
 * @job: an index job (indexing or a plugin pass) about to run
 *
 * Follows @job's #CsIndexJob:fraction until @self is freed.  Only one job
 * at a time; a second call replaces the first.
 */
void
cs_cli_progress_watch_job (CsCliProgress *self,
                           CsIndexJob    *job)
{
  g_return_if_fail (self != NULL && CS_IS_INDEX_JOB (job));

  if (self->job != NULL)
    {
      g_clear_signal_handler (&self->job_handler, self->job);
      g_clear_object (&self->job);
    }
  self->job = g_object_ref (job);
  self->job_handler = g_signal_connect (job, "notify::fraction",
                                        G_CALLBACK (cli_progress_job_fraction_cb), self);
}

/**
 * cs_cli_progress_free:
 * @self: (nullable) (transfer full): a progress line
 *
 * Erases the line from the terminal (when it was drawn) and frees it.
 */
void
cs_cli_progress_free (CsCliProgress *self)
{
  if (self == NULL)
    return;
  if (self->job != NULL)
    {
      g_clear_signal_handler (&self->job_handler, self->job);
      g_clear_object (&self->job);
    }
  if (self->drawn)
    {
      fputs ("\r\033[K", stderr);
      fflush (stderr);
    }
  g_free (self->label);
  g_free (self);
}
