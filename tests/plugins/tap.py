"""TAP output and a private environment for the plugin tests' scripts."""
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

    def finish(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        print('1..%d' % self.n)
        sys.exit(1 if self.failed else 0)
