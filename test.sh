#!/usr/bin/env bash
# Installs the dependencies, builds everything (Release) and runs the CTest
# suite on the offscreen Qt platform; then core/ and its unit tests are built
# again under AddressSanitizer + UBSan (preset asan) and the tests labelled
# "unit" run there: any finding fails the suite. Ends with the ten slowest
# tests, so the next growth of the suite is visible.
#   ./test.sh            the default suite: every feature end to end,
#                        benchmarks at smoke size (they still print ratios)
#   ./test.sh --full     also the full-size benchmarks (1 GB trace import,
#                        10 M-op GUI session, ref:small overheads) and the
#                        ref:small what-if table (test_whatif_transforms)
# Other arguments go to the Release ctest (e.g. -R test_session);
# MVP_SKIP_ASAN=1 skips the sanitizer pass. The compiler cache lives in
# ~/.cache/mvprof-ccache (CCACHE_DIR overrides it), shared by every clone.
set -euo pipefail
cd "$(dirname "$0")"

full=OFF
args=()
for a in "$@"; do
  case "$a" in
    --full) full=ON ;;
    *) args+=("$a") ;;
  esac
done

packaging/deps.sh
export QT_QPA_PLATFORM=offscreen
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/mvprof-ccache}"
cmake --preset release -DMVP_FULL_TESTS="$full" >/dev/null
cmake --build --preset release
log=build/Testing/suite.log
mkdir -p build/Testing
status=0
ctest --preset release -j "$(nproc)" ${args[@]+"${args[@]}"} | tee "$log" || status=$?

if [[ "${MVP_SKIP_ASAN:-0}" != 1 && $status -eq 0 ]]; then
  cmake --preset asan >/dev/null
  cmake --build --preset asan
  ctest --preset asan -j "$(nproc)" || status=$?
fi

echo
echo "Slowest tests (seconds, Release):"
grep -E '^ *[0-9]+/[0-9]+ Test +#' "$log" |
  sed -E 's/.*Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/' | sort -rn | head -10 |
  awk '{printf "  %7.1f  %s\n", $1, $2}'
exit $status
