#!/usr/bin/env bash
# Runs Cloudict as ../shared/peers/build.sh builds it (DIR/gameEngine, which
# reads patterns.in from DIR) at alpha-beta depth DEPTH, the engine itself
# being this process.   usage: bash bench/cloudict_exec.sh DIR DEPTH
#
# build.sh's wrapper pipes `{ echo depth N; cat; echo quit; }` into the engine.
# When the engine dies (Cloudict sometimes segfaults) that shell lives on,
# blocked in `cat` until its input closes, so a match saw no move until its
# hang timeout (900 s at depth 6) and recorded a crash as a stall.  Here the
# shell is replaced by the engine (exec), so the match sees it end at once,
# with its exit status.  bench/cloudict.py runs build.sh's Cloudict this way.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 DIR DEPTH (DIR: the folder of build.sh's gameEngine)" >&2
    exit 2
fi
cd "$1"
exec ./gameEngine < <(echo "depth $2"; cat; echo quit)
