"""What the Python tests share: a check that prints its verdict and keeps
the failures, and the exit status they make."""

from typing import List

failures: List[str] = []


def check(ok: bool, what: str) -> None:
    """Prints "ok" or "FAIL" with `what`; a failure is kept."""
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def status() -> int:
    """0 when every check passed, else 1 (after saying how many failed)."""
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("all passed")
    return 0
