#!/usr/bin/env bash
# Configures and builds Hearth into build/ (Release; HEARTH_BUILD_TYPE=Debug
# with -DHEARTH_SANITIZE=ON for ASan/UBSan).
# Usage: scripts/build.sh [extra cmake -D options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HEARTH_BUILD_DIR:-$root/build}"
type="${HEARTH_BUILD_TYPE:-Release}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
cmake --build "$build" -j"${HEARTH_JOBS:-2}"
