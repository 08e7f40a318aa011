/* cs-cli-demo.c: `chronoscope demo`, the classroom scenarios.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 *   chronoscope demo --list
 *   chronoscope demo NAME [-o FILE] [--module PATH.ko] [--cpu N] [--no-open] [--json]
 *   chronoscope demo NAME --from FILE [--no-open] [--json]
 *
 * Runs a scenario of index/demo/cs-demo.c as root (it loads the module
 * when needed, records, injects the latency, restores everything), finds
 * markers A and B in the recording's index and the kmod plugin's pass
 * results (its sections and latencies, run in the worker) and prints
 * them, --json with the plugin's own objects of `info --json`; without
 * --no-open it then opens the window on the recording with the markers set
 * (`chronoscope --demo NAME FILE`), as the user who ran sudo, in their
 * desktop session (cs_cli_demo_window_environ()).  --from skips
 * the recording and finds the markers in a recording made before, or
 * elsewhere: the kmod guest test checks its recordings on the host so.
 * On a terminal (and without --quiet) a progress line on stderr names the
 * step under way: the scenario's phases, indexing, finding the markers.
 * GTK is never initialised here.
 */
#define _GNU_SOURCE
#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "cs-cli-demo.h"
#include "cs-cli-plugins.h"
#include "cs-cli-private.h"
#include "cs-cli-progress.h"
#include "cs-demo.h"
#include "cs-format.h"
#include "cs-plugin-host.h"

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* The kmod plugin's own description of its results, the "kmod" member of
 * `info --json` ({"sections": [...], "wakeup_latencies": [...]}): the demo
 * prints its objects as they are, so the two outputs never differ.  The
 * plugin is enabled on @plugins for that, whatever the user chose. */
static JsonObject *
dup_kmod_json (CsPluginDocument *plugins, CsPlugin *kmod, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  CsPluginHost *host = cs_plugin_host_get_default ();

  if (!cs_plugin_host_enable_on (host, plugins, kmod))
    {
      g_set_error_literal (error, CS_PLUGIN_ERROR, CS_PLUGIN_ERROR_FAILED,
                           cs_plugin_host_get_open_error (host, kmod));
      return NULL;
    }
  json_builder_begin_object (b);
  if (!cs_cli_plugins_add_json (plugins, b, error))
    return NULL;
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_object_ref (json_object_get_object_member (json_node_get_object (root),
                                                         CS_DEMO_KMOD_PLUGIN));
}

/* A copy of the row of the plugin's @member array at @time_ns on @cpu. */
static JsonNode *
dup_kmod_row (JsonObject *kmod, const char *member, const char *time_member, gint64 time_ns,
              guint cpu)
{
  JsonArray *rows = json_object_get_array_member (kmod, member);

  for (guint i = 0; rows != NULL && i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      if (json_object_get_int_member (row, time_member) == time_ns &&
          json_object_get_int_member (row, "cpu") == cpu)
        return json_node_copy (json_array_get_element (rows, i));
    }
  return json_node_new (JSON_NODE_NULL);
}

static gboolean
print_json (const char *scenario, const char *path, const CsDemoMarkers *m,
            CsPluginDocument *plugins, CsPlugin *kmod, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonObject) results = NULL;
  g_autofree char *text = NULL;

  /* A section or latency was found: the plugin is there. */
  if ((m->section.end_ns > 0 || m->has_latency) &&
      (results = dup_kmod_json (plugins, kmod, error)) == NULL)
    return FALSE;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "scenario");
  json_builder_add_string_value (b, scenario);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, path);
  add_int (b, "marker_a_ns", m->a_ns);
  add_int (b, "marker_b_ns", m->b_ns);
  add_int (b, "cpu", m->cpu);
  add_int (b, "pid", m->pid);
  json_builder_set_member_name (b, "comm");
  json_builder_add_string_value (b, m->comm);
  if (m->section.end_ns > 0)
    {
      json_builder_set_member_name (b, "section");
      json_builder_add_value (b, dup_kmod_row (results, "sections", "begin_ns",
                                               m->section.begin_ns, m->section.cpu));
    }
  if (m->has_latency)
    {
      json_builder_set_member_name (b, "wakeup_latency");
      json_builder_add_value (b, dup_kmod_row (results, "wakeup_latencies", "time_ns",
                                               m->latency.time_ns, m->latency.cpu));
    }
  json_builder_end_object (b);

  text = cs_format_json (b);
  g_print ("%s\n", text);
  return TRUE;
}

static void
print_text (const CsDemoScenario *scenario, const char *path, const CsDemoMarkers *m)
{
  g_autofree char *a = cs_format_timestamp (m->a_ns);
  g_autofree char *b = cs_format_timestamp (m->b_ns);
  g_autofree char *ab = cs_format_duration (m->b_ns - m->a_ns);

  g_print (_("%s: %s on CPU %u\n"), path, scenario->name, m->cpu);
  g_print (_("Marker A: %s (%" PRId64 " ns)\n"), a, m->a_ns);
  g_print (_("Marker B: %s (%" PRId64 " ns)\n"), b, m->b_ns);
  g_print (_("B − A:    %s\n"), ab);
  if (m->has_latency)
    {
      g_autofree char *latency = cs_format_duration ((gint64) m->latency.latency_ns);
      g_autofree char *threshold = cs_format_duration ((gint64) m->latency.threshold_ns);

      /* TRANSLATORS: "wakeup_latency of cs-demo-sleeper (pid 42): 61 ms, threshold 10 ms" */
      g_print (_("wakeup_latency of %s (pid %d): %s, threshold %s\n"), m->latency.comm,
               m->latency.pid, latency, threshold);
    }
  else if (m->pid > 0)
    g_print (_("Task: %s (pid %d), runnable but off CPU %u between A and B\n"), m->comm, m->pid, m->cpu);
  if (m->section.end_ns > 0)
    {
      g_autofree char *length = cs_format_duration (m->section.end_ns - m->section.begin_ns);

      g_print (_("%s section on CPU %u: %s\n"), cs_kmod_section_kind_to_string (m->section.kind),
               m->section.cpu, length);
    }
}

/* The user who ran sudo, whom the recording and the window belong to. */
static gboolean
sudo_user (uid_t *uid, gid_t *gid)
{
  const char *text = g_getenv ("SUDO_UID");
  guint64 value;
  struct passwd *pw;

  if (geteuid () != 0 || text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, G_MAXUINT32, &value, NULL))
    return FALSE;
  pw = getpwuid ((uid_t) value);
  *uid = (uid_t) value;
  *gid = pw != NULL ? pw->pw_gid : (gid_t) value;
  return TRUE;
}

/* Whether @path is a folder of @uid's (their runtime folder, not root's). */
static gboolean
is_own_dir (const char *path, uid_t uid)
{
  struct stat st;

  return path != NULL && g_path_is_absolute (path) && stat (path, &st) == 0 &&
         S_ISDIR (st.st_mode) && st.st_uid == uid;
}

static gboolean
is_socket (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  struct stat st;

  return stat (path, &st) == 0 && S_ISSOCK (st.st_mode);
}

/* The compositor's socket in @runtime_dir: "wayland-0" first, as clients
 * default to it, else the first "wayland-N" in name order. */
static char *
find_wayland_socket (const char *runtime_dir)
{
  g_autoptr(GDir) dir = g_dir_open (runtime_dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (is_socket (runtime_dir, "wayland-0"))
    return g_strdup ("wayland-0");
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "wayland-") && !g_str_has_suffix (name, ".lock") &&
        is_socket (runtime_dir, name))
      g_ptr_array_add (names, g_strdup (name));
  if (names->len == 0)
    return NULL;
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return g_strdup (g_ptr_array_index (names, 0));
}

/**
 * cs_cli_demo_window_environ:
 * @envp: (transfer full): the environment sudo left (g_get_environ())
 * @uid: the user who ran sudo (SUDO_UID)
 * @home: (nullable): their home folder (from the password database)
 * @runtime_root: the folder of the users' runtime folders: "/run/user",
 *   where systemd-logind makes /run/user/UID for each session
 *
 * Builds the environment of the window `sudo chronoscope demo` opens as
 * the user who ran sudo, so that it reaches their desktop.  sudo resets
 * the environment: it keeps DISPLAY and XAUTHORITY (X11) but drops
 * XDG_RUNTIME_DIR, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS, and HOME
 * may be root's.  What sudo kept is used when it is the user's; the rest
 * is taken from the user's session: XDG_RUNTIME_DIR is
 * @runtime_root/UID when that folder is theirs, WAYLAND_DISPLAY the
 * compositor's socket there (wayland-0 first), DBUS_SESSION_BUS_ADDRESS
 * its "bus" socket.  HOME is @home; XDG_CACHE_HOME and XDG_CONFIG_HOME
 * are dropped (root's would hide the user's settings and index cache); a
 * runtime folder or an XAUTHORITY that is not the user's is dropped.
 *
 * Returns: (transfer full): the environment; it has neither DISPLAY nor
 *   WAYLAND_DISPLAY when no desktop session of the user's was found
 */
char **
cs_cli_demo_window_environ (char       **envp,
                            uid_t        uid,
                            const char  *home,
                            const char  *runtime_root)
{
  g_autofree char *uid_text = g_strdup_printf ("%u", (guint) uid);
  g_autofree char *own_runtime = g_build_filename (runtime_root, uid_text, NULL);
  const char *runtime = g_environ_getenv (envp, "XDG_RUNTIME_DIR");
  const char *xauthority = g_environ_getenv (envp, "XAUTHORITY");
  g_autofree char *runtime_dir = NULL;

  if (home != NULL)
    envp = g_environ_setenv (envp, "HOME", home, TRUE);
  envp = g_environ_unsetenv (envp, "XDG_CACHE_HOME");
  envp = g_environ_unsetenv (envp, "XDG_CONFIG_HOME");

  /* sudo -E or env_keep may have kept the user's own: keep it then. */
  if (is_own_dir (runtime, uid))
    runtime_dir = g_strdup (runtime);
  else if (is_own_dir (own_runtime, uid))
    runtime_dir = g_strdup (own_runtime);
  if (runtime_dir == NULL)
    {
      envp = g_environ_unsetenv (envp, "XDG_RUNTIME_DIR");
      envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
      envp = g_environ_unsetenv (envp, "DBUS_SESSION_BUS_ADDRESS");
    }
  else
    {
      const char *wayland = g_environ_getenv (envp, "WAYLAND_DISPLAY");

      envp = g_environ_setenv (envp, "XDG_RUNTIME_DIR", runtime_dir, TRUE);
      /* A relative WAYLAND_DISPLAY names a socket in the runtime folder. */
      if (wayland == NULL || (!g_path_is_absolute (wayland) && !is_socket (runtime_dir, wayland)))
        {
          g_autofree char *socket = find_wayland_socket (runtime_dir);

          envp = socket != NULL ? g_environ_setenv (envp, "WAYLAND_DISPLAY", socket, TRUE)
                                : g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
        }
      if (g_environ_getenv (envp, "DBUS_SESSION_BUS_ADDRESS") == NULL && is_socket (runtime_dir, "bus"))
        {
          g_autofree char *bus = g_build_filename (runtime_dir, "bus", NULL);
          g_autofree char *escaped = g_dbus_address_escape_value (bus);
          g_autofree char *address = g_strconcat ("unix:path=", escaped, NULL);

          envp = g_environ_setenv (envp, "DBUS_SESSION_BUS_ADDRESS", address, TRUE);
        }
    }

  /* X11: a cookie file that is not the user's (root's) is of no use to
   * them, and theirs is in HOME. */
  if (xauthority != NULL)
    {
      struct stat st;

      if (stat (xauthority, &st) != 0 || st.st_uid != uid)
        envp = g_environ_unsetenv (envp, "XAUTHORITY");
    }
  if (g_environ_getenv (envp, "DISPLAY") != NULL && g_environ_getenv (envp, "XAUTHORITY") == NULL &&
      home != NULL)
    {
      g_autofree char *cookie = g_build_filename (home, ".Xauthority", NULL);

      if (g_file_test (cookie, G_FILE_TEST_IS_REGULAR))
        envp = g_environ_setenv (envp, "XAUTHORITY", cookie, TRUE);
    }
  return envp;
}

typedef struct {
  uid_t uid;
  gid_t gid;
  int n_groups;
  gid_t groups[256];
} Identity;

/* In the child: only async-signal-safe calls. */
static void
drop_to_user (gpointer data)
{
  const Identity *id = data;

  if (setgroups ((size_t) id->n_groups, id->groups) != 0 || setresgid (id->gid, id->gid, id->gid) != 0 ||
      setresuid (id->uid, id->uid, id->uid) != 0)
    _exit (127);
}

/* The window, as the user who ran sudo: GTK should not run as root. */
static void
open_window (const char *scenario, const char *path)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *demo = g_strdup_printf ("--demo=%s", scenario);
  const char *argv[] = { exe != NULL ? exe : "chronoscope", demo, absolute, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  Identity id = { 0 };
  gboolean as_user = sudo_user (&id.uid, &id.gid);

  if (as_user)
    {
      struct passwd *pw = getpwuid (id.uid);

      envp = cs_cli_demo_window_environ (g_steal_pointer (&envp), id.uid,
                                         pw != NULL ? pw->pw_dir : NULL, "/run/user");
      /* The user's groups, looked up here: not in the child after fork. */
      id.n_groups = G_N_ELEMENTS (id.groups);
      if (pw == NULL || getgrouplist (pw->pw_name, id.gid, id.groups, &id.n_groups) < 0)
        id.n_groups = 0;
    }
  if (g_environ_getenv (envp, "WAYLAND_DISPLAY") == NULL && g_environ_getenv (envp, "DISPLAY") == NULL)
    {
      fprintf (stderr, _("chronoscope demo: no desktop session to open the window in; open it "
                         "with: chronoscope --demo=%s %s\n"), scenario, absolute);
      return;
    }

  if (!g_spawn_async (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, as_user ? drop_to_user : NULL,
                      &id, NULL, &error))
    fprintf (stderr, _("chronoscope demo: cannot open the window (%s); open it with: "
                       "chronoscope --demo=%s %s\n"), error->message, scenario, absolute);
}

static int
list_scenarios (void)
{
  guint n;
  const CsDemoScenario *scenarios = cs_demo_get_scenarios (&n);

  for (guint i = 0; i < n; i++)
    g_print ("%-16s %s\n", scenarios[i].name, _(scenarios[i].summary));
  return 0;
}

static gboolean
ignore_signal_cb (gpointer data)
{
  /* The scenario lasts well under a second and must restore the module. */
  return G_SOURCE_CONTINUE;
}

typedef struct {
  CsCliProgress *progress;
  const char *output;
} DemoProgress;

/* The scenario's steps on the progress line. */
static void
demo_phase_cb (CsDemoPhase phase,
               gpointer    user_data)
{
  DemoProgress *p = user_data;
  g_autofree char *name = g_path_get_basename (p->output);
  g_autofree char *detail = NULL;

  switch (phase)
    {
    case CS_DEMO_PHASE_MODULE:
      /* TRANSLATORS: a step of a demo on its progress line */
      detail = g_strdup_printf (_("loading %s"), CS_DEMO_MODULE_NAME);
      break;
    case CS_DEMO_PHASE_RECORDING:
      /* TRANSLATORS: a step of a demo on its progress line, %s a file */
      detail = g_strdup_printf (_("recording into %s"), name);
      break;
    case CS_DEMO_PHASE_INJECTING:
      detail = g_strdup (_("injecting the latency"));
      break;
    case CS_DEMO_PHASE_WRITING:
      /* TRANSLATORS: a step of a demo on its progress line, %s a file */
      detail = g_strdup_printf (_("writing %s"), name);
      break;
    case CS_DEMO_PHASE_RESTORING:
      detail = g_strdup (_("restoring the module"));
      break;
    default:
      return;
    }
  cs_cli_progress_set_detail (p->progress, detail);
}

static gboolean
record (const CsDemoScenario *scenario, const char *output, const char *module_path, int cpu)
{
  g_autoptr(CsRecordOptions) options = cs_demo_dup_record_options (scenario->name, output);
  g_autoptr(GError) error = NULL;
  /* TRANSLATORS: the progress line of `demo`, %s the demo's name */
  g_autofree char *label = g_strdup_printf (_("Running the %s demo"), scenario->name);
  g_autoptr(CsCliProgress) progress = cs_cli_progress_new_activity (label);
  DemoProgress phases = { progress, output };
  CsDemoConfig config = { scenario->name, module_path, cpu, demo_phase_cb, &phases };
  CsDemoRun run;
  uid_t uid;
  gid_t gid;
  guint sig_ids[3];
  const int signals[3] = { SIGINT, SIGTERM, SIGHUP };
  gboolean ok;

  cs_cli_progress_set_detail (progress, _("checking the module"));
  if (!cs_demo_check_module (module_path, &error))
    {
      g_clear_pointer (&progress, cs_cli_progress_free);
      fprintf (stderr, "chronoscope demo: %s\n", error->message);
      return FALSE;
    }
  if (sudo_user (&uid, &gid))
    {
      options->owner_uid = uid;
      options->owner_gid = gid;
    }

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    sig_ids[i] = g_unix_signal_add (signals[i], ignore_signal_cb, NULL);
  /* The progress line says it on a terminal. */
  if (!cs_cli_progress_is_active (progress))
    fprintf (stderr, _("Running the %s demo, recording into %s…\n"), scenario->name, output);
  ok = cs_demo_run (&config, options, &run, &error);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (sig_ids[i]);
  g_clear_pointer (&progress, cs_cli_progress_free);

  if (!ok)
    {
      fprintf (stderr, "chronoscope demo: %s\n", error->message);
      return FALSE;
    }
  if (run.module_loaded)
    fprintf (stderr, _("Loaded and unloaded %s.\n"), CS_DEMO_MODULE_NAME);
  return TRUE;
}

/**
 * cs_cli_demo:
 * @argc: number of arguments
 * @argv: the arguments, argv[0] being "demo"
 *
 * `chronoscope demo` (see the top of this file).  Failures print one line
 * naming what is missing (the module for this kernel, root, a knob).
 *
 * Returns: the exit status: 0 when the recording was made and the markers
 *   found, 1 otherwise
 */
int
cs_cli_demo (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("NAME"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CsDocument) document = NULL;
  g_autoptr(CsPluginDocument) plugins = NULL;
  CsPlugin *kmod;
  g_autofree char *output = NULL;
  g_autofree char *module_path = NULL;
  g_autofree char *from = NULL;
  gboolean list = FALSE, no_open = FALSE, json = FALSE;
  int cpu = -1;
  const CsDemoScenario *scenario;
  const char *path;
  CsDemoMarkers markers;
  GOptionEntry entries[] = {
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the demos with what each shows"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the recording to FILE (default: demo-NAME.dat)"), N_("FILE") },
    { "module", 0, 0, G_OPTION_ARG_FILENAME, &module_path, N_("Load this built chronoscope_tracer.ko instead of the installed one"), N_("PATH.ko") },
    { "cpu", 0, 0, G_OPTION_ARG_INT, &cpu, N_("Run the section on this CPU (default: the last one)"), N_("N") },
    { "no-open", 0, 0, G_OPTION_ARG_NONE, &no_open, N_("Only write the recording and print the markers"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the markers as JSON"), NULL },
    { "from", 0, 0, G_OPTION_ARG_FILENAME, &from, N_("Do not record: find the markers in FILE, a recording of this demo"), N_("FILE") },
    { NULL }
  };

  g_set_prgname ("chronoscope demo");
  g_option_context_set_summary (context,
                                _("Classroom demos with Chronoscope's kernel module: loads "
                                  "chronoscope_tracer if needed, records while it injects a "
                                  "latency, and opens the recording with markers A and B around "
                                  "it. Needs root and the module (see docs/teaching.md)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "chronoscope demo: %s\n", error->message);
      return 1;
    }
  if (list)
    return list_scenarios ();
  if (argc != 2)
    {
      fprintf (stderr, "chronoscope demo: %s\n",
               argc < 2 ? _("Which demo? (see chronoscope demo --list)")
                        : _("Too many arguments (see --help)"));
      return 1;
    }
  if ((scenario = cs_demo_lookup (argv[1])) == NULL)
    {
      fprintf (stderr, _("chronoscope demo: no demo is called “%s” (see chronoscope demo --list)\n"),
               argv[1]);
      return 1;
    }

  if (from != NULL)
    path = from;
  else
    {
      if (output == NULL)
        output = g_strdup_printf ("demo-%s.dat", scenario->name);
      if (!record (scenario, output, module_path, cpu))
        return 1;
      path = output;
    }

  /* "Indexing NAME: N %" on a terminal. */
  document = _cs_cli_load_document ("demo", path);
  if (document == NULL)
    return 1;
  /* The module's sections come from the kmod plugin's pass, run in the
   * worker (or reused from the cache) even when the user disabled the
   * plugin: the demo needs them, and nothing is shown but its markers. */
  plugins = cs_plugin_host_open_results (document, TRUE);
  kmod = cs_plugin_registry_lookup (cs_plugin_host_get_registry (cs_plugin_host_get_default ()),
                                    CS_DEMO_KMOD_PLUGIN);
  {
    g_autofree char *name = g_path_get_basename (path);
    /* TRANSLATORS: the progress line of `demo`, %s the recording's name */
    g_autofree char *label = g_strdup_printf (_("Finding markers A and B in %s"), name);
    g_autoptr(CsCliProgress) progress = cs_cli_progress_new_activity (label);

    if (!cs_demo_find_markers (plugins, kmod, scenario->name, &markers, &error))
      {
        g_clear_pointer (&progress, cs_cli_progress_free);
        fprintf (stderr, "chronoscope demo: %s: %s\n", path, error->message);
        return 1;
      }
  }
  if (json && !print_json (scenario->name, path, &markers, plugins, kmod, &error))
    {
      fprintf (stderr, "chronoscope demo: %s: %s\n", path, error->message);
      return 1;
    }
  if (!json)
    print_text (scenario, path, &markers);

  if (!no_open)
    open_window (scenario->name, path);
  return 0;
}
