"""Profile eager PyTorch vision-language models into an mvprof session.

    import mvprof
    with mvprof.profile("run.mvprof", model, image="photo.jpg", prompt="What is this?") as prof:
        with prof.phase("vision"):
            feats = model.vision_tower(pixels)
        prof.visual_tokens(start=1, grid=(14, 14))
        with prof.phase("prefill"):
            logits = model.language_model(inputs_embeds=embeds)

The recording itself is mvprof's C++ capture (libmvprof_capture.so, loaded
into this process beside the libtorch that torch loaded): ATen ops with
shapes, FLOPs and bytes are seen by RecordFunction callbacks, with no Python
per op. Python runs only per module call (a forward pre/post hook that opens
and closes its span) and for routers (softmax → top-k of their logits).

Work in progress (issue #10): no what-ifs, no `mvprof-cli launch` yet.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import traceback
import warnings
from typing import Dict, Iterator, List, Optional, Tuple

import torch

__all__ = ["profile", "Profile", "MvprofError", "DEFAULT_ROLES"]

ABI_VERSION = 1

# Module paths of the common layouts (Hugging Face LLaVA, Qwen-VL, Mixtral,
# Qwen-MoE, DeepSeek-MoE); a `roles` argument replaces them.
DEFAULT_ROLES: Dict[str, str] = {
    "vision": r"(^|\.)(vision_tower|visual|vision_model|vision)$",
    "projector": r"(^|\.)(multi_modal_projector|merger|mm_projector|projector)$",
    "llm": r"(^|\.)(language_model|llm)$",
    "router": r"\.(block_sparse_moe|mlp|moe)\.(gate|router)$",
    "expert": r"\.experts\.\d+$|\.shared_expert$",
    "moe": r"\.(block_sparse_moe|moe)$",
    "attention": r"\.(self_attn|attn|attention)$",
}
TOP_K_ATTRIBUTES = ("top_k", "num_experts_per_tok", "num_activated_experts", "k")


class MvprofError(RuntimeError):
    """A refusal or failure of the capture library, with its message."""


def _load_library() -> ctypes.CDLL:
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.environ.get("MVPROF_LIBRARY", os.path.join(here, "libmvprof_capture.so"))
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise MvprofError(
            f"cannot load mvprof's capture library {path} ({e}): build mvprof (./test.sh "
            "or cmake --build build) and import the package from <build>/python, or set "
            "MVPROF_LIBRARY to libmvprof_capture.so") from None
    lib.mvprof_last_error.restype = ctypes.c_char_p
    if lib.mvprof_abi_version() != ABI_VERSION:
        raise MvprofError(f"{path} speaks ABI {lib.mvprof_abi_version()}, this package "
                          f"{ABI_VERSION}: use the package built with it")
    return lib


_lib: Optional[ctypes.CDLL] = None


def _library() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        _lib = _load_library()
    return _lib


def _b(text: Optional[str]) -> Optional[bytes]:
    return None if text is None else text.encode()


class Profile:
    """One profiled run; made by `profile()` and used as a context manager."""

    def __init__(self, path: Optional[str], model: torch.nn.Module, image: Optional[str],
                 prompt: Optional[str], roles: Optional[Dict[str, str]], ops: bool,
                 force: bool) -> None:
        self.path = path or os.environ.get("MVPROF_OUT")
        if not self.path:
            raise MvprofError("no session path: pass one or run under `mvprof-cli launch`")
        self.model, self.image, self.prompt, self.ops, self.force = model, image, prompt, ops, force
        self.patterns = [(k, re.compile(v)) for k, v in (roles or DEFAULT_ROLES).items()]
        self._session = ctypes.c_void_p()
        self._hooks: List[torch.utils.hooks.RemovableHandle] = []
        self._positions = 0   # sequence positions recorded by earlier passes
        self._pass_end = 0    # positions the current phase's routers have covered
        self._visual: Tuple[int, int] = (0, 0)  # first position, count
        self.routers: List[str] = []

    # -- the C ABI -----------------------------------------------------------
    def _call(self, name: str, *args: object) -> None:
        lib = _library()
        rc = getattr(lib, name)(self._session, *args)
        if rc != 0:
            raise MvprofError(lib.mvprof_last_error().decode(errors="replace"))

    def __enter__(self) -> "Profile":
        lib = _library()
        if lib.mvprof_open(_b(self.path), int(self.force), ctypes.byref(self._session)) != 0:
            raise MvprofError(lib.mvprof_last_error().decode(errors="replace"))
        config = json.dumps({"format": "mvprof-python", "class": type(self.model).__name__,
                             "parameters": sum(p.numel() for p in self.model.parameters())})
        self._call("mvprof_begin_run", _b("python:" + type(self.model).__name__),
                   _b(self.prompt or ""), _b(self.image), _b(config), int(self.ops))
        self._install_hooks()
        if not self.routers:
            warnings.warn("mvprof: " + self.no_router_message() +
                          "; ops and modules are still recorded", stacklevel=2)
        return self

    def __exit__(self, kind, value, tb) -> bool:
        for h in self._hooks:
            h.remove()
        lib = _library()
        try:
            self._call("mvprof_add_metric", b"roles.routing_observed",
                       ctypes.c_double(1.0 if self.routers else 0.0), b"",
                       _b(f"routing read from {len(self.routers)} router modules"
                          if self.routers else self.no_router_message()))
            if value is None:
                self._call("mvprof_end_run", 0, None)
            else:
                last = traceback.format_exception_only(kind, value)[-1].strip()
                self._call("mvprof_end_run", 2, _b(last))
        finally:
            # Always written and freed; a run still open is closed as failed.
            rc = lib.mvprof_close(self._session)
        if rc != 0 and value is None:
            raise MvprofError(lib.mvprof_last_error().decode(errors="replace"))
        return False  # the user's exception propagates unchanged

    # -- the user's markers -------------------------------------------------
    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        """Marks a phase (preprocess, vision, projector, prefill, decode)."""
        self._call("mvprof_begin_phase", _b(name), int(step))
        self._pass_end = self._positions
        yield
        self._positions = max(self._positions, self._pass_end)

    def visual_tokens(self, start: int, grid: Tuple[int, int], patch: int = 14,
                      input_size: int = 0) -> None:
        """Where the image's patch tokens sit in the LLM's sequence."""
        rows, cols = grid
        self._visual = (start, rows * cols)
        self._call("mvprof_set_patch_grid", rows, cols, patch, input_size or patch * cols, start)

    def no_router_message(self) -> str:
        """Why no routing was recorded, naming the modules that look like routers."""
        candidates = [p for p, m in self.model.named_modules()
                      if re.search(r"gate|router|moe|expert", p.rsplit(".", 1)[-1])][:6]
        return ("no module matched the router role" +
                (f"; candidates: {', '.join(candidates)} (pass roles={{'router': ...}})"
                 if candidates else ": the model has no MoE layers by its names"))

    # -- hooks --------------------------------------------------------------
    def _role(self, path: str) -> str:
        for role, pattern in self.patterns:
            if pattern.search(path):
                return role
        return ""

    def _install_hooks(self) -> None:
        for path, module in self.model.named_modules():
            if not path:
                continue
            role = self._role(path)
            kind = type(module).__name__
            self._hooks.append(module.register_forward_pre_hook(
                lambda m, i, p=path, k=kind, r=role: self._call(
                    "mvprof_begin_module", _b(p), _b(k), _b(r))))
            self._hooks.append(module.register_forward_hook(
                lambda m, i, o, p=path, r=role: self._module_done(m, p, r, o)))
            if role == "router":
                self.routers.append(path)

    def _module_done(self, module: torch.nn.Module, path: str, role: str, output) -> None:
        if role == "router":
            self._route(module, path, output)
        self._call("mvprof_end_module")

    def _top_k(self, module: torch.nn.Module, path: str) -> int:
        parent = self.model.get_submodule(path.rsplit(".", 1)[0]) if "." in path else self.model
        for m in (module, parent):
            for name in TOP_K_ATTRIBUTES:
                k = getattr(m, name, None)
                if isinstance(k, int) and k > 0:
                    return k
        raise MvprofError(f"router {path}: how many experts a token takes is unknown "
                          f"(give it a top_k attribute)")

    def _route(self, module: torch.nn.Module, path: str, output) -> None:
        logits = output[0] if isinstance(output, (tuple, list)) else output
        if not torch.is_tensor(logits) or logits.dim() < 2:
            return
        # The profiler's own tensor work is not the model's: hidden from the run.
        self._call("mvprof_pause_ops", 1)
        try:
            with torch.no_grad():
                scores = logits.detach().reshape(-1, logits.shape[-1]).float()
                probs = torch.softmax(scores, dim=-1)
                weights, chosen = probs.topk(self._top_k(module, path), dim=-1)
                weights = weights / weights.sum(-1, keepdim=True)
                chosen, weights = chosen.tolist(), weights.tolist()
        finally:
            self._call("mvprof_pause_ops", 0)
        first, count = self._visual
        # A pass over new positions only (a KV cache) or over the whole sequence.
        base = self._positions if len(chosen) <= self._positions else 0
        for row in range(len(chosen)):
            pos = base + row
            if pos < self._positions:
                continue  # recorded by an earlier pass
            modality = "visual" if first <= pos < first + count else "text"
            for rank, (expert, weight) in enumerate(zip(chosen[row], weights[row])):
                # Layer -1: mvprof takes the router module's, as for its module row.
                self._call("mvprof_add_routing", -1, pos, rank, expert,
                           ctypes.c_double(weight), _b(modality))
        self._pass_end = max(self._pass_end, base + len(chosen))


def profile(path: Optional[str], model: torch.nn.Module, image: Optional[str] = None,
            prompt: Optional[str] = None, roles: Optional[Dict[str, str]] = None,
            ops: bool = True, force: bool = False) -> Profile:
    """Profiles what runs inside the `with` block into the session at `path`
    (or $MVPROF_OUT): ATen ops, module spans named by their qualified names,
    routing of the modules the roles call routers."""
    return Profile(path, model, image, prompt, roles, ops, force)
