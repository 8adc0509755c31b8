"""mvprof.profile: one run of an eager model recorded into a session.

Python runs only per module call (a forward pre/post hook opens and closes
its span) and for routers (softmax → top-k of their logits); ATen ops with
shapes, FLOPs and bytes are seen by the C++ capture's RecordFunction
callbacks, with no Python per op."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import traceback
import warnings
from typing import Callable, Dict, Iterator, List, Optional, Tuple, Union

import torch

from . import _abi
from ._abi import MvprofError, b
from ._counters import count_hardware
from ._passes import (DEFAULT_ROLES, TOP_K_ATTRIBUTES, NullProfile, Warmup, compile_roles,
                      device_settle, role_of, weight_bytes)
from ._transform import Transform

STATUS = {"complete": 0, "incomplete": 1, "failed": 2}


class Profile:
    """One profiled run; made by `profile()` (or, as its subclass WhatIf, by
    `whatif()`), used as a context manager. `model` is what to run inside the
    block: the model given, or the transformed copy a what-if made of it."""

    def __init__(self, path: Optional[str], model: torch.nn.Module,
                 image: Union[str, bytes, None] = None, prompt: Optional[str] = None, roles: Optional[Dict[str, str]] = None,
                 ops: bool = True, force: bool = False, transform: Optional["Transform"] = None,
                 baseline_run: int = 0, warmup: Warmup = None, attention: bool = True,
                 device_timing: str = "events", gpu_trace: bool = True,
                 hw_counters: Warmup = None) -> None:
        self.path = path or os.environ.get("MVPROF_OUT")
        if not self.path:
            raise MvprofError("no session path: pass one, or run the script under "
                              "`mvprof-cli launch --out FILE.mvprof -- python3 SCRIPT`")
        self.model, self.image, self.prompt, self.ops, self.force = model, image, prompt, ops, force
        self.roles = dict(roles or DEFAULT_ROLES)
        self.patterns = compile_roles(self.roles)
        self.transform, self.baseline_run, self.warmup = transform, baseline_run, warmup
        self.attention = attention
        self.device_timing, self.gpu_trace = device_timing, gpu_trace  # a GPU run's observation
        self.hw_counters = hw_counters  # the pass replayed for the GPU's counters
        device = next((p.device for p in model.parameters()), torch.device("cpu"))
        if hw_counters is not None and device.type != "cuda":
            raise MvprofError(f"hw_counters reads a GPU's counters: the model is on {device} "
                              "(move it to a CUDA device, or drop hw_counters)")
        self.run_id = 0
        self.routers: List[str] = []
        self._session = ctypes.c_void_p()
        self._hooks: List[torch.utils.hooks.RemovableHandle] = []
        self._positions = 0   # sequence positions recorded by earlier passes
        self._pass_end = 0    # positions the current phase's routers have covered
        self._features: Optional[torch.Tensor] = None  # the projector's last output
        self.kept_patches: Optional[List[int]] = None  # set by a visual-token pruning
        self.current_phase, self.phase_serial = "", 0  # as NullProfile's
        self.visual_span: Optional[Tuple[int, int]] = None
        self._progress = _progress_stream()
        self._settle: Callable[[], None] = lambda: None  # device_settle of the model run

    # -- the C ABI -----------------------------------------------------------
    def call(self, name: str, *args: object) -> None:
        """Calls mvprof_<name>(session, args…), raising its error."""
        _abi.check(getattr(_abi.library(), name)(self._session, *args))

    def metric(self, name: str, value: float, unit: str = "", kind: str = "measured",
               note: str = "") -> None:
        """Attaches a run metric, labelled measured or predicted (a cost model's figure)."""
        self.call("mvprof_add_metric", b(name), float(value), b(unit), b(kind), b(note))

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The profiler's own tensor work, hidden from the run."""
        self.call("mvprof_pause_ops", 1)
        try:
            yield
        finally:
            self.call("mvprof_pause_ops", 0)

    def __enter__(self) -> "Profile":
        lib = _abi.library()
        _abi.check(lib.mvprof_open(b(self.path), int(self.force), ctypes.byref(self._session)))
        try:
            original = self.model
            if self.transform is not None:
                self.model = self.transform.prepare(self)
            self._settle = device_settle(self.model)
            if self.warmup is not None:
                # One unrecorded pass: first-call costs (allocation, kernel set-up) stay out.
                self.warmup(NullProfile(self.model))
            self._measure_before_run(original)
            self._begin_run()
            self._store_before_run()
            self.metric("weights.bytes", weight_bytes(self.model), "bytes",
                        note="the model's parameters and buffers as stored")
            if self.transform is not None:
                self.transform.started(self)
            self._install_hooks()
            if self.transform is not None:
                self._hooks += self.transform.attach(self, self.model, self.patterns)
        except BaseException:
            self._remove_hooks()
            lib.mvprof_close(self._session)  # a run already open is stored as failed
            raise
        if not self.routers:
            warnings.warn("mvprof: " + self.no_router_message() +
                          "; ops and modules are still recorded", stacklevel=2)
        return self

    def _measure_before_run(self, original: torch.nn.Module) -> None:
        """What must be measured before the recorded run begins (a what-if's
        A/B repetitions): nothing for a plain profile."""

    def _store_before_run(self) -> None:
        """Stores what _measure_before_run found, once the run is open."""

    def _begin_run(self) -> None:
        config = {"format": "mvprof-python", "class": type(self.model).__name__,
                  "parameters": sum(p.numel() for p in self.model.parameters()),
                  "roles": self.roles,
                  "capture": {"device_timing": self.device_timing, "gpu_trace": self.gpu_trace}}
        param = next(self.model.parameters(), None)
        data = bytes(self.image) if isinstance(self.image, (bytes, bytearray)) else None
        buf = (ctypes.c_ubyte * len(data)).from_buffer_copy(data) if data else None
        info = _abi.RunInfo(
            model=b("python:" + type(self.model).__name__), prompt=b(self.prompt or ""),
            image_path=None if data is not None else b(self.image),
            image_data=ctypes.cast(buf, ctypes.POINTER(ctypes.c_ubyte)) if buf else None,
            image_size=len(data) if data else 0, config_json=b(json.dumps(config)),
            device=b(str(param.device) if param is not None else "cpu"),
            dtype=b(str(param.dtype).replace("torch.", "") if param is not None else "float32"),
            transform=b(self.transform.name if self.transform else None),
            baseline_run=int(self.baseline_run), record_ops=int(self.ops),
            record_attention=int(self.ops and self.attention),
            device_timing=b(self.device_timing), no_gpu_trace=int(not self.gpu_trace))
        run = ctypes.c_longlong()
        self.call("mvprof_begin_run", ctypes.byref(info), ctypes.byref(run))
        self.run_id = run.value

    def __exit__(self, kind, value, tb) -> bool:
        self._remove_hooks()
        lib = _abi.library()
        unfinished: Optional[MvprofError] = None
        try:
            if self.transform is not None and value is None:
                try:
                    self.transform.finished(self)
                except MvprofError as e:  # the run is stored as failed, saying why
                    unfinished, kind, value = e, MvprofError, e
            self.metric("roles.routing_observed", 1.0 if self.routers else 0.0,
                        note=f"routing read from {len(self.routers)} router modules"
                        if self.routers else self.no_router_message())
            if value is None:
                self._settle()  # the last phase ends when its GPU work has
                if self.hw_counters is not None:
                    count_hardware(self, self.hw_counters)
                self.call("mvprof_end_run", STATUS["complete"], None)
            elif isinstance(value, KeyboardInterrupt):
                self.call("mvprof_end_run", STATUS["incomplete"], b("stopped by the user"))
            else:
                last = traceback.format_exception_only(kind, value)[-1].strip()
                self.call("mvprof_end_run", STATUS["failed"], b(last))
        finally:
            # Always written and freed; a run still open is closed as failed.
            rc = lib.mvprof_close(self._session)
        if rc != 0 and value is None:
            _abi.check(rc)
        if unfinished is not None:
            raise unfinished
        return False  # the user's exception propagates unchanged

    # -- the user's markers -------------------------------------------------
    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        """Marks a phase: preprocess, h2d, vision, projector, prefill or decode
        (with its step). On a GPU the previous phase ends when its kernels have."""
        self._settle()
        self.call("mvprof_begin_phase", b(name), int(step))
        self.current_phase, self.phase_serial = name, self.phase_serial + 1
        if self._progress:
            self._progress.write(json.dumps({"event": "progress", "phase": name, "step": step,
                                             "steps": 0, "fraction": -1}) + "\n")
            self._progress.flush()
        self._pass_end = self._positions
        yield
        self._positions = max(self._positions, self._pass_end)

    def visual_tokens(self, start: int, grid: Tuple[int, int], patch: int = 14,
                      input_size: int = 0) -> None:
        """Where the image's patch tokens sit in the LLM's sequence: from
        position `start`, one per patch of the rows × cols grid (row-major),
        or one per kept patch after a visual-token pruning."""
        if self.transform is not None and self.transform.prunes_visual and \
                self.kept_patches is None:
            raise MvprofError("visual-token pruning decides the tokens when the projector "
                              "runs: call visual_tokens after it")
        patches = declare_visual_tokens(self.call, start, grid, patch, input_size,
                                        self.kept_patches)
        self.visual_span = (int(start), len(patches))
        f = self._features
        if f is not None and f.shape[0] == len(patches):
            self.call("mvprof_set_vision_features", f.shape[0], f.shape[1], _abi.floats(f))

    def output(self, logits: torch.Tensor, token: Optional[int] = None) -> int:
        """Records what this pass produced — the next-token logits (the last
        row of `logits`) and the token chosen (greedy when not given) — for
        the fidelity of what-ifs; returns the token."""
        with self.paused(), torch.no_grad():
            row = logits.detach().reshape(-1, logits.shape[-1])[-1].float().contiguous().cpu()
            chosen = int(row.argmax()) if token is None else int(token)
            self.call("mvprof_add_step_output", chosen, _abi.floats(row), row.numel())
        return chosen

    def no_router_message(self) -> str:
        """Why no routing was recorded, naming the modules that look like routers."""
        candidates = [p for p, m in self.model.named_modules()
                      if re.search(r"gate|router|moe|expert", p.rsplit(".", 1)[-1])][:6]
        return ("no module matched the router role" +
                (f"; candidates: {', '.join(candidates)} (pass roles={{'router': ...}})"
                 if candidates else ": the model has no MoE layers by its names"))

    # -- hooks --------------------------------------------------------------
    def role(self, path: str) -> str:
        """The role of the module at `path` by the roles' patterns, or ''."""
        return role_of(self.patterns, path)

    def _install_hooks(self) -> None:
        # Each module is declared once; its hooks then pass the library one
        # int, and a module of no router or projector role ends with one call.
        # Those two calls go through unprototyped function objects (a fresh
        # one per lib[...]): ctypes then skips argtypes' conversion, 365 → 200
        # ns a call here — the arguments (a c_void_p, an int) need none.
        lib, session = _abi.library(), self._session
        enter, leave = lib["mvprof_enter_module"], lib["mvprof_end_module"]
        for path, module in self.model.named_modules():
            if not path:
                continue
            role = self.role(path)
            handle = ctypes.c_int()
            self.call("mvprof_declare_module", b(path), b(type(module).__name__), b(role),
                      ctypes.byref(handle))

            def pre_hook(m, i, h: int = handle.value) -> None:
                if enter(session, h):
                    _abi.check(-1)

            def post_hook(m, i, o) -> None:
                if leave(session):
                    _abi.check(-1)

            self._hooks.append(module.register_forward_pre_hook(pre_hook))
            self._hooks.append(module.register_forward_hook(
                (lambda m, i, o, p=path, r=role: self._module_done(m, p, r, o))
                if role in ("router", "projector") else post_hook))
            if role == "router":
                self.routers.append(path)

    def _remove_hooks(self) -> None:
        for h in self._hooks:
            h.remove()
        self._hooks.clear()

    def _module_done(self, module: torch.nn.Module, path: str, role: str, output):
        replaced = None
        if role == "router":
            if self.transform is not None:
                replaced = self.transform.on_router(self, path, output)
            self._route(module, path, output if replaced is None else replaced)
        elif role == "projector":
            if self.transform is not None:
                replaced = self.transform.on_projector(self, path, output)
            self._keep_features(output if replaced is None else replaced)
        self.call("mvprof_end_module")
        return replaced

    def _keep_features(self, output) -> None:
        if torch.is_tensor(output) and output.dim() >= 2:
            with self.paused(), torch.no_grad():
                self._features = output.detach().reshape(-1, output.shape[-1]).float() \
                    .contiguous().cpu()

    def top_k(self, module: torch.nn.Module, path: str) -> int:
        """How many experts a token takes: the router's or its parent's attribute."""
        parent = self.model.get_submodule(path.rsplit(".", 1)[0]) if "." in path else self.model
        for m in (module, parent):
            for name in TOP_K_ATTRIBUTES:
                k = getattr(m, name, None)
                if isinstance(k, int) and k > 0:
                    return k
        raise MvprofError(f"router {path}: how many experts a token takes is unknown "
                          f"(give it or its parent a top_k attribute)")

    def _route(self, module: torch.nn.Module, path: str, output) -> None:
        # The profiler's own tensor work, hidden from the run; one call into
        # the library per router call, not one per routing row.
        with self.paused(), torch.no_grad():
            routed = self._routed(module, path, output)
            if routed is None:
                return
            chosen, weights = routed
            rows = chosen.shape[0]
            # A pass over new positions only (a KV cache) or over the whole sequence.
            base = self._positions if rows <= self._positions else 0
            start = max(self._positions - base, 0)  # rows an earlier pass recorded
            if rows > start:
                c = chosen[start:].to(torch.long).contiguous().cpu()
                w = weights[start:].to(torch.float32).contiguous().cpu()
                # Layer -1: mvprof takes the router module's, as for its module row.
                self.call("mvprof_add_routing_rows", -1, base + start, rows - start,
                          c.shape[1], ctypes.cast(c.data_ptr(), ctypes.POINTER(ctypes.c_longlong)),
                          _abi.floats(w))
            self._pass_end = max(self._pass_end, base + rows)

    def _routed(self, module, path, output) -> Optional[Tuple[torch.Tensor, torch.Tensor]]:
        """(experts, weights), [tokens, k] each, from a router's output: its
        logits (softmax → top-k), or a (top-k indices, top-k weights, …) tuple."""
        if isinstance(output, (tuple, list)) and len(output) >= 2 and \
                torch.is_tensor(output[0]) and not output[0].is_floating_point():
            chosen = output[0].reshape(-1, output[0].shape[-1])
            return chosen, output[1].reshape(chosen.shape)
        logits = output[0] if isinstance(output, (tuple, list)) else output
        if not torch.is_tensor(logits) or logits.dim() < 2:
            return None
        scores = logits.detach().reshape(-1, logits.shape[-1]).float()
        weights, chosen = torch.softmax(scores, dim=-1).topk(self.top_k(module, path), dim=-1)
        return chosen, weights / weights.sum(-1, keepdim=True)

    def current_layer(self) -> int:
        """The decoder layer of the innermost open module, by mvprof's own rule."""
        layer = ctypes.c_int()
        self.call("mvprof_current_layer", ctypes.byref(layer))
        return layer.value


def declare_visual_tokens(call: Callable[..., None], start: int, grid: Tuple[int, int],
                          patch: int, input_size: int, kept: Optional[List[int]]) -> List[int]:
    """Tells the library where the image's tokens sit (Profile.visual_tokens):
    the rows × cols grid, and from position `start` one token per patch, or
    per kept patch; returns the patches in token order."""
    rows, cols = grid
    patches = list(kept) if kept is not None else list(range(rows * cols))
    call("mvprof_set_patch_grid", rows, cols, patch, input_size or patch * cols, start)
    call("mvprof_add_visual_tokens", start, len(patches), _abi.ints(patches))
    return patches


def _progress_stream():
    """Progress lines for `mvprof-cli launch --progress jsonl` (its pipe)."""
    fd = os.environ.get("MVPROF_PROGRESS_FD")
    if not fd:
        return None
    try:
        return os.fdopen(int(fd), "w", closefd=False)
    except (OSError, ValueError):
        return None


def profile(path: Optional[str], model: torch.nn.Module, image: Union[str, bytes, None] = None,
            prompt: Optional[str] = None, roles: Optional[Dict[str, str]] = None,
            ops: bool = True, force: bool = False, warmup: Warmup = None,
            attention: bool = True, device_timing: str = "events",
            gpu_trace: bool = True, hw_counters: Warmup = None) -> Profile:
    """Profiles what runs inside the `with` block into the session at `path`
    (or $MVPROF_OUT): ATen ops, module spans named by their qualified names,
    routing of the modules the roles call routers. `image` is a file's path
    or its bytes (PNG, JPEG or BMP), stored with the run. `warmup(p)`, if given,
    runs first through a NullProfile `p` (p.model is the model), unrecorded.
    `attention`: read softmax probabilities inside the attention role's
    modules for the attention heatmap (outputs are copied only for the ops
    inside those modules; probabilities that are not finite are left out).
    A model on a GPU: `device_timing` "events" (each module span timed by
    CUDA events, read once per phase step), "exact" (the host also waits for
    the GPU at every span and op, so their times include their kernels;
    slower) or "off"; `gpu_trace=False` leaves CUPTI's kernel trace off;
    `hw_counters=run` (the script's pass, as warmup takes it) replays it after
    the run under CUPTI's range profiler for each module's counted FLOPs,
    DRAM bytes and kernel time (_counters.py)."""
    return Profile(path, model, image, prompt, roles, ops, force, warmup=warmup,
                   attention=attention, device_timing=device_timing, gpu_trace=gpu_trace,
                   hw_counters=hw_counters)
