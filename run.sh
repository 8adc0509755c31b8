#!/usr/bin/env bash
# The main job: capture the built-in reference model on the bundled sample
# photograph, write the heatmap and the report, run the standard what-ifs
# against it, and open the GUI on the session.
#   ./run.sh             with a display: opens the GUI; without one: headless
#   ./run.sh --headless  never opens a window
set -euo pipefail
cd "$(dirname "$0")"

headless=0
for a in "$@"; do
  case "$a" in
    --headless) headless=1 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $a (use --headless)" >&2; exit 2 ;;
  esac
done

packaging/deps.sh
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/mvprof-ccache}"
cmake --preset release >/dev/null
# Only what this script runs: the CLI, and the GUI unless headless (./test.sh
# builds the rest).
targets=(mvprof-cli)
[ "$headless" -eq 1 ] || targets+=(mvprof)
cmake --build --preset release --target "${targets[@]}"

bin=build/bin
mkdir -p out
"$bin/mvprof-cli" capture --model ref:tiny --image resources/samples/astronaut.png \
  --prompt "Describe the astronaut's suit." --steps 16 --attn-layers all --out out/demo.mvprof --force
"$bin/mvprof-cli" export out/demo.mvprof --heatmap out/demo-heatmap.png --csv out/demo-heatmap.csv --force
"$bin/mvprof-cli" export out/demo.mvprof --heatmap out/demo-heatmap-legend.png --legend --force
"$bin/mvprof-cli" report out/demo.mvprof | tee out/demo-report.txt

# The standard what-ifs, each re-run for real against the capture (A/B
# repetitions, fidelity, module diff): visual-token pruning, W4, and the
# design note's combination (W4 + INT4 KV cache with merging + pruning).
whatif() {
  local name=$1; shift
  echo
  echo "== what-if: $name =="
  "$bin/mvprof-cli" whatif out/demo.mvprof "$@" | tee "out/demo-whatif-$name.txt"
}
whatif prune-0.4 --prune-visual 0.4
whatif w4 --quant w4
whatif w4-kv-prune --quant w4 --kv int4 --prune-visual 0.4

if [ "$headless" -eq 0 ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin/mvprof" out/demo.mvprof
fi
echo
echo "Wrote out/demo.mvprof (the capture and its three what-ifs), out/demo-heatmap.png"
echo "(and -legend.png, with its colour bar), out/demo-heatmap.csv, out/demo-report.txt and out/demo-whatif-{prune-0.4,w4,w4-kv-prune}.txt."
[ "$headless" -eq 1 ] || echo "No display found: run ./run.sh on a desktop to open the GUI."
