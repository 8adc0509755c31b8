#!/usr/bin/env bash
# Installs the dependencies, builds everything (Release) and runs the whole
# CTest suite on the offscreen Qt platform. Benchmarks run too and print
# their measured ratios; they never fail on timing. Then core/ and its tests
# are built again under AddressSanitizer + UBSan (preset asan) and the tests
# labelled "core" run there: any finding fails the suite.
# Arguments go to the Release ctest (e.g. -R test_session); MVP_SKIP_ASAN=1
# skips the sanitizer pass.
set -euo pipefail
cd "$(dirname "$0")"

packaging/deps.sh
export QT_QPA_PLATFORM=offscreen
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.cache/ccache}"
cmake --preset release >/dev/null
cmake --build --preset release
ctest --preset release -j "$(nproc)" "$@"

if [[ "${MVP_SKIP_ASAN:-0}" != 1 ]]; then
  cmake --preset asan >/dev/null
  cmake --build --preset asan
  ctest --preset asan -j "$(nproc)"
fi
