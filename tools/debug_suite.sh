#!/usr/bin/env bash
# The whole test suite against a debug build of the core: bounds and
# wraparound checks on, and every turn made or taken back in search checked
# against a full recompute of the road table (CONNECT6_DEBUG=1, see setup.py).
# Slower than the normal suite (tens of minutes on 2 cores); run it before a
# release or after touching engine_core/.   usage: bash tools/debug_suite.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${CONNECT6_DEBUG_VENV:-$(mktemp -d)/venv}"
python3 -m venv "$venv"
# shellcheck disable=SC1091
. "$venv/bin/activate"
CONNECT6_DEBUG=1 pip install -q --no-cache-dir ".[test]"
python -c "from engine_core import position; assert position.debug_build(), 'not a debug build'"
cd tests && python -m pytest -q -p no:cacheprovider "$@"
