"""How tests start ``python -m connect6`` in a subprocess.

The child must import the same connect6 as the test process: the installed
package in CI, the built checkout in development.  Running it from the
repository root would put the source tree (without compiled modules, in a
clean clone) first on sys.path, so children run from the tests folder with
PYTHONPATH pointing at the package the tests imported.
"""
import os

import connect6

RUN_DIR = os.path.dirname(os.path.abspath(__file__))
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(connect6.__file__)))


def subprocess_env(extra=None):
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = _PACKAGE_PARENT + (os.pathsep + old if old else "")
    if extra:
        env.update(extra)
    return env


SUBPROCESS_ENV = subprocess_env()
