#!/usr/bin/env bash
# Trains ref:demo's checkpoint from scratch, both stages of docs/training.md
# in one go, and prints each stage's time and the total (wall clock,
# process start-up included). Run after ./test.sh has built mvprof-cli, on
# an otherwise idle machine; then check the result as docs/training.md says
# before copying it over resources/models/ref-demo.safetensors.
#   packaging/train-ref-demo.sh [OUT_DIR]   (default: ./ref-demo-training)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${MVP_CLI:-$root/build/bin/mvprof-cli}"
out="$(mkdir -p "${1:-ref-demo-training}" && cd "${1:-ref-demo-training}" && pwd)"

stage() { # name, then mvprof-cli train's arguments
  local name=$1 start
  shift
  start=$(date +%s)
  "$cli" train "$@" 2>&1 | tee "$out/$name.log"
  echo "$name: $(( $(date +%s) - start )) s" | tee -a "$out/times.txt"
}

: >"$out/times.txt"
begin=$(date +%s)
# 1. the model: the encoder alone on the per-patch labels, then the questions.
stage stage1 --out "$out/stage1.safetensors" --vision-steps 6000 --steps 10500 \
  --batch 16 --lr 0.002 --warmup 200 --data-seed 0 --seed 0 --workers 2 --report 100
# 2. where it looks: the grounding loss, on scenes stage 1 never saw.
stage stage2 --weights "$out/stage1.safetensors" --out "$out/ref-demo.safetensors" \
  --steps 200 --batch 16 --lr 0.0005 --warmup 20 --look-weight 0.2 --aux-weight 0 \
  --workers 2 --data-seed 1 --report 50
echo "total: $(( $(date +%s) - begin )) s" | tee -a "$out/times.txt"
sha256sum "$out/ref-demo.safetensors"
