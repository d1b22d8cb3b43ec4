#!/usr/bin/env bash
# Configures and builds Hearth into build/ (Release flavour with debug info).
# Usage: scripts/build.sh [extra cmake -D options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HEARTH_BUILD_DIR:-$root/build}"
type="${HEARTH_BUILD_TYPE:-RelWithDebInfo}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
cmake --build "$build" -j"${HEARTH_JOBS:-2}"
