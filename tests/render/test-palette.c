/* test-palette.c: task colours are stable, distinct and readable.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>

#include <glib.h>

#include "cs-palette.h"
#include "cs-theme.h"

static double
linear (double encoded)
{
  return encoded <= 0.04045 ? encoded / 12.92 : pow ((encoded + 0.055) / 1.055, 2.4);
}

static double
luminance (const CsColor *color)
{
  return 0.2126 * linear (color->red) + 0.7152 * linear (color->green)
       + 0.0722 * linear (color->blue);
}

static double
distance (const CsColor *a, const CsColor *b)
{
  return sqrt ((a->red - b->red) * (a->red - b->red)
               + (a->green - b->green) * (a->green - b->green)
               + (a->blue - b->blue) * (a->blue - b->blue));
}

static void
test_idle_has_no_color (void)
{
  CsColor color = { -1, -1, -1 };

  g_assert_false (cs_palette_get_task_color (0, &color));
  g_assert_false (cs_palette_get_task_color (-1, &color));
  g_assert_cmpfloat (color.red, ==, -1);
}

static void
test_stable (void)
{
  CsColor a, b;

  /* A pid's colour is a pure function of the pid: the same in every view
   * and every run.  Pin one value so a change of palette is deliberate. */
  g_assert_true (cs_palette_get_task_color (4242, &a));
  g_assert_true (cs_palette_get_task_color (4242, &b));
  g_assert_cmpuint (cs_color_to_rgb24 (&a), ==, cs_color_to_rgb24 (&b));

  g_assert_true (cs_palette_get_task_color (1, &a));
  g_assert_cmphex (cs_color_to_rgb24 (&a), ==, 0x6eb1f9);
}

static void
test_neighbours_distinct (void)
{
  /* Threads of one program have close pids: any two pids less than 17
   * apart must look clearly different (37 of 255 steps apart in sRGB). */
  for (gint32 pid = 1; pid < 40000; pid++)
    {
      CsColor color;

      g_assert_true (cs_palette_get_task_color (pid, &color));
      for (gint32 d = 1; d <= 16; d++)
        {
          CsColor other;

          g_assert_true (cs_palette_get_task_color (pid + d, &other));
          if (distance (&color, &other) < 0.14)
            g_error ("pids %d and %d look alike: %06x, %06x", pid, pid + d,
                     cs_color_to_rgb24 (&color), cs_color_to_rgb24 (&other));
        }
    }
}

static void
test_readable (void)
{
  for (gint32 pid = 1; pid < 100000; pid += 7)
    {
      CsColor color, text;
      double y, contrast;

      g_assert_true (cs_palette_get_task_color (pid, &color));
      g_assert_cmpfloat (color.red, >=, 0.0);
      g_assert_cmpfloat (color.red, <=, 1.0);
      g_assert_cmpfloat (color.green, >=, 0.0);
      g_assert_cmpfloat (color.green, <=, 1.0);
      g_assert_cmpfloat (color.blue, >=, 0.0);
      g_assert_cmpfloat (color.blue, <=, 1.0);

      /* Not grey (grey is for unknown tasks and event density)... */
      g_assert_cmpfloat (MAX (color.red, MAX (color.green, color.blue))
                         - MIN (color.red, MIN (color.green, color.blue)), >, 0.2);

      /* ...visible on white (not washed out)... */
      y = luminance (&color);
      g_assert_cmpfloat ((1.0 + 0.05) / (y + 0.05), >=, 1.5);

      /* ...and its label reads on it (WCAG AA for normal text is 4.5:1). */
      cs_palette_get_text_color (&color, &text);
      if (text.red > 0.5)
        contrast = 1.05 / (y + 0.05);
      else
        contrast = (y + 0.05) / 0.05;
      g_assert_cmpfloat (contrast, >=, 4.5);
    }
}

static void
test_text_color (void)
{
  CsColor black = { 0, 0, 0 }, white = { 1, 1, 1 }, navy = { 0.05, 0.1, 0.4 };
  CsColor yellow = { 1.0, 0.9, 0.3 }, text;

  cs_palette_get_text_color (&black, &text);
  g_assert_cmphex (cs_color_to_rgb24 (&text), ==, 0xffffff);
  cs_palette_get_text_color (&navy, &text);
  g_assert_cmphex (cs_color_to_rgb24 (&text), ==, 0xffffff);
  cs_palette_get_text_color (&white, &text);
  g_assert_cmphex (cs_color_to_rgb24 (&text), ==, 0x000000);
  cs_palette_get_text_color (&yellow, &text);
  g_assert_cmphex (cs_color_to_rgb24 (&text), ==, 0x000000);
}

/* WCAG 2 contrast ratio of two colours, 1 .. 21. */
static double
contrast_ratio (const CsColor *a, const CsColor *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* The dark scheme reads: text 4.5:1 (WCAG AA) on every background it is
 * drawn on, marks 3:1 (WCAG non-text contrast) on the plot background;
 * and every task colour stands out 3:1 from the dark plot background, so
 * slices read without their labels.  Task colours also differ in lightness
 * between neighbouring pids (test_neighbours_distinct), which does not
 * depend on seeing hues. */
static void
test_dark_theme_readable (void)
{
  const CsTheme *dark = cs_theme_get (CS_COLOR_SCHEME_DARK);
  const CsTheme *light = cs_theme_get (CS_COLOR_SCHEME_LIGHT);
  const CsColor *backgrounds[] = { &dark->page, &dark->axis, &dark->plot };

  for (guint i = 0; i < G_N_ELEMENTS (backgrounds); i++)
    {
      g_assert_cmpfloat (contrast_ratio (&dark->text, backgrounds[i]), >=, 4.5);
      g_assert_cmpfloat (contrast_ratio (&dark->dim_text, backgrounds[i]), >=, 4.5);
    }
  g_assert_cmpfloat (contrast_ratio (&dark->event, &dark->plot), >=, 3.0);
  g_assert_cmpfloat (contrast_ratio (&dark->density_tick, &dark->plot), >=, 3.0);
  g_assert_cmpfloat (contrast_ratio (&dark->other_state, &dark->plot), >=, 3.0);
  /* Dimmed (filtered) ticks stay dimmer than the shown ones. */
  g_assert_cmpfloat (contrast_ratio (&dark->filtered, &dark->plot), <, contrast_ratio (&dark->event, &dark->plot));
  /* The dark scheme is no harder to read than the light one. */
  g_assert_cmpfloat (contrast_ratio (&dark->text, &dark->plot), >=, contrast_ratio (&light->text, &light->plot));
  g_assert_cmpfloat (contrast_ratio (&dark->dim_text, &dark->plot), >=, contrast_ratio (&light->dim_text, &light->plot));
  /* An out-of-range scheme is the light one. */
  g_assert_true (cs_theme_get ((CsColorScheme) 7) == light);

  for (gint32 pid = 1; pid < 5000; pid++)
    {
      CsColor color;

      g_assert_true (cs_palette_get_task_color (pid, &color));
      if (contrast_ratio (&color, &dark->plot) < 3.0)
        g_error ("pid %d: %06x is %.2f:1 on the dark plot", pid, cs_color_to_rgb24 (&color),
                 contrast_ratio (&color, &dark->plot));
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cs/render/Palette/idle-has-no-color", test_idle_has_no_color);
  g_test_add_func ("/cs/render/Palette/stable", test_stable);
  g_test_add_func ("/cs/render/Palette/neighbours-distinct", test_neighbours_distinct);
  g_test_add_func ("/cs/render/Palette/readable", test_readable);
  g_test_add_func ("/cs/render/Palette/text-color", test_text_color);
  g_test_add_func ("/cs/render/Theme/dark-readable", test_dark_theme_readable);

  return g_test_run ();
}
