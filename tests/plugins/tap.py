"""TAP output, a private environment and the recordings for the plugin tests' scripts."""
import os
import shutil
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
