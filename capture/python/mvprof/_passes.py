"""The ground floor of the package: what a run's markers are (NullProfile,
TimedPass and the Markers protocol a transform sees), which module has which
role, and the device a model's work must be waited for on. Imports nothing
else of the package."""

from __future__ import annotations

import contextlib
import itertools
import re
import time
from typing import Callable, Dict, Iterator, List, Optional, Protocol, Tuple

import torch

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
# The calls an attention's probabilities come from, however the model spells them.
SOFTMAX_CALLS = (torch.softmax, torch.nn.functional.softmax, torch.Tensor.softmax)
TOP_K_ATTRIBUTES = ("top_k", "num_experts_per_tok", "num_activated_experts", "k")


def weight_bytes(model: torch.nn.Module) -> int:
    """Bytes of the model's parameters and buffers as stored (quantised packed
    weights at their element size), each storage once."""
    seen, total = set(), 0

    def add(v: object) -> None:
        nonlocal total
        if torch.is_tensor(v):
            key = (v.data_ptr(), v.numel(), v.dtype)
            if key not in seen:
                seen.add(key)
                total += v.numel() * v.element_size()
        elif isinstance(v, (tuple, list)):
            for x in v:
                add(x)

    for value in model.state_dict().values():
        add(value)
    return total


def device_settle(model: torch.nn.Module) -> Callable[[], None]:
    """What makes a phase boundary wait for the model's GPU work. A model on
    CUDA launches its kernels asynchronously: a phase timed on the host would
    end before its kernels did, and their time would be charged to the next
    phase. Synchronises every CUDA device the model's parameters and buffers
    are on (torch.cuda.synchronize); a no-op for a model on the CPU."""
    devices = sorted({t.device.index or 0
                      for t in itertools.chain(model.parameters(), model.buffers())
                      if t.device.type == "cuda"})
    if not devices:
        return lambda: None

    def settle() -> None:
        for device in devices:
            torch.cuda.synchronize(device)
    return settle


# When several roles' patterns match one module, the most specific wins,
# whatever order the roles were given in: a router inside "llm" is the router.
ROLE_SPECIFICITY = ("router", "expert", "attention", "moe", "projector", "vision", "llm")


def compile_roles(roles: Dict[str, str]) -> List[Tuple[str, "re.Pattern[str]"]]:
    """(role, compiled pattern) pairs, the most specific role first; a role
    mvprof does not know sorts last."""
    rank = {r: i for i, r in enumerate(ROLE_SPECIFICITY)}
    ordered = sorted(roles.items(), key=lambda kv: rank.get(kv[0], len(rank)))
    return [(k, re.compile(v)) for k, v in ordered]


def role_of(patterns, path: str) -> str:
    """The role of the module at `path` by (role, compiled pattern) pairs, or ''."""
    return next((r for r, p in patterns if p.search(path)), "")


def role_paths(model: torch.nn.Module, patterns, role: str) -> List[str]:
    """The paths of the modules that have `role`, in module order."""
    return [p for p, _ in model.named_modules() if p and role_of(patterns, p) == role]


def within(paths: List[str], path: str) -> bool:
    """Whether the module at `path` is one of `paths` or lies inside one."""
    return any(path == q or path.startswith(q + ".") for q in paths)


class NullProfile:
    """A Profile's markers that record nothing: the same script code runs a
    warm-up pass (or an unprofiled one) through it."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.model = model
        self.run_id = 0
        self.current_phase = ""  # the phase running now, and how many have begun
        self.phase_serial = 0
        self.visual_span: Optional[Tuple[int, int]] = None  # (first position, count)

    def _mark_phase(self, name: str) -> None:
        self.current_phase, self.phase_serial = name, self.phase_serial + 1

    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        self._mark_phase(name)
        yield

    def visual_tokens(self, start: int, grid: Tuple[int, int], patch: int = 14,
                      input_size: int = 0) -> None:
        kept = getattr(self, "kept_patches", None)
        self.visual_span = (int(start), len(kept) if kept is not None else grid[0] * grid[1])

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        yield

    def output(self, logits: torch.Tensor, token: Optional[int] = None) -> int:
        if token is not None:
            return int(token)
        return int(logits.detach().reshape(-1, logits.shape[-1])[-1].argmax())

    def metric(self, *args: object, **kwargs: object) -> None:
        pass


Warmup = Optional[Callable[[NullProfile], object]]


class TimedPass(NullProfile):
    """The markers of a Profile that time each phase (perf_counter_ns, a
    phase entered again accumulates; on a GPU from and to the moment its
    queued kernels are done) and record nothing."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__(model)
        self.times: Dict[str, int] = {}
        self._settle = device_settle(model)
        self.kept_patches: Optional[List[int]] = None
        self._layer = 0

    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        self._mark_phase(name)
        self._settle()
        start = time.perf_counter_ns()
        try:
            yield
        finally:
            self._settle()
            self.times[name] = self.times.get(name, 0) + time.perf_counter_ns() - start

    def current_layer(self) -> int:
        """The layer of the router being applied: the first number in its path."""
        return self._layer


class Markers(Protocol):
    """What a script's pass and a transform see of a run: the model to run,
    the phase markers, where the visual tokens sit, and the pass's state a
    transform reads (the phase running, the router's layer, the patches a
    pruning kept). A Profile records them; NullProfile and TimedPass do not."""

    model: torch.nn.Module
    current_phase: str
    phase_serial: int
    kept_patches: Optional[List[int]]

    def phase(self, name: str, step: int = 0): ...

    def visual_tokens(self, start: int, grid: Tuple[int, int], patch: int = 14,
                      input_size: int = 0) -> None: ...

    def current_layer(self) -> int: ...

    def metric(self, name: str, value: float, unit: str = "", kind: str = "measured",
               note: str = "") -> None: ...


class Recording(Markers, Protocol):
    """A recorded run as a transform's prepare/started/finished and the
    hardware-counter replay see it (a Profile): the C ABI's calls into its
    session, the roles' patterns and the baseline it is compared with."""

    patterns: List[Tuple[str, "re.Pattern[str]"]]
    baseline_run: int

    def call(self, name: str, *args: object) -> None: ...

    def role(self, path: str) -> str: ...

