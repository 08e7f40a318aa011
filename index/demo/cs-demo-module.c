/* cs-demo-module.c: loading chronoscope_tracer and writing its knobs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The demos load the module only when it is not loaded yet, and unload it
 * again only when they loaded it.  A built module (--module PATH.ko) is
 * loaded with finit_module(), so the demo needs no kmod tools (the test
 * guest has only busybox); the DKMS-installed one with `modprobe`, which
 * knows where DKMS put it and what it depends on.  Before anything is
 * tried, cs_demo_check_module() says what is missing in one sentence: the
 * module for this kernel, or root.  A built module is checked against the
 * running kernel's release (its .modinfo vermagic) before it is handed to
 * the kernel: a module for another kernel gets a sentence naming both
 * kernels, and the kernel is never given a module it would refuse.
 */
#define _GNU_SOURCE
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cs-demo-private.h"

#define UNLOAD_TRIES     300
#define UNLOAD_WAIT_US 10000

G_DEFINE_QUARK (cs-demo-error-quark, cs_demo_error)

/**
 * _cs_demo_module_is_loaded:
 *
 * Returns: whether chronoscope_tracer is loaded (/sys/module/NAME exists)
 */
gboolean
_cs_demo_module_is_loaded (void)
{
  return g_file_test ("/sys/module/" CS_DEMO_MODULE_NAME, G_FILE_TEST_IS_DIR);
}

static char *
kernel_release (void)
{
  struct utsname u;

  return g_strdup (uname (&u) == 0 ? u.release : "?");
}

/* Whether modules.dep of the running kernel lists the module, as DKMS
 * installs it (updates/dkms/chronoscope_tracer.ko[.xz]). */
static gboolean
module_is_installed (const char *release)
{
  g_autofree char *path = g_build_filename ("/lib/modules", release, "modules.dep", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *colon = strchr (lines[i], ':');
      const char *base;

      if (colon == NULL)
        continue;
      *colon = '\0';
      base = strrchr (lines[i], '/');
      base = base != NULL ? base + 1 : lines[i];
      if (g_str_has_prefix (base, CS_DEMO_MODULE_NAME ".ko"))
        return TRUE;
    }
  return FALSE;
}

/* The .modinfo section of an ELF64 module in @data, as NUL-separated
 * "key=value" strings; NULL when @data is not one. */
static const char *
find_modinfo (const char *data, gsize size, gsize *info_size)
{
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *) data;
  const Elf64_Shdr *sections, *names;

  if (size < sizeof *eh || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof (Elf64_Shdr) ||
      eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof (Elf64_Shdr) ||
      eh->e_shstrndx >= eh->e_shnum)
    return NULL;
  sections = (const Elf64_Shdr *) (data + eh->e_shoff);
  names = &sections[eh->e_shstrndx];
  if (names->sh_offset > size || names->sh_size > size - names->sh_offset)
    return NULL;
  for (guint i = 0; i < eh->e_shnum; i++)
    {
      const Elf64_Shdr *sh = &sections[i];

      /* The name with its NUL, inside the section-name table. */
      if (sh->sh_name >= names->sh_size || names->sh_size - sh->sh_name < sizeof ".modinfo" ||
          memcmp (data + names->sh_offset + sh->sh_name, ".modinfo", sizeof ".modinfo") != 0)
        continue;
      if (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
        return NULL;
      *info_size = sh->sh_size;
      return data + sh->sh_offset;
    }
  return NULL;
}

/**
 * cs_demo_module_dup_kernel_release:
 * @module_path: a built kernel module (an uncompressed .ko)
 * @error: return location for %CS_DEMO_ERROR_NO_MODULE (unreadable, or not
 *   an ELF64 module with a vermagic in its .modinfo)
 *
 * Reads the kernel release a module was built for: the first word of the
 * "vermagic=" string that modpost puts in its .modinfo section, which the
 * kernel compares with its own before loading it (`modinfo -F vermagic`).
 * Reads the file only; any thread.
 *
 * Returns: (transfer full) (nullable): the release ("6.1.0-56-amd64")
 */
char *
cs_demo_module_dup_kernel_release (const char  *module_path,
                                   GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local = NULL;
  const char *info;
  gsize size, info_size = 0;

  g_return_val_if_fail (module_path != NULL, NULL);

  if (!g_file_get_contents (module_path, &data, &size, &local))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE,
                   _("Cannot read the module %s: %s"), module_path, local->message);
      return NULL;
    }
  info = find_modinfo (data, size, &info_size);
  for (gsize at = 0; info != NULL && at < info_size; at += strnlen (info + at, info_size - at) + 1)
    {
      const char *entry = info + at;
      gsize len = strnlen (entry, info_size - at);

      if (len > strlen ("vermagic=") && g_str_has_prefix (entry, "vermagic=") && len < info_size - at)
        {
          const char *release = entry + strlen ("vermagic=");

          return g_strndup (release, strcspn (release, " "));
        }
    }
  g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE,
               _("%s is not a kernel module: it has no vermagic (an uncompressed .ko file "
                 "built with Kbuild is needed)"), module_path);
  return NULL;
}

/* Whether the kernel would take @module_path: built for this release. */
static gboolean
check_module_release (const char *module_path, const char *release, GError **error)
{
  g_autofree char *built_for = cs_demo_module_dup_kernel_release (module_path, error);

  if (built_for == NULL)
    return FALSE;
  if (strcmp (built_for, release) != 0)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_MODULE_LOAD,
                   _("The module %s was built for kernel %s, but this kernel is %s: build "
                     "chronoscope_tracer.ko against this kernel’s headers, or install it with "
                     "DKMS (see docs/teaching.md)"), module_path, built_for, release);
      return FALSE;
    }
  return TRUE;
}

/**
 * cs_demo_check_module:
 * @module_path: (nullable): a built chronoscope_tracer.ko, or %NULL for the
 *   installed one
 * @error: return location for %CS_DEMO_ERROR_NO_MODULE (neither loaded,
 *   nor installed for the running kernel, nor given, or @module_path is
 *   unreadable or not a module), %CS_DEMO_ERROR_NOT_ROOT, or
 *   %CS_DEMO_ERROR_MODULE_LOAD (@module_path was built for another kernel)
 *
 * Says, without changing anything, whether a demo can have the module:
 * loaded already, @module_path readable and built for the running kernel
 * (cs_demo_module_dup_kernel_release()), or listed in the running
 * kernel's modules.dep; and whether this process is root, which the demos
 * need (loading modules, debugfs knobs, tracefs).
 *
 * Returns: whether a demo can go on
 */
gboolean
cs_demo_check_module (const char  *module_path,
                      GError     **error)
{
  g_autofree char *release = kernel_release ();
  gboolean root = geteuid () == 0;

  if (module_path != NULL && g_access (module_path, R_OK) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE,
                   _("Cannot read the module %s: %s"), module_path, g_strerror (saved_errno));
      return FALSE;
    }

  if (module_path == NULL && !_cs_demo_module_is_loaded () && !module_is_installed (release))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE,
                   root ? _("chronoscope_tracer is not installed for kernel %s: install it with "
                            "DKMS (see docs/teaching.md: “sudo dkms add ./kmod” then “sudo dkms "
                            "install chronoscope-tracer/0.1.0”), or give a built module with "
                            "--module PATH.ko")
                        : _("chronoscope_tracer is not installed for kernel %s: install it with "
                            "DKMS (see docs/teaching.md: “sudo dkms add ./kmod” then “sudo dkms "
                            "install chronoscope-tracer/0.1.0”), or give a built module with "
                            "--module PATH.ko. The demos also need root (sudo)."),
                   release);
      return FALSE;
    }

  if (!root)
    {
      g_set_error_literal (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NOT_ROOT,
                           _("The demos need root: they load chronoscope_tracer, write its knobs in "
                             "/sys/kernel/debug/chronoscope and record with tracefs. Run them with "
                             "sudo, or from the window, which asks for permission."));
      return FALSE;
    }

  if (module_path != NULL && !_cs_demo_module_is_loaded () &&
      !check_module_release (module_path, release, error))
    return FALSE;
  return TRUE;
}

static gboolean
load_file (const char  *module_path,
           gboolean    *loaded_by_us,
           GError     **error)
{
  int fd = g_open (module_path, O_RDONLY | O_CLOEXEC, 0);
  int saved_errno;
  long rc;

  if (fd < 0)
    {
      saved_errno = errno;
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_NO_MODULE,
                   _("Cannot read the module %s: %s"), module_path, g_strerror (saved_errno));
      return FALSE;
    }
  rc = syscall (SYS_finit_module, fd, "", 0);
  saved_errno = errno;
  close (fd);

  if (rc == 0)
    {
      *loaded_by_us = TRUE;
      return TRUE;
    }
  if (saved_errno == EEXIST)
    return TRUE;   /* loaded meanwhile: not ours to unload */

  {
    g_autofree char *release = kernel_release ();

    g_set_error (error, CS_DEMO_ERROR,
                 saved_errno == EPERM ? CS_DEMO_ERROR_NOT_ROOT : CS_DEMO_ERROR_MODULE_LOAD,
                 saved_errno == ENOEXEC
                   ? _("The kernel refused %s: it was not built for kernel %s (%s)")
                   : _("The kernel refused %s (kernel %s): %s"),
                 module_path, release, g_strerror (saved_errno));
  }
  return FALSE;
}

static gboolean
load_installed (gboolean  *loaded_by_us,
                GError   **error)
{
  const char *argv[] = { "modprobe", CS_DEMO_MODULE_NAME, NULL };
  g_autofree char *err = NULL;
  g_autoptr(GError) spawn_error = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err, &status, &spawn_error))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_MODULE_LOAD,
                   _("Cannot run modprobe to load chronoscope_tracer: %s"), spawn_error->message);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_MODULE_LOAD,
                   _("modprobe could not load chronoscope_tracer: %s"), g_strstrip (err));
      return FALSE;
    }
  *loaded_by_us = TRUE;
  return TRUE;
}

/**
 * _cs_demo_module_load:
 * @module_path: (nullable): a built module, or %NULL for `modprobe`
 * @loaded_by_us: (out): set to whether this call loaded it
 * @error: return location for a %CS_DEMO_ERROR
 *
 * Loads chronoscope_tracer unless it is loaded already.
 *
 * Returns: whether the module is loaded
 */
gboolean
_cs_demo_module_load (const char  *module_path,
                      gboolean    *loaded_by_us,
                      GError     **error)
{
  *loaded_by_us = FALSE;
  if (_cs_demo_module_is_loaded ())
    return TRUE;
  if (!cs_demo_check_module (module_path, error))
    return FALSE;
  return module_path != NULL ? load_file (module_path, loaded_by_us, error)
                             : load_installed (loaded_by_us, error);
}

/**
 * _cs_demo_module_unload:
 * @error: return location for %CS_DEMO_ERROR_FAILED
 *
 * Unloads chronoscope_tracer.  The kernel refuses while a knob is open or
 * one of its events is enabled in a tracefs instance (each holds a module
 * reference), so it retries for up to 3 s, as the guest test does.
 *
 * Returns: whether the module is gone
 */
gboolean
_cs_demo_module_unload (GError **error)
{
  int saved_errno = 0;

  for (guint i = 0; i < UNLOAD_TRIES; i++)
    {
      if (syscall (SYS_delete_module, CS_DEMO_MODULE_NAME, O_NONBLOCK) == 0 || errno == ENOENT)
        return TRUE;
      saved_errno = errno;
      if (saved_errno != EAGAIN && saved_errno != EBUSY && saved_errno != EWOULDBLOCK)
        break;
      g_usleep (UNLOAD_WAIT_US);
    }
  g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_FAILED,
               _("Cannot unload chronoscope_tracer: %s"), g_strerror (saved_errno));
  return FALSE;
}

/**
 * _cs_demo_knob_read:
 * @name: a file of /sys/kernel/debug/chronoscope ("cpu", "stats"…)
 * @error: return location for %CS_DEMO_ERROR_KNOB
 *
 * Returns: (transfer full) (nullable): its text, trailing newline dropped
 */
char *
_cs_demo_knob_read (const char  *name,
                    GError     **error)
{
  g_autofree char *path = g_build_filename (CS_DEMO_KNOB_DIR, name, NULL);
  g_autoptr(GError) local = NULL;
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, &local))
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_KNOB,
                   _("Cannot read the module's knob %s (is debugfs mounted on "
                     "/sys/kernel/debug?): %s"), path, local->message);
      return NULL;
    }
  return g_strchomp (text);
}

/**
 * _cs_demo_knob_write:
 * @name: a file of /sys/kernel/debug/chronoscope
 * @value: what to write (a newline is added)
 * @error: return location for %CS_DEMO_ERROR_KNOB naming the file and the
 *   kernel's reason (EINVAL above max_section_us, ENODEV for an offline CPU)
 *
 * Writes a knob in one write(): a section knob returns when its section
 * has ended.
 *
 * Returns: whether the module took it
 */
gboolean
_cs_demo_knob_write (const char  *name,
                     const char  *value,
                     GError     **error)
{
  g_autofree char *path = g_build_filename (CS_DEMO_KNOB_DIR, name, NULL);
  g_autofree char *line = g_strconcat (value, "\n", NULL);
  size_t len = strlen (line);
  int fd = g_open (path, O_WRONLY | O_CLOEXEC, 0);
  ssize_t n;
  int saved_errno;

  if (fd < 0)
    {
      saved_errno = errno;
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_KNOB,
                   _("Cannot open the module's knob %s (is debugfs mounted on "
                     "/sys/kernel/debug?): %s"), path, g_strerror (saved_errno));
      return FALSE;
    }
  do
    n = write (fd, line, len);
  while (n < 0 && errno == EINTR);
  saved_errno = errno;
  close (fd);
  if (n != (ssize_t) len)
    {
      g_set_error (error, CS_DEMO_ERROR, CS_DEMO_ERROR_KNOB,
                   _("The module refused “%s” in %s: %s"), value, path,
                   n < 0 ? g_strerror (saved_errno) : _("short write"));
      return FALSE;
    }
  return TRUE;
}
