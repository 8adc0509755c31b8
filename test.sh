#!/usr/bin/env bash
# Installs the dependencies, builds everything (Release) and runs the whole
# CTest suite on the offscreen Qt platform. Benchmarks run too and print
# their measured ratios; they never fail on timing.
set -euo pipefail
cd "$(dirname "$0")"

packaging/deps.sh
export QT_QPA_PLATFORM=offscreen
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.cache/ccache}"
cmake --preset release >/dev/null
cmake --build --preset release
ctest --preset release -j "$(nproc)" "$@"
