"""mvprof.evaluate: a what-if judged over an eval set, on an eager model.

    def answer(p, item):               # item: {"image", "prompt", "answer", "id", "kind"}
        tokens = my_generate(p, p.model, item["image"], item["prompt"])
        return tokenizer.decode(tokens)
    e = mvprof.evaluate("run.mvprof", model, "scenes/set.jsonl", answer, mvprof.W8())
    print(e.baseline_right, e.whatif_right, "of", e.scored)

Every item runs through the baseline's model and then the what-if's — the
model loaded once, the transform prepared once, one warm-up of each arm on
the first item — timed by phase and recording no spans or ops (docs/eval.md);
before each timed pass, an untimed one observes where the model looked
(the item's heatmap) unless heatmaps=False.
The capture library scores each answer, measures the what-if's fidelity to
the baseline's logits of the same item (the logits the script passes to
p.output) and stores both runs as `mvprof-cli whatif --eval` does, so
`mvprof-cli report` and the GUI show accuracy with intervals, the paired
change and latency per item."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import traceback
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import torch

from . import _abi
from ._abi import MvprofError, b
from ._passes import (DEFAULT_ROLES, Markers, TimedPass, compile_roles, role_of)
from ._profile import STATUS, Profile, declare_visual_tokens
from ._transform import Transform, hooked

Generate = Callable[[Markers, Dict[str, object]], str]
Items = Union[str, "os.PathLike[str]", Sequence[Mapping[str, object]]]


@dataclass
class Evaluation:
    """What an evaluate() stored: its two runs, and each arm's right answers
    over the items with an answer (measured; the report adds intervals)."""
    baseline_run: int
    whatif_run: int
    items: int           # in the set
    done: int            # items both arms answered
    scored: int          # of those, items with an answer
    baseline_right: int
    whatif_right: int


class _ItemPass(TimedPass):
    """One arm's pass over one item: timed by phase, keeping each step's
    next-token logits the script hands to output()."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__(model)
        self.logits: List[torch.Tensor] = []

    def output(self, logits: torch.Tensor, token: Optional[int] = None) -> int:
        last = logits.detach().reshape(-1, logits.shape[-1])[-1]
        self.logits.append(last.float().cpu())
        return super().output(logits, token)


class _ObservedPass(TimedPass):
    """An extra pass of one arm over one item for where its model looked
    (the item's answer_attention heatmap): its phases, module calls and
    visual tokens go to the library, which reads the attention role's
    softmax as a profile does and records the rest into a scratch file;
    its answer and times are not stored."""

    def __init__(self, e: "_Eval", model: torch.nn.Module) -> None:
        super().__init__(model)
        self._e = e

    @contextlib.contextmanager
    def phase(self, name: str, step: int = 0) -> Iterator[None]:
        self._e.call("mvprof_begin_phase", b(name), int(step))
        with super().phase(name, step):
            yield

    def visual_tokens(self, start: int, grid: Tuple[int, int], patch: int = 14,
                      input_size: int = 0) -> None:
        super().visual_tokens(start, grid, patch, input_size)
        declare_visual_tokens(self._e.call, start, grid, patch, input_size, self.kept_patches)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        self._e.call("mvprof_pause_ops", 1)
        try:
            yield
        finally:
            self._e.call("mvprof_pause_ops", 0)

    def module_hooks(self, patterns) -> List[torch.utils.hooks.RemovableHandle]:
        """Opens and closes each module's span, with its role, around its call."""
        handles = []
        for path, module in self.model.named_modules():
            if not path:
                continue
            handles.append(module.register_forward_pre_hook(
                lambda m, i, p=path, k=type(module).__name__, r=role_of(patterns, path):
                self._e.call("mvprof_begin_module", b(p), b(k), b(r))))
            handles.append(module.register_forward_hook(
                lambda m, i, o: self._e.call("mvprof_end_module")))
        return handles


class _EvalRecording:
    """What a transform's prepare() and started() see of an eval (the
    Recording protocol): the session, the roles, the baseline capture; its
    metrics go to the what-if's run."""

    def __init__(self, session: ctypes.c_void_p, model: torch.nn.Module, patterns,
                 baseline_run: int) -> None:
        self._session, self.model, self.patterns = session, model, patterns
        self.baseline_run = baseline_run
        self.current_phase, self.phase_serial = "", 0
        self.kept_patches: Optional[List[int]] = None

    def call(self, name: str, *args: object) -> None:
        if name == "mvprof_add_quantised_module":
            return  # an eval measures each item's latency; no single run to predict it for
        _abi.check(getattr(_abi.library(), name)(self._session, *args))

    def role(self, path: str) -> str:
        return role_of(self.patterns, path)

    def metric(self, name: str, value: float, unit: str = "", kind: str = "measured",
               note: str = "") -> None:
        self.call("mvprof_add_metric", b(name), float(value), b(unit), b(kind), b(note))

    def current_layer(self) -> int:
        return 0


def _run_info(model: torch.nn.Module, roles: Dict[str, str], transform: Optional[str],
              baseline_run: int) -> _abi.RunInfo:
    """A run's description; the library names it by the set's first item."""
    config = {"format": "mvprof-python", "class": type(model).__name__,
              "parameters": sum(p.numel() for p in model.parameters()), "roles": roles}
    param = next(model.parameters(), None)
    return _abi.RunInfo(
        model=b("python:" + type(model).__name__), config_json=b(json.dumps(config)),
        device=b(str(param.device) if param is not None else "cpu"),
        dtype=b(str(param.dtype).replace("torch.", "") if param is not None else "float32"),
        transform=b(transform), baseline_run=int(baseline_run))


def _set_source(items: Items) -> Tuple[str, Optional[str]]:
    """(the set's path or name, its JSONL lines when given as dicts)."""
    if isinstance(items, (str, os.PathLike)):
        return os.fspath(items), None
    try:
        lines = "\n".join(json.dumps(dict(item)) for item in items)
    except (TypeError, ValueError) as e:
        raise MvprofError(f"items must be an eval set's path or a list of dicts with 'image' "
                          f"and 'prompt' (docs/eval.md): {e}") from None
    return "python:items", lines


class _Eval:
    """One evaluate() call: the session, both models and the items."""

    def __init__(self, session: ctypes.c_void_p, models: Tuple[torch.nn.Module, torch.nn.Module],
                 transform: Transform, patterns, generate: Generate, heatmaps: bool) -> None:
        self.session, self.models, self.transform = session, models, transform
        self.patterns, self.generate, self.heatmaps = patterns, generate, heatmaps

    def call(self, name: str, *args: object) -> None:
        _abi.check(getattr(_abi.library(), name)(self.session, *args))

    def item(self, index: int) -> Dict[str, object]:
        text = ctypes.c_char_p()
        self.call("mvprof_eval_item", index, ctypes.byref(text))
        return json.loads(text.value.decode())

    def run_arm(self, arm: int, item: Dict[str, object]) -> Tuple[_ItemPass, str]:
        """One pass of `item` through arm 0 (the baseline) or 1 (the what-if,
        with the transform's hooks)."""
        p = _ItemPass(self.models[arm])
        handles = hooked(p.model, self.transform, p, self.patterns) if arm else []
        try:
            with torch.no_grad():
                answer = self.generate(p, dict(item))
        finally:
            for h in handles:
                h.remove()
        if not isinstance(answer, str):
            raise MvprofError(f"generate(p, item) must return the answer's text (str), not "
                              f"{type(answer).__name__}")
        if not p.times:
            raise MvprofError("generate(p, item) marked no phase: time its work with "
                              "`with p.phase('prefill'): …` as in a profile script")
        return p, answer

    def observe_arm(self, arm: int, index: int, item: Dict[str, object]) -> None:
        """Arm `arm`'s observation pass over item `index`, before its timed
        pass: the heatmap its row takes, where the attention is readable."""
        p = _ObservedPass(self, self.models[arm])
        self.call("mvprof_begin_eval_observation", arm, index)
        handles = p.module_hooks(self.patterns)
        if arm:
            handles += hooked(p.model, self.transform, p, self.patterns)
        try:
            with torch.no_grad():
                self.generate(p, dict(item))
        finally:
            for h in handles:
                h.remove()
            self.call("mvprof_end_eval_observation")

    def store(self, arm: int, index: int, p: _ItemPass, answer: str) -> int:
        """Hands one arm's pass to the library; 1 or 0 when scored, -1 if not."""
        logits = torch.stack(p.logits).contiguous() if p.logits else torch.zeros(0, 1)
        kept = p.kept_patches or []
        phases = list(p.times.items())
        names = (ctypes.c_char_p * max(len(phases), 1))(*[b(n) for n, _ in phases])
        ns = (ctypes.c_longlong * max(len(phases), 1))(*[t for _, t in phases])
        correct = ctypes.c_int()
        visual = p.visual_span[1] if p.visual_span else 0
        self.call("mvprof_add_eval_item", arm, index, b(answer), _abi.floats(logits),
                  logits.shape[0] if p.logits else 0, logits.shape[1], visual,
                  _abi.ints(kept), len(kept), names, ns, len(phases), ctypes.byref(correct))
        return correct.value


def evaluate(path: str, model: torch.nn.Module, items: Items, generate: Generate,
             transform: Transform, roles: Optional[Dict[str, str]] = None,
             baseline: Union[Profile, int, None] = None, heatmaps: bool = True) -> Evaluation:
    """Runs `transform` against `model` over every item and stores two eval
    runs in the session at `path` (created if missing): the baseline's and
    the what-if's. `items` is an eval set's JSONL path (docs/eval.md) or a
    list of such dicts (images relative to the working directory).
    `generate(p, item)` answers one item: it runs `p.model` (the baseline's
    model or the transformed one), marks its phases with `p.phase(…)`, hands
    each step's next-token logits to `p.output(logits)` (the fidelity
    compares them) and declares the image's tokens with
    `p.visual_tokens(…)`, as a profile script does; it returns the answer's
    text. `baseline` (a Profile or run id of this session) names the capture
    the eval re-runs; FreezeCold's cold experts come from its routing.
    `heatmaps`: before each arm's timed pass, one more pass observes where
    the model looked (the item's answer_attention heatmap, where a softmax
    inside the attention role's modules shows it); untimed. A failing item
    stores both runs as failed, naming it; Ctrl-C keeps the items done, the
    runs incomplete."""
    if not isinstance(transform, Transform):
        raise MvprofError("transform must be mvprof.W8(), W4(), FreezeCold(), PruneVisual(), "
                          "FastV(), PyramidDrop() or VisionZip()")
    if not callable(generate):
        raise MvprofError("generate must be a function (p, item) -> the answer's text")
    baseline_run = baseline.run_id if isinstance(baseline, Profile) else int(baseline or 0)
    roles = dict(roles or DEFAULT_ROLES)
    patterns = compile_roles(roles)
    set_path, jsonl = _set_source(items)
    lib = _abi.library()
    session = ctypes.c_void_p()
    _abi.check(lib.mvprof_open(b(path), 0, ctypes.byref(session)))
    try:
        return _evaluate(session, model, roles, patterns, transform, baseline_run,
                         set_path, jsonl, generate, heatmaps)
    finally:
        rc = lib.mvprof_close(session)  # an eval still open is stored as failed
        if rc != 0:
            _abi.check(rc)


def _evaluate(session: ctypes.c_void_p, model: torch.nn.Module, roles: Dict[str, str], patterns,
              transform: Transform, baseline_run: int, set_path: str, jsonl: Optional[str],
              generate: Generate, heatmaps: bool) -> Evaluation:
    recording = _EvalRecording(session, model, patterns, baseline_run)
    transformed = transform.prepare(recording)
    ids = (ctypes.c_longlong(), ctypes.c_longlong())
    count = ctypes.c_int()
    base_info = _run_info(model, roles, None, baseline_run)
    what_info = _run_info(transformed, roles, transform.name, 0)
    _abi.check(_abi.library().mvprof_begin_eval(
        session, ctypes.byref(base_info), ctypes.byref(what_info), b(set_path), b(jsonl),
        ctypes.byref(count), ctypes.byref(ids[0]), ctypes.byref(ids[1])))
    e = _Eval(session, (model, transformed), transform, patterns, generate, heatmaps)
    out = Evaluation(ids[0].value, ids[1].value, count.value, 0, 0, 0, 0)
    try:
        transform.started(recording)
        for arm in (0, 1):  # warm-up: first calls pay set-up no later item pays
            e.run_arm(arm, e.item(0))
        for index in range(count.value):
            _run_item(e, index, out)
    except KeyboardInterrupt:
        e.call("mvprof_end_eval", STATUS["incomplete"], b("stopped by the user"))
        raise
    except BaseException as exc:
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        e.call("mvprof_end_eval", STATUS["failed"], b(f"item {out.done}: {last}"))
        raise
    e.call("mvprof_end_eval", STATUS["complete"], None)
    return out


def _run_item(e: _Eval, index: int, out: Evaluation) -> None:
    item = e.item(index)
    verdicts = []
    for arm in (0, 1):
        if e.heatmaps:
            e.observe_arm(arm, index, item)
        p, answer = e.run_arm(arm, item)
        verdicts.append(e.store(arm, index, p, answer))
    out.done += 1
    if verdicts[0] >= 0:
        out.scored += 1
        out.baseline_right += verdicts[0]
        out.whatif_right += verdicts[1]

