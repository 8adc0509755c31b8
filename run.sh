#!/usr/bin/env bash
# The main job: capture the trained built-in model (ref:demo) on a bundled
# generated scene and its question, write the heatmap of where it looked
# while answering and the report, run the standard what-ifs over a small
# generated eval set (accuracy beside latency), and open the GUI on the session.
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
"$bin/mvprof-cli" capture --model ref:demo --image resources/samples/scene.png \
  --prompt "What colour is the circle?" --steps 8 --attn-layers all --threads 1 \
  --out out/demo.mvprof --force
"$bin/mvprof-cli" export out/demo.mvprof --metric answer_attention --heatmap out/demo-heatmap.png \
  --csv out/demo-heatmap.csv --force
"$bin/mvprof-cli" export out/demo.mvprof --metric answer_attention \
  --heatmap out/demo-heatmap-legend.png --legend --force
"$bin/mvprof-cli" report out/demo.mvprof | tee out/demo-report.txt

# One what-if on the scene itself (A/B repetitions, fidelity, module diff),
# then the standard what-ifs over 50 generated scenes, each against the
# baseline on the same items: visual-token pruning, W4, and the design
# note's combination (W4 + INT4 KV cache with merging + pruning).
echo
echo "== what-if on the scene: prune-0.4 =="
"$bin/mvprof-cli" whatif out/demo.mvprof --prune-visual 0.4 | tee out/demo-whatif-prune-0.4.txt
rm -rf out/scenes
"$bin/mvprof-cli" make-set --n 50 --out out/scenes >/dev/null
whatif() {
  local name=$1; shift
  echo
  echo "== what-if over 50 scenes: $name =="
  "$bin/mvprof-cli" whatif out/demo.mvprof --eval out/scenes/set.jsonl "$@" \
    | tee "out/demo-eval-$name.txt"
}
whatif prune-0.4 --prune-visual 0.4
whatif w4 --quant w4
whatif w4-kv-prune --quant w4 --kv int4 --prune-visual 0.4

if [ "$headless" -eq 0 ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin/mvprof" out/demo.mvprof
fi
echo
echo "Wrote out/demo.mvprof (the capture, its what-if and three eval what-ifs), out/demo-heatmap.png"
echo "(and -legend.png, with its colour bar), out/demo-heatmap.csv, out/demo-report.txt,"
echo "out/demo-whatif-prune-0.4.txt and out/demo-eval-{prune-0.4,w4,w4-kv-prune}.txt."
[ "$headless" -eq 1 ] || echo "No display found: run ./run.sh on a desktop to open the GUI."
