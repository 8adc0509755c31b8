"""The capture library (libmvprof_capture.so) over ctypes: loading it,
the signatures of capture/api/mvprof_capture.h, and errors as exceptions."""

from __future__ import annotations

import ctypes
import os
from typing import Optional

ABI_VERSION = 8


class MvprofError(RuntimeError):
    """A refusal or failure of the capture library, with its message."""


class RunInfo(ctypes.Structure):
    """mvprof_run_info."""
    _fields_ = [("model", ctypes.c_char_p), ("prompt", ctypes.c_char_p),
                ("image_path", ctypes.c_char_p),
                ("image_data", ctypes.POINTER(ctypes.c_ubyte)), ("image_size", ctypes.c_longlong),
                ("config_json", ctypes.c_char_p),
                ("device", ctypes.c_char_p), ("dtype", ctypes.c_char_p),
                ("transform", ctypes.c_char_p), ("baseline_run", ctypes.c_longlong),
                ("record_ops", ctypes.c_int), ("record_attention", ctypes.c_int),
                ("device_timing", ctypes.c_char_p), ("no_gpu_trace", ctypes.c_int)]


class VisualObservation(ctypes.Structure):
    """mvprof_visual_observation."""
    _fields_ = [("layers", ctypes.c_int), ("dim", ctypes.c_int), ("grid_patches", ctypes.c_int),
                ("rows", ctypes.POINTER(ctypes.c_int)), ("patches", ctypes.POINTER(ctypes.c_int)),
                ("values", ctypes.POINTER(ctypes.c_float)),
                ("queries", ctypes.POINTER(ctypes.c_int)),
                ("attention", ctypes.POINTER(ctypes.c_double))]


_S = ctypes.c_void_p
_STR = ctypes.c_char_p
_INT = ctypes.c_int
_LL = ctypes.c_longlong
_DBL = ctypes.c_double
_INTP = ctypes.POINTER(ctypes.c_int)
_FLTP = ctypes.POINTER(ctypes.c_float)
_SIGNATURES = {
    "mvprof_open": [_STR, _INT, ctypes.POINTER(_S)],
    "mvprof_begin_run": [_S, ctypes.POINTER(RunInfo), ctypes.POINTER(_LL)],
    "mvprof_set_patch_grid": [_S, _INT, _INT, _INT, _INT, _INT],
    "mvprof_add_visual_tokens": [_S, _INT, _INT, _INTP],
    "mvprof_set_vision_features": [_S, _INT, _INT, _FLTP],
    "mvprof_begin_phase": [_S, _STR, _INT],
    "mvprof_begin_module": [_S, _STR, _STR, _STR],
    "mvprof_end_module": [_S],
    "mvprof_declare_module": [_S, _STR, _STR, _STR, _INTP],
    "mvprof_enter_module": [_S, _INT],
    "mvprof_current_layer": [_S, _INTP],
    "mvprof_pause_ops": [_S, _INT],
    "mvprof_add_routing": [_S, _INT, _INT, _INT, _INT, _DBL, _STR],
    "mvprof_add_routing_rows": [_S, _INT, _INT, _INT, _INT, ctypes.POINTER(_LL), _FLTP],
    "mvprof_add_token": [_S, _INT, _STR, _INT, _INT],
    "mvprof_add_step_output": [_S, _INT, _FLTP, _INT],
    "mvprof_add_metric": [_S, _STR, _DBL, _STR, _STR, _STR],
    "mvprof_add_repetition": [_S, _INT, _INT, _STR, _LL, _INT],
    "mvprof_add_resampling_loss": [_S, ctypes.POINTER(VisualObservation),
                                   ctypes.POINTER(VisualObservation)],
    "mvprof_add_quantised_module": [_S, _STR, _LL, _LL],
    "mvprof_counters_begin": [_S, _INTP],
    "mvprof_counter_pass": [_S, _INT, _INTP],
    "mvprof_counter_push": [_S, _STR],
    "mvprof_counter_pop": [_S],
    "mvprof_counters_end": [_S, _STR],
    "mvprof_end_run": [_S, _INT, _STR],
    "mvprof_begin_eval": [_S, ctypes.POINTER(RunInfo), ctypes.POINTER(RunInfo), _STR, _STR,
                          _INTP, ctypes.POINTER(_LL), ctypes.POINTER(_LL)],
    "mvprof_eval_item": [_S, _INT, ctypes.POINTER(_STR)],
    "mvprof_add_eval_item": [_S, _INT, _INT, _STR, _FLTP, _INT, _INT, _INT, _INTP, _INT,
                             ctypes.POINTER(_STR), ctypes.POINTER(_LL), _INT, _INTP],
    "mvprof_begin_eval_observation": [_S, _INT, _INT],
    "mvprof_end_eval_observation": [_S],
    "mvprof_end_eval": [_S, _INT, _STR],
    "mvprof_close": [_S],
    "mvprof_plan_cold_experts": [_S, _LL, _INT, _INT, _INTP, _INTP, _INT, _INTP],
    "mvprof_quantise_weights": [_FLTP, _LL, _LL, _INT, _INT, ctypes.POINTER(_LL)],
    "mvprof_visual_token_count": [_S, _LL, _INTP],
    "mvprof_add_patch_metrics": [_S, _INT, _STR, _INT, _INTP, ctypes.POINTER(_DBL)],
    "mvprof_plan_token_drop": [_INT, _INT, _LL, _INT, _DBL, _INTP, ctypes.POINTER(_LL), _INT,
                               _INTP, ctypes.POINTER(_DBL)],
    "mvprof_top_scores": [ctypes.POINTER(_DBL), _LL, _LL, ctypes.POINTER(_LL)],
    "mvprof_plan_visionzip": [ctypes.POINTER(_DBL), _LL, ctypes.POINTER(_DBL), _INT, _LL,
                              ctypes.POINTER(_LL), ctypes.POINTER(_LL), ctypes.POINTER(_LL)],
}


def _load() -> ctypes.CDLL:
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.environ.get("MVPROF_LIBRARY", os.path.join(here, "libmvprof_capture.so"))
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise MvprofError(
            f"cannot load mvprof's capture library {path} ({e}): install the mvprof package "
            "(it puts the library beside this file), or build mvprof (./test.sh or cmake --build "
            "build) and import the package from <build>/python, or set MVPROF_LIBRARY to "
            "libmvprof_capture.so") from None
    lib.mvprof_last_error.restype = ctypes.c_char_p
    lib.mvprof_abi_version.restype = ctypes.c_int
    if lib.mvprof_abi_version() != ABI_VERSION:
        raise MvprofError(f"{path} speaks ABI {lib.mvprof_abi_version()}, this package "
                          f"{ABI_VERSION}: use the package built with it")
    for name, args in _SIGNATURES.items():
        f = getattr(lib, name)
        f.argtypes, f.restype = args, ctypes.c_int
    return lib


_lib: Optional[ctypes.CDLL] = None


def library() -> ctypes.CDLL:
    """The loaded library (loaded on first use, so importing mvprof never fails)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def check(rc: int) -> None:
    """Raises the library's last error unless `rc` is 0."""
    if rc != 0:
        raise MvprofError(library().mvprof_last_error().decode(errors="replace"))


def b(text: Optional[str]) -> Optional[bytes]:
    return None if text is None else text.encode()


def floats(tensor) -> "ctypes._Pointer":
    """A float* into a contiguous float32 CPU tensor (kept alive by the caller)."""
    return ctypes.cast(tensor.data_ptr(), _FLTP)


def ints(values) -> "ctypes.Array":
    return (ctypes.c_int * len(values))(*values)


def doubles(values) -> "ctypes.Array":
    return (ctypes.c_double * len(values))(*values)
