#!/usr/bin/env bash
# The whole test suite against a debug build of the core: bounds and
# wraparound checks on, and every turn made or taken back in search checked
# against a full recompute of the road table (CONNECT6_DEBUG=1, see setup.py).
# Builds the committed tree (HEAD) from a clean copy, so no in-place build of
# this checkout is reused or touched, into a fresh virtual environment.
# Slower than the normal suite (tens of minutes on 2 cores); run it before a
# release or after touching engine_core/.   usage: bash tools/debug_suite.sh [pytest args]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${CONNECT6_DEBUG_DIR:-$(mktemp -d)}"
git -C "$repo" archive HEAD | tar -x -C "$work"
python3 -m venv "$work/venv"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
cd "$work"
CONNECT6_DEBUG=1 pip install -q --no-cache-dir ".[test]"
cd "$work/tests"        # import the installed package, not the copied sources
python -c "from engine_core import position; assert position.debug_build(), 'not a debug build'"
python -m pytest -q -p no:cacheprovider "$@"
