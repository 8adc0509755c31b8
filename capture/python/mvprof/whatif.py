"""What-ifs on eager models: the same script re-run with one transform, stored
as a run whose `baseline_run` is the baseline's, so mvprof's comparison,
module diff and GUI work on it unchanged.

    with mvprof.profile(path, model, ...) as base:
        run(base, base.model)
    with mvprof.whatif(base, model, mvprof.W8()) as w:
        run(w, w.model)          # w.model: the transformed model

Transforms (docs/diagnostics.md §9 for the built-in model's counterparts):
- W8: torch.ao.quantization.quantize_dynamic on the LLM role's Linear layers
  (routers stay float32) — real int8 kernels, so latency is measured; on a
  GPU torch's int8 matmuls instead (_int8.py), each layer checked first.
- W4: the same layers' weights quantised group-wise (round-to-nearest, the
  format of mvprof's --quant w4) and dequantised in place: fidelity is
  measured; the low-bit kernel's latency is predicted from bytes moved.
- FreezeCold: the router logits of frozen experts masked to −inf, so their
  tokens go to the next-best expert; the experts are the baseline's cold
  ones (the windows rule) or the ones given.
- PruneVisual: a keep mask over the visual tokens, applied to the
  projector's output (so the sequence the user builds from it is shorter):
  the round(keep·N) rows of largest L2 norm, or the patches given.
- FastV, PyramidDrop (_visual_drop.py): the published in-LLM methods, the
  dropped image tokens masked out of the decoder's attention.
- VisionZip (_visionzip.py): dominant + contextual tokens from the vision
  tower's attention and keys, merged on the projector's input.
"""

from __future__ import annotations

import copy
import ctypes
from typing import Dict, List, Optional, Sequence, Union

import torch

from . import _abi, _int8
from ._abi import MvprofError, b
from ._passes import Recording, Warmup, role_paths, within
from ._profile import Profile
from ._repeat import repetitions
from ._resample import resampling_observations
from ._transform import Transform


def _llm_linears(prof: Recording, model: torch.nn.Module) -> List[str]:
    """Paths of the Linear layers inside the LLM role's modules, routers excepted."""
    llm = role_paths(model, prof.patterns, "llm")
    if not llm:
        raise MvprofError("weight quantisation works on the LLM's Linear layers: no module "
                          "matched the llm role (pass roles={'llm': r'...'})")
    paths = [p for p, m in model.named_modules()
             if isinstance(m, torch.nn.Linear) and within(llm, p) and prof.role(p) != "router"]
    if not paths:
        raise MvprofError(f"no Linear module inside {', '.join(llm)}: nothing to quantise")
    return paths


class W8(Transform):
    """int8 dynamic quantisation (real int8 kernels) of the LLM's Linear layers."""
    name = "w8"

    def prepare(self, prof: Recording) -> torch.nn.Module:
        paths = _llm_linears(prof, prof.model)
        self.layers = len(paths)
        weight = prof.model.get_submodule(paths[0]).weight
        if weight.device.type != "cpu":  # torch's dynamic int8 kernels are the CPU's
            model = copy.deepcopy(prof.model)
            kernel, _ = _int8.convert(model, paths, weight.device, weight.dtype)
            self.kernel = (f"{kernel} on {weight.device} (per-channel symmetric int8 weights"
                           f"{'; activations coded per row' if 'int_mm' in kernel else ''})")
            return model
        self.kernel = (f"quantized::linear_dynamic, torch's dynamic int8 kernels "
                       f"({torch.backends.quantized.engine} engine)")
        qconfig = torch.ao.quantization.default_dynamic_qconfig
        return torch.ao.quantization.quantize_dynamic(
            prof.model, {p: qconfig for p in paths}, dtype=torch.qint8, inplace=False)

    def started(self, prof: Recording) -> None:
        prof.metric("quant.layers", self.layers, "count",
                    note=f"Linear layers of the LLM run by {self.kernel}; routers stay as they were")
        prof.metric("quant.int8_kernels", 1.0, note=f"{self.kernel}: the latency is measured")


class W4(Transform):
    """4-bit group-wise weights of the LLM's Linear layers, dequantised in place."""

    def __init__(self, group: int = 128) -> None:
        self.group = group
        self.name = f"w4 group={group}"

    def prepare(self, prof: Recording) -> torch.nn.Module:
        model = copy.deepcopy(prof.model)
        self.modules = []  # (path, fp32 bytes, stored bytes)
        lib = _abi.library()
        with torch.no_grad():
            for path in _llm_linears(prof, model):
                w = model.get_submodule(path).weight
                # The C ABI reads host memory: a GPU's weights round-trip through it.
                flat = w.detach().reshape(w.shape[0], -1).float().contiguous().cpu()
                stored = ctypes.c_longlong()
                _abi.check(lib.mvprof_quantise_weights(_abi.floats(flat), flat.shape[0],
                                                       flat.shape[1], 4, self.group,
                                                       ctypes.byref(stored)))
                w.copy_(flat.reshape(w.shape))  # back to the weight's device and dtype
                self.modules.append((path, w.numel() * w.element_size(), stored.value))
        return model

    def started(self, prof: Recording) -> None:
        fp32 = sum(m[1] for m in self.modules)
        stored = sum(m[2] for m in self.modules)
        for path, a, q in self.modules:
            prof.call("mvprof_add_quantised_module", _abi.b(path), a, q)
        prof.metric("quant.layers", len(self.modules), "count",
                    note=f"Linear layers of the LLM at 4 bits, group {self.group}, "
                    "round-to-nearest; routers stay float32")
        prof.metric("quant.fp32_bytes", fp32, "bytes", note="their float32 weights")
        prof.metric("quant.bytes", stored, "bytes",
                    note="their quantised size: packed codes, float16 scales and minimums (the "
                    "run holds the dequantised values in float32)")
        prof.metric("quant.bytes_ratio", stored / fp32 if fp32 else 0.0, "ratio",
                    note="quantised ÷ float32 bytes of the quantised layers")


class FreezeCold(Transform):
    """Frozen experts' router logits masked to −inf: the baseline's cold experts
    (fewer than `min_activations` in two consecutive windows of `window`
    tokens), or `experts` = {layer: [expert, …]} as given."""

    def __init__(self, window: int = 128, min_activations: int = 3,
                 experts: Optional[Dict[int, Sequence[int]]] = None) -> None:
        self.window, self.min_activations = window, min_activations
        self.given = experts
        self.frozen: Dict[int, List[int]] = {}
        self.name = "freeze-cold" if experts is None else "freeze-experts"

    def prepare(self, prof: Recording) -> torch.nn.Module:
        if self.given is not None:
            self.frozen = {int(l): sorted(int(e) for e in es) for l, es in self.given.items()}
            return prof.model
        if not prof.baseline_run:
            raise MvprofError("FreezeCold picks the baseline's cold experts: give a baseline")
        cap = 4096
        layers, experts, n = (ctypes.c_int * cap)(), (ctypes.c_int * cap)(), ctypes.c_int()
        prof.call("mvprof_plan_cold_experts", prof.baseline_run, self.window,
                  self.min_activations, layers, experts, cap, ctypes.byref(n))
        for i in range(min(n.value, cap)):
            self.frozen.setdefault(layers[i], []).append(experts[i])
        return prof.model

    def started(self, prof: Recording) -> None:
        count = sum(len(v) for v in self.frozen.values())
        rule = (f"< {self.min_activations} activations in two consecutive windows of "
                f"{self.window} tokens of run {prof.baseline_run}" if self.given is None
                else "as given")
        listed = "; ".join(f"layer {l}: {', '.join(map(str, e))}" for l, e in
                           sorted(self.frozen.items()))
        prof.metric("cold.frozen_experts", count, "count", note=
                    f"experts frozen ({rule}){': ' + listed if listed else ''}; their router "
                    "logits are masked to -inf")

    def on_router(self, prof: Recording, path: str, output):
        frozen = self.frozen.get(prof.current_layer())
        if not frozen:
            return None
        logits = output[0] if isinstance(output, (tuple, list)) else output
        if not torch.is_tensor(logits) or not logits.is_floating_point():
            raise MvprofError(f"router {path} returns top-k choices, not logits: "
                              "freezing experts needs the logits to mask")
        masked = logits.clone()
        masked[..., frozen] = float("-inf")
        if isinstance(output, (tuple, list)):
            return type(output)([masked, *output[1:]])
        return masked


class PruneVisual(Transform):
    """Keeps round(keep·N) visual tokens of the projector's output [.., N, D]
    (those of largest L2 norm, in spatial order), or the patches given."""

    prunes_visual = True

    def __init__(self, keep: float = 0.5, patches: Optional[Sequence[int]] = None) -> None:
        if patches is None and not 0 < keep <= 1:
            raise MvprofError("PruneVisual keep must be in (0, 1], e.g. 0.4")
        self.keep, self.patches = keep, patches
        self.name = (f"prune-visual {keep:.2g} (feature-norm)" if patches is None
                     else f"prune-visual {len(patches)} patches")

    def on_projector(self, prof: Recording, path: str, output):
        if not torch.is_tensor(output) or output.dim() < 2:
            raise MvprofError(f"projector {path} returned no [.., tokens, dim] tensor to prune")
        n = output.shape[-2]
        if self.patches is not None:
            keep = sorted(int(p) for p in self.patches)
            if not keep or keep[0] < 0 or keep[-1] >= n:
                raise MvprofError(f"PruneVisual patches must lie in 0 .. {n - 1}")
        else:
            # Part of the what-if's cost, as in a deployment: scored per run.
            k = max(1, round(self.keep * n))
            norms = output.detach().float().norm(dim=-1).reshape(-1, n).sum(0)
            keep = sorted(norms.topk(k).indices.tolist())
        prof.kept_patches = keep
        return output.index_select(-2, torch.tensor(keep, device=output.device))

    def started(self, prof: Recording) -> None:
        prof.metric("prune.keep", self.keep if self.patches is None else 0, "ratio",
                    note="visual tokens kept: " + ("the round(keep·N) of largest "
                                                   "projector-output norm" if self.patches is None
                                                   else "as given"))


class WhatIf(Profile):
    """A what-if's recorded run (made by `whatif()`): before it begins, its
    A/B repetitions and, where the transform changes the visual tokens, the
    resampling observation, both of the untransformed and transformed model
    run through the script's pass `rerun`."""

    def __init__(self, *args, reps: int = 0, rerun: Warmup = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reps, self.rerun = reps, rerun
        self._ab: List = []
        self._observed = None

    def _measure_before_run(self, original: torch.nn.Module) -> None:
        if self.reps and self.transform is not None:
            self._ab = repetitions(original, self.model, self.transform, self.rerun, self.reps,
                                   self.patterns)
        if self.transform is not None and self.transform.prunes_visual and \
                self.rerun is not None:
            self._observed = resampling_observations(original, self.model, self.transform,
                                                     self.rerun, self.patterns)

    def _store_before_run(self) -> None:
        for arm, rep, phase, ns, control in self._ab:
            self.call("mvprof_add_repetition", arm, rep, b(phase), ns, int(control))
        if self._observed is not None:
            self.call("mvprof_add_resampling_loss", ctypes.byref(self._observed[0].struct),
                      ctypes.byref(self._observed[1].struct))


def whatif(baseline: Union[Profile, int], model: torch.nn.Module, transform: Transform,
           path: Optional[str] = None, image: Union[str, bytes, None] = None,
           prompt: Optional[str] = None,
           roles: Optional[Dict[str, str]] = None, ops: bool = True,
           warmup: Warmup = None, attention: Optional[bool] = None, reps: int = 0,
           run: Warmup = None, device_timing: Optional[str] = None,
           gpu_trace: Optional[bool] = None,
           hw_counters: Union[Warmup, bool] = None) -> WhatIf:
    """A what-if run of `model` with `transform`, compared with `baseline`
    (a finished Profile, or a run id in the session at `path`). The session,
    image, prompt and roles default to the baseline's; run `.model` inside.
    `warmup(p)` runs the transformed model once first, unrecorded (a new
    model's first call pays set-up costs the baseline's warm-up did not).
    `reps=N` with `run(p)` — the script's pass, as warmup takes it — first
    times N interleaved passes of `model` and of the transformed model
    (after a warm-up of each, recording nothing), stored with the what-if:
    its comparison then shows medians with intervals and a paired speed-up,
    "within noise" when its interval holds 1.0. With `run`, a what-if that
    changes the visual tokens (PruneVisual) also gets its resampling loss:
    one observed pass of each model compares what each attention-role
    module reads at the visual tokens (Δcos, relative L2 drift) and each
    decode query's attention over them (ΔKL), per layer. On a GPU,
    `device_timing` and `gpu_trace` default to the baseline's (they change
    what is timed), else to profile()'s, and so does `hw_counters` (the pass
    replayed for the GPU's counters, on the transformed model; False: none)."""
    if isinstance(baseline, Profile):
        if not baseline.run_id:
            raise MvprofError("the baseline has not run yet: profile it first")
        path = path or baseline.path
        if path != baseline.path:
            raise MvprofError("a what-if is stored in its baseline's session "
                              f"({baseline.path}), not {path}")
        image = image if image is not None else baseline.image
        prompt = prompt if prompt is not None else baseline.prompt
        roles = roles or baseline.roles
        attention = baseline.attention if attention is None else attention
        device_timing = device_timing or baseline.device_timing
        gpu_trace = baseline.gpu_trace if gpu_trace is None else gpu_trace
        hw_counters = baseline.hw_counters if hw_counters is None else hw_counters
        baseline_run = baseline.run_id
    else:
        baseline_run = int(baseline)
    if not isinstance(transform, Transform):
        raise MvprofError("transform must be mvprof.W8(), W4(), FreezeCold(), PruneVisual(), "
                          "FastV(), PyramidDrop() or VisionZip()")
    if reps < 0 or (reps and run is None):
        raise MvprofError("A/B repetitions need reps >= 0 and, with reps, the pass to repeat: "
                          "run=lambda p: pipeline(p)")
    return WhatIf(path, model, image, prompt, roles, ops, False, transform, baseline_run,
                  warmup, True if attention is None else attention,
                  device_timing or "events", True if gpu_trace is None else gpu_trace,
                  hw_counters or None, reps=int(reps), rerun=run)
