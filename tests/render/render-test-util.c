/* render-test-util.c: what the render tests share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The index is built in the test's own $XDG_CACHE_HOME when the program
 * runs with G_TEST_OPTION_ISOLATE_DIRS.  On a mismatch the drawing is
 * written to <test>.out.png in a temporary directory whose path is printed.
 */
#include "render-test-util.h"

static char *out_dir;

/* The path of @recording (transfer full); fails the test when a public
 * one is absent: the caller registered it with cs_test_public_or_add_skip(). */
char *
cs_test_find_recording (const CsTestRecording *recording)
{
  char *path = cs_test_path (recording->name);

  g_assert_nonnull (path);
  return path;
}

void
cs_test_fixture_set_up (CsTestFixture *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = cs_test_find_recording (data);

  g_test_message ("recording %s", path);
  fixture->document = cs_document_load (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fixture->document);
  fixture->renderer = cs_timeline_renderer_new (fixture->document);
}

void
cs_test_fixture_tear_down (CsTestFixture *fixture,
                           gconstpointer  data)
{
  g_clear_pointer (&fixture->surface, cairo_surface_destroy);
  g_clear_object (&fixture->renderer);
  g_clear_object (&fixture->document);
}

void
cs_test_render (CsTestFixture    *fixture,
                const CsViewport *viewport)
{
  g_autoptr(GError) error = NULL;
  cairo_t *cr;

  g_clear_pointer (&fixture->surface, cairo_surface_destroy);
  fixture->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, viewport->width_px,
                                                 viewport->height_px);
  cr = cairo_create (fixture->surface);
  g_assert_true (cs_timeline_renderer_draw (fixture->renderer, cr, viewport, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (fixture->surface);
}

guint32
cs_test_pixel (CsTestFixture *fixture,
               int            x,
               int            y)
{
  const guint8 *data = cairo_image_surface_get_data (fixture->surface);
  int stride = cairo_image_surface_get_stride (fixture->surface);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (fixture->surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (fixture->surface));
  return *(const guint32 *) (data + (gsize) y * stride + (gsize) x * 4) & 0xffffff;
}

gboolean
cs_test_same_color (guint32 a,
                    guint32 b,
                    int     tolerance)
{
  for (int shift = 0; shift <= 16; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

/* Writes the last drawing next to the failure for a person to look at. */
void
cs_test_save_output (CsTestFixture *fixture)
{
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (out_dir == NULL)
    {
      /* g_test_init() names the program by its path: keep the base name. */
      g_autofree char *prgname = g_path_get_basename (g_get_prgname ());
      g_autofree char *template = g_strdup_printf ("cs-%s-XXXXXX", prgname);
      g_autoptr(GError) error = NULL;

      out_dir = g_dir_make_tmp (template, &error);
      g_assert_no_error (error);
    }
  name = g_strdelimit (g_strdup (g_test_get_path ()), "/", '-');
  path = g_strdup_printf ("%s/%s.out.png", out_dir, name + 1);
  cairo_surface_write_to_png (fixture->surface, path);
  g_test_message ("drawing written to %s", path);
}

int
cs_test_render_run (void)
{
  int status = g_test_run ();

  if (out_dir != NULL)
    g_test_message ("drawings kept in %s", out_dir);
  g_clear_pointer (&out_dir, g_free);
  return status;
}
