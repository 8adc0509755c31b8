#!/usr/bin/env bash
# Regenerates packaging/screenshots/*.png from a real captured session by
# driving the GUI test offscreen. Run after ./test.sh has built everything.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/packaging/screenshots"
mkdir -p "$out"
MVP_SCREENSHOT_DIR="$out" QT_QPA_PLATFORM=offscreen MVP_SOURCE_DIR="$PWD" MVP_CLI="$PWD/build/bin/mvprof-cli" \
  MVP_SAMPLE_IMAGE="$PWD/resources/samples/astronaut.png" build/bin/test_gui findingNavigatesToTheExpertView >/dev/null
MVP_SCREENSHOT_DIR="$out" QT_QPA_PLATFORM=offscreen MVP_SOURCE_DIR="$PWD" MVP_CLI="$PWD/build/bin/mvprof-cli" \
  MVP_SAMPLE_IMAGE="$PWD/resources/samples/astronaut.png" build/bin/test_gui_jobs oneClickWhatIfShowsTheComparisonAndDiff >/dev/null
ls -1 "$out"
