#!/usr/bin/env bash
# Every GPU check, in one run on the GPU machine (CUDA 13, PyTorch 2.x wheel,
# no Qt): builds core + capture + mvprof-cli against the wheel's libtorch
# (the headless preset), then runs the checks, writing logs under $OUT.
# Each check reports on its own; the script's status is the first failure.
# The checks' "SUMMARY …" lines are gathered and printed last, as one table.
#   tests/gpu/run.sh            (on the device: `run` with this command)
#   tests/gpu/run.sh int8 python   only these checks (a rerun after a fix, on
#                                  a warm machine whose build-gpu is kept):
#     kineto cuda_capture trace_cost int4 int8 python design_table cuda_gpu whatifs
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/mvprof-gpu}"
mkdir -p "$OUT"
: > "$OUT/summary.txt"
status=0
PY="${PYTHON:-python3}"
ONLY=" $* "
# Whether check $1 runs: every check without arguments, else those named.
want() { [ "$ONLY" = "  " ] || [[ "$ONLY" == *" $1 "* ]]; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee "$OUT/gpu.txt"
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.is_available())" 2>&1 | tee -a "$OUT/gpu.txt"

echo "== build (headless, libtorch from the wheel)"
TORCH_PREFIX="$("$PY" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
ABI="$("$PY" -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')"
if cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DMVP_WITH_GUI=OFF \
     -DBUILD_TESTING=ON -DCMAKE_PREFIX_PATH="$TORCH_PREFIX" \
     -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$ABI" > "$OUT/configure.log" 2>&1 &&
   cmake --build build-gpu --target mvprof-cli -j "$(nproc)" > "$OUT/build.log" 2>&1; then
  echo "built build-gpu/bin/mvprof-cli"
  # Which optional parts this libtorch and toolkit gave (CUDA, GpuMemoryStats, …).
  awk '/features have been/ {on = 1; print; next} /^-- / {on = 0} on && /^ \* /' \
    "$OUT/configure.log"
else
  echo "build failed: see configure.log / build.log (tail below)"
  tail -30 "$OUT/configure.log" "$OUT/build.log" 2>/dev/null
  exit 1
fi
CLI="$PWD/build-gpu/bin/mvprof-cli"

if want kineto; then
  echo "== #13 (c): a real Kineto trace (PyTorch 2.x, CUDA) imports"
  if "$PY" tests/gpu/check_kineto_import.py "$CLI" "$OUT/kineto" 2>&1 | tee "$OUT/kineto.log"; then
    echo "kineto import: ok"
  else
    echo "kineto import: FAILED"
    status=1
  fi
fi
# A Python check with the CLI, the sample image and its own folder under
# $OUT, logged: 0 ok, 77 skipped (the check says why), else a failure.
py_check() {
  local label="$1" name="$2"
  "$PY" "tests/gpu/$name.py" "$CLI" resources/samples/astronaut.png "$OUT/$name" 2>&1 |
    tee "$OUT/$name.log" | grep -v '^SUMMARY '
  local rc=${PIPESTATUS[0]}
  grep '^SUMMARY ' "$OUT/$name.log" | sed 's/^SUMMARY //' >> "$OUT/summary.txt"
  case $rc in
    0) echo "$label: ok" ;;
    77) echo "$label: skipped (the reason is above)" ;;
    *) echo "$label: FAILED"; status=1 ;;
  esac
}
if want cuda_capture; then
  echo "== #14: the built-in models on CUDA (--device cuda, bfloat16 / float16)"
  py_check "cuda capture" check_cuda_capture
fi
echo "== #14: CUPTI tracing's cost, traced vs untraced in one process (ref:small, bfloat16)"
# Built on its own (it also drives libtorch's profiler, whose API moves
# between releases): a failure here leaves the other checks running.
if ! want trace_cost; then
  echo "tracing cost: not asked for"
elif cmake --build build-gpu --target bench_capture_overhead -j "$(nproc)" \
     > "$OUT/build-bench.log" 2>&1; then
  build-gpu/bin/bench_capture_overhead --gpu-trace ref:small 7 2>&1 | tee "$OUT/trace_cost.log"
  case ${PIPESTATUS[0]} in
    0) grep 'tracing cost ratio' "$OUT/trace_cost.log" | sed 's/^ */tracing: /' >> "$OUT/summary.txt" ;;
    77) echo "tracing cost: skipped (the reason is above)" ;;
    *) echo "tracing cost: FAILED"; status=1 ;;
  esac
else
  echo "tracing cost: NOT BUILT (see build-bench.log, tail below)"
  tail -20 "$OUT/build-bench.log"
  status=1
fi
if want int4; then
  echo "== #11 / #14: W4 on libtorch's int4 matmul (CPU kernel of the wheel's libtorch)"
  py_check "int4 kernel" check_int4
fi
if want int8; then
  echo "== #14: W8 on libtorch's int8 matmul on CUDA (llava-moe-7b, 1 layer, float16)"
  py_check "int8 matmul on cuda" check_int8_cuda
fi
echo "== #14: the Python package with this PyTorch, on CUDA"
if ! want python; then
  echo "python on cuda: not asked for"
elif cmake --build build-gpu --target mvprof_python -j "$(nproc)" > "$OUT/build-python.log" 2>&1; then
  py_check "python on cuda" check_python_cuda
else
  echo "python on cuda: NOT BUILT (see build-python.log, tail below)"
  tail -20 "$OUT/build-python.log"
  status=1
fi
if want design_table; then
  echo "== #14: the design note's table (FP16 / AWQ-4bit + KV cache / + token pruning) on CUDA"
  py_check "design table" check_design_table
fi
echo "== #14: CUPTI tracer and CUDA injection (test_cuda_gpu)"
# Built on its own: without nvcc or CUDA::cudart the target is missing, and
# the checks above still ran.
if ! want cuda_gpu; then
  echo "cuda tracer + injection: not asked for"
elif ! cmake --build build-gpu --target test_cuda_gpu -j "$(nproc)" > "$OUT/build-cuda.log" 2>&1; then
  echo "cuda tracer + injection: NOT BUILT (see build-cuda.log, tail below)"
  tail -20 "$OUT/build-cuda.log"
  status=1
else
  build-gpu/bin/test_cuda_gpu "$CLI" 2>&1 | tee "$OUT/cuda_gpu.log"
  case ${PIPESTATUS[0]} in
    0) echo "cuda tracer + injection: ok" ;;
    77) echo "cuda tracer + injection: skipped (no GPU: the reason is above)" ;;
    *) echo "cuda tracer + injection: FAILED"; status=1 ;;
  esac
fi
# Last: the longest list, whose time must not cut the checks above short.
if want whatifs; then
  echo "== #14: the other what-ifs on CUDA (experts, channels, downsample, token drop, merging, KV methods)"
  py_check "what-ifs on cuda" check_whatifs_cuda
fi
echo "== summary"
if [ -s "$OUT/summary.txt" ]; then
  cat "$OUT/summary.txt"
else
  echo "(no figures: every check failed or was skipped)"
fi
exit $status
