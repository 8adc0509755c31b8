#!/usr/bin/env bash
# The main job: capture the built-in reference model on the bundled sample
# photograph, write the heatmap and the report, and open the GUI on the session.
#   ./run.sh             with a display: opens the GUI; without one: headless
#   ./run.sh --headless  never opens a window
set -euo pipefail
cd "$(dirname "$0")"

headless=0
for a in "$@"; do
  case "$a" in
    --headless) headless=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $a (use --headless)" >&2; exit 2 ;;
  esac
done

packaging/deps.sh
export CCACHE_DIR="${CCACHE_DIR:-$PWD/.cache/ccache}"
cmake --preset release >/dev/null
cmake --build --preset release

bin=build/bin
mkdir -p out
"$bin/mvprof-cli" capture --model ref:tiny --image resources/samples/astronaut.png \
  --prompt "Describe the astronaut's suit." --steps 16 --attn-layers all --out out/demo.mvprof --force
"$bin/mvprof-cli" export out/demo.mvprof --heatmap out/demo-heatmap.png --csv out/demo-heatmap.csv --force
"$bin/mvprof-cli" report out/demo.mvprof | tee out/demo-report.txt

if [ "$headless" -eq 0 ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin/mvprof" out/demo.mvprof
fi
echo
echo "Wrote out/demo.mvprof, out/demo-heatmap.png, out/demo-heatmap.csv and out/demo-report.txt."
[ "$headless" -eq 1 ] || echo "No display found: run ./run.sh on a desktop to open the GUI."
