/* cs-palette.c: stable, distinguishable colours for tasks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "cs-palette.h"

#include <math.h>

/* Hues follow the golden-ratio sequence over the pid: threads created one
 * after the other (consecutive pids, the common case) land 137.5° apart.
 * Lightness cycles through three bands with the pid, which separates the
 * pairs the golden ratio brings close (pids 8 and 13 apart): any two pids
 * less than 17 apart differ by at least 0.14 in sRGB (37 steps of 255).
 * Lightness and chroma are perceptual (OKLab), so no hue shouts louder than
 * another; they are tuned to read on a white or light grey background and
 * to carry black text (contrast ratio 6.3:1 at least). */
#define GOLDEN_RATIO_CONJUGATE 0.6180339887498949
#define HUE_OFFSET 0.08
#define CHROMA 0.125

static const double band_lightness[] = { 0.66, 0.745, 0.83 };

static double
encode_srgb (double linear)
{
  if (linear <= 0.0031308)
    return 12.92 * linear;
  return 1.055 * pow (linear, 1.0 / 2.4) - 0.055;
}

static double
decode_srgb (double encoded)
{
  if (encoded <= 0.04045)
    return encoded / 12.92;
  return pow ((encoded + 0.055) / 1.055, 2.4);
}

/* OKLab to linear sRGB, from Björn Ottosson's definition of OKLab. */
static void
oklab_to_linear_srgb (double L, double a, double b, double rgb[3])
{
  double l_ = L + 0.3963377774 * a + 0.2158037573 * b;
  double m_ = L - 0.1055613458 * a - 0.0638541728 * b;
  double s_ = L - 0.0894841775 * a - 1.2914855480 * b;
  double l = l_ * l_ * l_;
  double m = m_ * m_ * m_;
  double s = s_ * s_ * s_;

  rgb[0] = +4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
  rgb[1] = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
  rgb[2] = -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s;
}

static gboolean
in_gamut (const double rgb[3])
{
  for (guint i = 0; i < 3; i++)
    if (rgb[i] < -1e-6 || rgb[i] > 1.0 + 1e-6)
      return FALSE;
  return TRUE;
}

/**
 * cs_palette_get_task_color:
 * @pid: thread id (the kernel's pid, as in sched_switch next_pid)
 * @color: (out caller-allocates): the task's colour
 *
 * The colour of a task in CPU plots and task plots.  It depends only on
 * @pid, so it is stable across views and sessions, and neighbouring pids get
 * clearly different hues.  The idle task (pid 0) and invalid pids (< 0) have
 * no colour: idle is drawn as absence.
 *
 * The computation costs a few hundred nanoseconds; callers drawing many
 * columns should cache the result per pid.  Any thread may call it.
 *
 * Returns: %TRUE and sets @color for a real task, %FALSE (leaving @color
 *   untouched) for pid <= 0
 */
gboolean
cs_palette_get_task_color (gint32   pid,
                           CsColor *color)
{
  double hue, lightness, chroma, low, high;
  double rgb[3];

  g_return_val_if_fail (color != NULL, FALSE);

  if (pid <= 0)
    return FALSE;

  hue = fmod ((double) pid * GOLDEN_RATIO_CONJUGATE + HUE_OFFSET, 1.0) * 2.0 * G_PI;
  lightness = band_lightness[(guint32) pid % G_N_ELEMENTS (band_lightness)];

  /* Keep the hue and lightness; give up chroma until the colour fits sRGB. */
  chroma = CHROMA;
  oklab_to_linear_srgb (lightness, chroma * cos (hue), chroma * sin (hue), rgb);
  if (!in_gamut (rgb))
    {
      low = 0.0;
      high = CHROMA;
      for (guint i = 0; i < 16; i++)
        {
          chroma = (low + high) / 2.0;
          oklab_to_linear_srgb (lightness, chroma * cos (hue), chroma * sin (hue), rgb);
          if (in_gamut (rgb))
            low = chroma;
          else
            high = chroma;
        }
      chroma = low;
      oklab_to_linear_srgb (lightness, chroma * cos (hue), chroma * sin (hue), rgb);
    }

  color->red = encode_srgb (CLAMP (rgb[0], 0.0, 1.0));
  color->green = encode_srgb (CLAMP (rgb[1], 0.0, 1.0));
  color->blue = encode_srgb (CLAMP (rgb[2], 0.0, 1.0));
  return TRUE;
}

/**
 * cs_palette_get_text_color:
 * @background: a colour text is drawn on, usually from
 *   cs_palette_get_task_color()
 * @text: (out caller-allocates): black or white, whichever has the higher
 *   contrast ratio on @background (WCAG 2 relative luminance)
 *
 * Picks the colour of a label drawn inside a slice.  Any thread may call it.
 */
void
cs_palette_get_text_color (const CsColor *background,
                           CsColor       *text)
{
  double luminance, on_black, on_white;

  g_return_if_fail (background != NULL);
  g_return_if_fail (text != NULL);

  luminance = 0.2126 * decode_srgb (background->red)
            + 0.7152 * decode_srgb (background->green)
            + 0.0722 * decode_srgb (background->blue);
  on_black = (luminance + 0.05) / 0.05;
  on_white = 1.05 / (luminance + 0.05);

  if (on_black >= on_white)
    *text = (CsColor) { 0.0, 0.0, 0.0 };
  else
    *text = (CsColor) { 1.0, 1.0, 1.0 };
}

/**
 * cs_color_to_rgb24:
 * @color: a colour with components in 0.0 .. 1.0
 *
 * Packs @color as 0xRRGGBB with 8 bits per component, rounded to nearest:
 * what an opaque pixel of a %CAIRO_FORMAT_RGB24 or %CAIRO_FORMAT_ARGB32
 * image holds (without the alpha byte) after filling with @color, give or
 * take one step of rounding.
 *
 * Returns: the packed colour
 */
guint32
cs_color_to_rgb24 (const CsColor *color)
{
  guint32 r, g, b;

  g_return_val_if_fail (color != NULL, 0);

  r = (guint32) lround (CLAMP (color->red, 0.0, 1.0) * 255.0);
  g = (guint32) lround (CLAMP (color->green, 0.0, 1.0) * 255.0);
  b = (guint32) lround (CLAMP (color->blue, 0.0, 1.0) * 255.0);
  return (r << 16) | (g << 8) | b;
}

/* CPU colours: darker and more saturated than task colours, so that a task
 * plot's running boxes never read as another task.  The first eight hues
 * (OKLab degrees) are picked far apart in the order CPUs are numbered -
 * blue, green, magenta, teal, orange, violet, olive, brick - since a
 * migration is most often to a neighbour; beyond them the golden-ratio walk
 * over hues continues.  Lightness alternates between two bands. */
#define CPU_CHROMA 0.14

static const double cpu_hues_deg[] = { 255, 145, 335, 200, 60, 295, 105, 25 };
static const double cpu_band_lightness[] = { 0.58, 0.68 };

static void
oklch_to_color (double lightness, double max_chroma, double hue, CsColor *color)
{
  double rgb[3];
  double low = 0.0, high = max_chroma, chroma = max_chroma;

  oklab_to_linear_srgb (lightness, chroma * cos (hue), chroma * sin (hue), rgb);
  if (!in_gamut (rgb))
    {
      for (guint i = 0; i < 16; i++)
        {
          chroma = (low + high) / 2.0;
          oklab_to_linear_srgb (lightness, chroma * cos (hue), chroma * sin (hue), rgb);
          if (in_gamut (rgb))
            low = chroma;
          else
            high = chroma;
        }
      oklab_to_linear_srgb (lightness, low * cos (hue), low * sin (hue), rgb);
    }

  color->red = encode_srgb (CLAMP (rgb[0], 0.0, 1.0));
  color->green = encode_srgb (CLAMP (rgb[1], 0.0, 1.0));
  color->blue = encode_srgb (CLAMP (rgb[2], 0.0, 1.0));
}

/**
 * cs_palette_get_cpu_color:
 * @cpu: a CPU number
 * @color: (out caller-allocates): the CPU's colour
 *
 * The colour of the time a task ran on @cpu, in task plots.  It depends only
 * on @cpu; CPUs n and n + 1 have clearly different hues and lightness, so a
 * migration shows as a change of colour.  The first eight CPUs have
 * hand-picked hues; beyond them, colours repeat with a small chance.  Any thread may call it.
 */
void
cs_palette_get_cpu_color (guint    cpu,
                          CsColor *color)
{
  double hue;

  g_return_if_fail (color != NULL);

  if (cpu < G_N_ELEMENTS (cpu_hues_deg))
    hue = cpu_hues_deg[cpu] / 180.0 * G_PI;
  else
    hue = fmod ((double) cpu * GOLDEN_RATIO_CONJUGATE, 1.0) * 2.0 * G_PI;
  oklch_to_color (cpu_band_lightness[cpu % G_N_ELEMENTS (cpu_band_lightness)], CPU_CHROMA,
                  hue, color);
}

/**
 * cs_palette_get_state_color:
 * @state: what a task did, as cs_document_get_task_intervals() reports it
 * @color: (out caller-allocates): the colour task plots draw @state in
 *
 * Fixed colours of the waiting states in task plots: runnable (a light
 * amber box, hatched; a wakeup latency is outlined in a darker amber),
 * sleeping S (a grey line), uninterruptible D (a red bar) and other states
 * (a dark grey line).  Running has no colour of its own: it is drawn in the
 * colour of the CPU, see cs_palette_get_cpu_color().  Any thread may call it.
 *
 * Returns: %TRUE and sets @color, or %FALSE for %CS_TASK_RUNNING
 */
gboolean
cs_palette_get_state_color (CsTaskState  state,
                            CsColor     *color)
{
  g_return_val_if_fail (color != NULL, FALSE);

  switch (state)
    {
    case CS_TASK_RUNNABLE:
      *color = (CsColor) { 0.984, 0.878, 0.616 };   /* #fbe09d */
      return TRUE;
    case CS_TASK_SLEEPING:
      *color = (CsColor) { 0.604, 0.600, 0.588 };   /* #9a9996 */
      return TRUE;
    case CS_TASK_UNINTERRUPTIBLE:
      *color = (CsColor) { 0.878, 0.106, 0.141 };   /* #e01b24 */
      return TRUE;
    case CS_TASK_OTHER:
      *color = (CsColor) { 0.369, 0.361, 0.392 };   /* #5e5c64 */
      return TRUE;
    case CS_TASK_RUNNING:
    default:
      return FALSE;
    }
}

/* Exit reasons: CPU-plot lightness and chroma, a hue from the name, kept
 * away from the green of a vCPU in the guest (OKLab hue near 150°). */
#define REASON_GUEST_HUE_DEG 150.0
#define REASON_GUEST_GAP_DEG 60.0

/**
 * cs_palette_get_reason_color:
 * @reason: a name, for instance a KVM exit reason as the host's kvm_exit
 *   event prints it ("HLT", "EPT_VIOLATION")
 * @color: (out caller-allocates): its colour
 *
 * The colour of a vCPU's time out of the guest after an exit with this
 * reason (cs-vcpu-plot-painter.h).  It depends only on the name, so a
 * reason has the same colour in every view and session; hues come from
 * the name's hash, never within 60° of the in-guest green.  Any thread.
 */
void
cs_palette_get_reason_color (const char *reason,
                             CsColor    *color)
{
  double deg;

  g_return_if_fail (reason != NULL);
  g_return_if_fail (color != NULL);
  deg = fmod ((double) g_str_hash (reason) * GOLDEN_RATIO_CONJUGATE, 1.0) * 360.0;
  if (fabs (deg - REASON_GUEST_HUE_DEG) < REASON_GUEST_GAP_DEG)
    deg += deg < REASON_GUEST_HUE_DEG ? -REASON_GUEST_GAP_DEG : REASON_GUEST_GAP_DEG;
  oklch_to_color (cpu_band_lightness[g_str_hash (reason) % G_N_ELEMENTS (cpu_band_lightness)],
                  CPU_CHROMA, deg / 180.0 * G_PI, color);
}
