#!/usr/bin/python3
"""The Python package with a model on a GPU (#14), checked without one.
A run whose device is CUDA is observed as the CLI's captures are — CUPTI
kernels attributed to modules, span device times from CUDA events, NVML
energy — and each part that cannot start here leaves its reason:
- a run begun through the C ABI on "cuda:0" stores gpu.trace_available,
  gpu.device_timing, energy.gpu_available and gpu.memory_available = 0 (the
  allocator's peak: libtorch 2.8's statistics, absent from Debian's 1.13),
  each with a reason, and
  the CPU's ceilings (libtorch sees no GPU); a CPU run stores none of them;
- the run's device_timing ("off" says so) and no_gpu_trace reach it, and an
  unknown timing mode is refused before anything is written.
W8 off the CPU (torch's int8 matmuls, _int8.py): codes by hand, the _int_mm
path's arithmetic against an exact integer product standing in for
torch._int_mm (absent from this torch), and the reason where no kernel runs.
Its phases end when the GPU's work has: a model on CUDA launches kernels
asynchronously, so every phase boundary (the recorded run's and the A/B
repetitions') first waits for the model's devices:
- device_settle synchronises exactly the CUDA devices a model's parameters
  and buffers are on (a stand-in model reporting cuda:1 and cuda:0; torch's
  synchronize replaced by a recorder), and nothing for a model on the CPU;
- a recorded run calls it right before every phase mark and before the run's
  end (the C ABI's calls logged in order);
- a what-if's timed passes call it at both ends of every phase.
Run by CTest with Debian's /usr/bin/python3; the package comes from
$MVP_PYTHON_DIR (<build>/python).
"""

import ctypes
import os
import sqlite3
import sys
import tempfile
import warnings
from typing import List

import torch

sys.path.insert(0, os.environ["MVP_PYTHON_DIR"])
import mvprof  # noqa: E402
from mvprof import _abi, _int8, _passes, _profile  # noqa: E402
from checks import check, status  # noqa: E402



class FakeTensor:
    def __init__(self, device: str) -> None:
        self.device = torch.device(device)


class OnTwoGpus:
    """Parameters on cuda:1 and cuda:0, a buffer on cuda:1 and one on the CPU."""

    def parameters(self):
        return iter([FakeTensor("cuda:1"), FakeTensor("cuda:0"), FakeTensor("cuda:1")])

    def buffers(self):
        return iter([FakeTensor("cuda:1"), FakeTensor("cpu")])


def settles_the_model_devices() -> None:
    synced: List[int] = []
    real = torch.cuda.synchronize
    torch.cuda.synchronize = lambda device=None: synced.append(device)
    try:
        _passes.device_settle(OnTwoGpus())()
        check(synced == [0, 1], f"every CUDA device of the model once, in order: {synced}")
        synced.clear()
        _passes.device_settle(torch.nn.Linear(4, 4))()
        check(synced == [], "a CPU model's settle synchronises nothing")
    finally:
        torch.cuda.synchronize = real


def tiny_run(prof) -> None:
    x = torch.ones(2, 8)
    with prof.phase("prefill"):
        prof.model(x)
    for step in (1, 2):
        with prof.phase("decode", step):
            prof.model(x)


def recorded_phases_wait() -> None:
    log: List[str] = []
    real_settle, real_call = _profile.device_settle, _profile.Profile.call
    _profile.device_settle = lambda model: (lambda: log.append("settle"))

    def logged_call(self, name, *args):
        log.append(name)
        return real_call(self, name, *args)

    _profile.Profile.call = logged_call
    try:
        with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a linear layer has no router: said, not checked
            model = torch.nn.Linear(8, 8)
            with torch.inference_mode(), \
                    mvprof.profile(os.path.join(tmp, "s.mvprof"), model, force=True) as prof:
                tiny_run(prof)
    finally:
        _profile.device_settle, _profile.Profile.call = real_settle, real_call
    marks = [i for i, name in enumerate(log) if name in ("mvprof_begin_phase", "mvprof_end_run")]
    check(len(marks) == 4, f"three phase marks and the run's end logged: {len(marks)}")
    check(all(i > 0 and log[i - 1] == "settle" for i in marks),
          "each phase mark and the run's end come right after a settle")


def timed_passes_wait() -> None:
    events: List[str] = []
    real = _passes.device_settle
    _passes.device_settle = lambda model: (lambda: events.append("settle"))
    try:
        timed = _passes.TimedPass(torch.nn.Linear(8, 8))
        with torch.no_grad():
            tiny_run(timed)
    finally:
        _passes.device_settle = real
    check(events == ["settle"] * 6, f"a settle at both ends of each of 3 phases: {len(events)}")
    check(set(timed.times) == {"prefill", "decode"}, f"phases timed: {sorted(timed.times)}")


def abi_run(path: str, device: bytes, **observe) -> None:
    """One run through the C ABI on `device`: a phase with an op in it;
    `observe`: device_timing, no_gpu_trace."""
    lib, session = _abi.library(), ctypes.c_void_p()
    _abi.check(lib.mvprof_open(path.encode(), 0, ctypes.byref(session)))
    try:
        info = _abi.RunInfo(model=b"python:Linear", device=device, dtype=b"float32",
                            record_ops=1, record_attention=0, **observe)
        run = ctypes.c_longlong()
        _abi.check(lib.mvprof_begin_run(session, ctypes.byref(info), ctypes.byref(run)))
        _abi.check(lib.mvprof_begin_phase(session, b"prefill", 0))
        with torch.inference_mode():
            torch.nn.functional.linear(torch.ones(2, 8), torch.ones(4, 8))
        _abi.check(lib.mvprof_end_run(session, 0, None))
    finally:
        _abi.check(lib.mvprof_close(session))


def a_cuda_run_says_what_it_could_not_observe() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.mvprof")
        abi_run(path, b"cuda:0")
        abi_run(path, b"cpu")
        db = sqlite3.connect(path)
        names = ("gpu.trace_available", "gpu.device_timing", "energy.gpu_available",
                 "gpu.memory_available")
        rows = {(run, name): (value, note) for run, name, value, note in db.execute(
            "SELECT run, name, value, note FROM run_metric WHERE name IN (?, ?, ?, ?)", names)}
        devices = [d for (d,) in db.execute(
            "SELECT name FROM device ORDER BY run")]
        db.close()
    for name in names:
        value, note = rows.get((1, name), (None, ""))
        check(value == 0 and len(note) > 10, f"cuda:0 run: {name} = {value} ({note[:80]})")
        check((2, name) not in rows, f"cpu run: no {name}")
    if tuple(int(x) for x in torch.__version__.split(".")[:2]) < (2, 8):
        note = rows.get((1, "gpu.memory_available"), (None, ""))[1]
        check("libtorch 2.8" in note, f"the allocator's statistics: why not ({note})")
    check(bool(devices) and all(d.startswith("CPU") for d in devices),
          f"the ceilings are the CPU's where libtorch sees no GPU: {devices}")


def a_cuda_runs_observation_is_chosen() -> None:
    """device_timing and no_gpu_trace reach the run: "off" says it was
    switched off (not that timing failed), no trace leaves no trace metric,
    and a timing mode nobody knows is refused with the three it takes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.mvprof")
        abi_run(path, b"cuda:0", device_timing=b"off", no_gpu_trace=1)
        abi_run(path, b"cuda:0", device_timing=b"exact")
        try:
            abi_run(path, b"cuda:0", device_timing=b"sometimes")
            refused = ""
        except mvprof.MvprofError as e:
            refused = str(e)
        with sqlite3.connect(path) as db:
            notes = {(run, name): note for run, name, note in db.execute(
                "SELECT run, name, note FROM run_metric WHERE name IN "
                "('gpu.device_timing', 'gpu.trace_available')")}
            runs = db.execute("SELECT count(*) FROM run").fetchone()[0]
    check(notes.get((1, "gpu.device_timing"), "").startswith("off"),
          f"device_timing off: {notes.get((1, 'gpu.device_timing'))}")
    check((1, "gpu.trace_available") not in notes, "no_gpu_trace: no trace, so no trace metric")
    check(notes.get((2, "gpu.device_timing"), "").startswith("n/a"),
          f"device_timing exact without a GPU: why not ({notes.get((2, 'gpu.device_timing'))})")
    check("events" in refused and "exact" in refused and runs == 2,
          f"an unknown device_timing is refused before a run is written: {refused!r}, {runs} runs")
    try:
        mvprof.profile(os.path.join(tempfile.gettempdir(), "unused.mvprof"), torch.nn.Linear(2, 2),
                       device_timing="exact", gpu_trace=False)
        made = True
    except mvprof.MvprofError:
        made = False
    check(made, "profile() takes device_timing and gpu_trace")
    # A what-if times as its baseline did unless told otherwise.
    base = mvprof.profile(os.path.join(tempfile.gettempdir(), "unused.mvprof"),
                          torch.nn.Linear(2, 2), device_timing="exact", gpu_trace=False)
    base.run_id = 1  # as if it had run
    w = mvprof.whatif(base, torch.nn.Linear(2, 2), mvprof.W8())
    told = mvprof.whatif(base, torch.nn.Linear(2, 2), mvprof.W8(), device_timing="off")
    check((w.device_timing, w.gpu_trace, told.device_timing) == ("exact", False, "off"),
          f"a what-if's observation follows its baseline's: {w.device_timing}, {w.gpu_trace}, "
          f"{told.device_timing}")


def exact_int_mm(seen: List[tuple]):
    """int8 × int8 → int32 exactly (int64 arithmetic), as torch._int_mm
    defines it, noting each call's operand shapes and dtypes."""
    def int_mm(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        seen.append((tuple(a.shape), tuple(b.shape), a.dtype, b.dtype))
        return (a.long() @ b.long()).int()
    return int_mm


def relative(got: torch.Tensor, want: torch.Tensor) -> float:
    return float((got.float() - want).norm() / want.norm())


def w8_off_the_cpu_arithmetic() -> None:
    """W8's int8 codes and the _int_mm path (_int8.py), with an exact integer
    product standing in for torch._int_mm, which this torch lacks."""
    w = torch.tensor([[1.0, -2.2, 0.5, 4.0], [0.1, 0.2, -0.3, 0.0]])
    codes, scale = _int8.quantise(w)
    # Row 0: scale 4/127; 31.75 → 32, −69.85 → −70, 15.875 → 16, 127.
    # Row 1: scale 0.3/127; 42.33 → 42, 84.67 → 85, −127, 0.
    check(codes.tolist() == [[32, -70, 16, 127], [42, 85, -127, 0]] and
          codes.dtype == torch.int8, f"int8 codes by hand: {codes.tolist()}")
    check(torch.allclose(scale, torch.tensor([4 / 127, 0.3 / 127])), f"scales: {scale.tolist()}")
    torch.manual_seed(0)
    big = torch.randn(24, 64)
    codes, scale = _int8.quantise(big)
    deq = codes.float() * scale.unsqueeze(1)
    seen: List[tuple] = []
    x = torch.randn(3, 64)
    y = _int8.row_quantised(x, codes, scale, exact_int_mm(seen))
    check(seen == [((32, 64), (64, 24), torch.int8, torch.int8)],
          f"3 rows padded to 32, codesᵀ [in, out], both int8: {seen}")
    check(y.shape == (3, 24) and relative(y, x @ deq.t()) < 0.01,
          f"the product within 1 % of the float one: {relative(y, x @ deq.t()):.4f}")
    whole = torch.arange(2 * 64, dtype=torch.float32).remainder(127).sub(63).view(2, 64)
    whole[:, 0] = 127  # each row's step is exactly 1: coded without rounding
    exact = _int8.row_quantised(whole, codes, scale, exact_int_mm([]))
    check(relative(exact, whole @ deq.t()) < 1e-5, "rows coded exactly give the float product")
    linear = torch.nn.Linear(64, 24)
    layer = _int8.Int8Linear(linear, lambda x, c, s: _int8.row_quantised(x, c, s,
                                                                          exact_int_mm([])))
    with torch.no_grad():
        want = x @ (layer.codes.float() * layer.scale.unsqueeze(1)).t() + linear.bias
        check(relative(layer(x), want) < 0.01 and layer.disagreement(torch.float32) < 0.01,
              "an Int8Linear adds its bias, and checks out against its dequantised weights")
    try:
        name, _ = _int8.choose_kernel(torch.device("cpu"), torch.float32)
        print(f"  int8 matmul on the CPU here: {name}")
    except mvprof.MvprofError as e:
        check(torch.__version__ >= "2" or ("_weight_int8pack_mm" in str(e) and "_int_mm" in str(e)),
              f"without an int8 matmul both kernels say why: {e}")


a_cuda_run_says_what_it_could_not_observe()
a_cuda_runs_observation_is_chosen()
w8_off_the_cpu_arithmetic()
settles_the_model_devices()
recorded_phases_wait()
timed_passes_wait()
sys.exit(status())
