#!/usr/bin/python3
"""The mvprof package's modules import each other without a circle, the
ground floor (_passes, _abi) imports nothing of the package, the public
API is what __init__ exports, and the what-if method catalogue
(core/whatif/Methods.cpp) names the package's transforms. Reads the
sources: no torch needed."""

import ast
import os
import re
import sys
from typing import Dict, List, Set

ROOT = os.environ.get("MVP_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PACKAGE = os.path.join(ROOT, "capture", "python", "mvprof")
CATALOGUE = os.path.join(ROOT, "core", "whatif", "Methods.cpp")
GROUND = {"_abi", "_passes"}
# The package's transforms: each a what-if method of the catalogue.
TRANSFORMS = {"W8", "W4", "FreezeCold", "PruneVisual", "FastV", "PyramidDrop", "VisionZip"}
PUBLIC = {"profile", "whatif", "Profile", "WhatIf", "NullProfile", "MvprofError", "DEFAULT_ROLES",
          "Transform", "W8", "W4", "FreezeCold", "PruneVisual", "FastV", "PyramidDrop",
          "VisionZip", "weight_bytes", "ABI_VERSION", "evaluate", "Evaluation"}


def imports(path: str) -> Set[str]:
    """The package modules a module imports (relative imports, typing-only ones too)."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module] if node.module else [a.name for a in node.names])
    return found


def cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """A circle of imports, as the modules on it, or [] when there is none."""
    state: Dict[str, int] = {}
    path: List[str] = []

    def visit(m: str) -> List[str]:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state and (found := visit(d)):
                return found
        state[m] = 2
        path.pop()
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def main() -> int:
    graph = {f[:-3]: imports(os.path.join(PACKAGE, f))
             for f in os.listdir(PACKAGE) if f.endswith(".py")}
    failures = []
    # The check is only as good as its reading: a circle made by hand is found.
    if cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) != ["a", "b", "c", "a"]:
        failures.append("the circle finder misses a circle")
    if circle := cycle(graph):
        failures.append("import circle: " + " → ".join(circle))
    for ground in GROUND:
        if graph.get(ground):
            failures.append(f"{ground} is the ground floor but imports {sorted(graph[ground])}")
    exported = set()
    for node in ast.walk(ast.parse(open(os.path.join(PACKAGE, "__init__.py")).read())):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__"
                                                for t in node.targets):
            exported = set(ast.literal_eval(node.value))
    if exported != PUBLIC:
        failures.append(f"public API changed: {sorted(exported ^ PUBLIC)}")
    # The method catalogue's Python column names exactly the package's transforms.
    catalogued = set(re.findall(r'"mvprof\.(\w+)"', open(CATALOGUE, encoding="utf-8").read()))
    if catalogued != TRANSFORMS or not TRANSFORMS <= exported:
        failures.append(f"core/whatif/Methods.cpp names {sorted(catalogued)} as the Python "
                        f"package's transforms; it has {sorted(TRANSFORMS)}")
    for f in failures:
        print("FAIL:", f)
    print(f"  {len(graph)} modules, no circle" if not failures else "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
