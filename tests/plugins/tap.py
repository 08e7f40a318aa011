"""TAP output, a private environment and the recordings for the plugin tests' scripts."""
import os
import shutil
import subprocess
import sys
import tempfile


class Tap:
    """Numbers the checks, prints them as TAP, and a plan at the end."""

    def __init__(self, prefix):
        self.n = 0
        self.failed = False
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        # Private cache and data folders; only the plugins given with -p.
        self.env = dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp, 'cache'),
                        XDG_DATA_HOME=os.path.join(self.tmp, 'data'), CHRONOSCOPE_PLUGIN_PATH='',
                        CHRONOSCOPE_PLUGIN_SYSTEM_PATH='')

    def ok(self, cond, what, detail=''):
        self.n += 1
        print(('ok %d - %s' if cond else 'not ok %d - %s') % (self.n, what))
        if not cond:
            self.failed = True
            for line in str(detail).splitlines()[:40]:
                print('# ' + line)

    def skip(self, what, why):
        """A check that could not run, as TAP's SKIP (meson counts it as passed)."""
        self.n += 1
        print('ok %d - %s # SKIP %s' % (self.n, what, why))

    def finish(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        print('1..%d' % self.n)
        sys.exit(1 if self.failed else 0)


# What LeakSanitizer prints when its own tracer thread crashes while it
# stops the process's threads for the leak check at exit (seen under load
# in the ASan suite, on `latency --explain` of several recordings, with
# nothing of Chronoscope on the stack): the command's work and output are
# done by then, and the leak check did not run.  A real leak reads
# "ERROR: LeakSanitizer: detected memory leaks", a crash of the command
# "ERROR: AddressSanitizer": neither is run again.
LSAN_TRACER_CRASH = ('Tracer caught signal', 'LeakSanitizer has encountered a fatal error')


def run_command(cmd, **kwargs):
    """subprocess.run(@cmd, **kwargs), once more when LeakSanitizer's own
    tracer crashed at exit (LSAN_TRACER_CRASH), so that the leak check
    runs; says so on stderr (the TAP stream's diagnostics)."""
    result = subprocess.run(cmd, **kwargs)
    stderr = result.stderr if isinstance(result.stderr, str) else ''
    if result.returncode != 0 and all(s in stderr for s in LSAN_TRACER_CRASH):
        print('# LeakSanitizer\'s tracer crashed at exit of %s; running it again' % ' '.join(cmd),
              file=sys.stderr)
        result = subprocess.run(cmd, **kwargs)
    return result


def public_recording(name):
    """(path, None) for the public recording NAME of ../shared/testdata/public
    ($CS_SHARED_TESTDATA, which only a clone with that folder beside it has),
    or (None, why) naming the missing folder or file."""
    folder = os.environ.get('CS_SHARED_TESTDATA', '')
    if not folder or not os.path.isdir(folder):
        return None, 'no public recordings: %s is absent' % (folder or '$CS_SHARED_TESTDATA')
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None, 'public recording %s is absent' % path
    return path, None
