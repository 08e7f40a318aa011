/* render-test-util.h: what the render tests share: a recording's index and
 * renderer as a test fixture, drawing it to an image and reading pixels.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "cs-test-data.h"
#include "cs-timeline-renderer.h"

G_BEGIN_DECLS

/* A recording by name: a name in tests/data, or "public/NAME" for one of
 * the public recordings (cs_test_path()); register a test case on a public
 * one with cs_test_public_or_add_skip() first. */
typedef struct {
  const char *name;
} CsTestRecording;

typedef struct {
  CsDocument *document;
  CsTimelineRenderer *renderer;
  cairo_surface_t *surface;   /* the last drawing */
} CsTestFixture;

char *cs_test_find_recording (const CsTestRecording *recording);

/* @data: the CsTestRecording to load. */
void cs_test_fixture_set_up (CsTestFixture *fixture,
                             gconstpointer  data);
void cs_test_fixture_tear_down (CsTestFixture *fixture,
                                gconstpointer  data);

void cs_test_render (CsTestFixture    *fixture,
                     const CsViewport *viewport);
guint32 cs_test_pixel (CsTestFixture *fixture,
                       int            x,
                       int            y);
gboolean cs_test_same_color (guint32 a,
                             guint32 b,
                             int     tolerance);

void cs_test_save_output (CsTestFixture *fixture);

/* g_test_run(), then says where failed drawings are. */
int cs_test_render_run (void);

/* Fails with the message, after writing the drawing to a file. */
#define cs_test_check(fixture, condition, ...)          \
  G_STMT_START {                                        \
    if (!(condition))                                   \
      {                                                 \
        cs_test_save_output (fixture);                  \
        g_error (__VA_ARGS__);                          \
      }                                                 \
  } G_STMT_END

G_END_DECLS
