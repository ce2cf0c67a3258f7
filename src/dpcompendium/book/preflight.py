"""What ``dpcompendium run`` checks before a kernel starts: the output folder, the run's memory, its workers.

Each check raises a one-line ``ValueError`` (the CLI prints it and exits with 2) or returns what the run will use:

- :func:`check_out_dir`: ``--out`` must be a writable directory, or a folder that can be created in an existing,
  writable directory (a missing parent, a file on the path, an unwritable or virtual folder are refused);
- :func:`check_memory`: a chapter's manifest may declare ``[resources] memory_bytes``, an expression over its
  parameters in the syntax of ``# require:`` lines estimating the bytes the run allocates at its peak; a parameter
  set whose estimate exceeds :data:`MEMORY_SHARE` of the memory available is refused with the estimate;
- :func:`cap_n_jobs`: ``n_jobs`` above the cores available to this process is capped to them, with a notice (more
  workers than cores add processes and memory, never speed; the tables do not depend on ``n_jobs``).

:func:`preflight` runs all three after :func:`dpcompendium.book.contract.validate_parameters`; the extremes fuzz
(:func:`dpcompendium.book.fuzz.extreme_cases`) times it.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .contract import (
    Chapter,
    _require_names,
    required_datasets,
    safe_eval,
    validate_parameters,
)

__all__ = [
    "MEMORY_SHARE",
    "Preflight",
    "available_memory",
    "cap_n_jobs",
    "check_memory",
    "check_out_dir",
    "cores",
    "format_bytes",
    "memory_estimate",
    "preflight",
]

#: Share of the available memory a run may be estimated to need.
MEMORY_SHARE = 0.8


def cores() -> int:
    """CPU cores this process may run on (:func:`dpcompendium.core.parallel.cpu_cores`)."""
    from ..core.parallel import cpu_cores

    return cpu_cores()


def available_memory() -> int:
    """Bytes of memory available to a new process without swapping (``MemAvailable``; psutil elsewhere)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    import psutil  # pragma: no cover

    return int(psutil.virtual_memory().available)  # pragma: no cover


def format_bytes(n: float) -> str:
    """``n`` bytes with a binary unit and 3 significant digits (``407 TiB``)."""
    if not math.isfinite(n):
        return "more bytes than a float can count"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if abs(n) < 1024 or unit == "EiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


def check_out_dir(out: str | os.PathLike, option: str = "--out") -> Path:
    """The resolved results folder ``out``, refused in one line unless it is a writable directory or a folder
    that can be created in an existing, writable directory. Creates nothing."""
    raw = str(out)
    if not raw.strip():
        raise ValueError(f"{option} must name a folder, got {raw!r}")
    path = Path(out).expanduser()
    try:
        path = path.resolve()
    except (OSError, RuntimeError) as exc:
        raise ValueError(f"{option} cannot be resolved, got {raw!r} ({exc})") from None
    if path.exists():
        if not path.is_dir():
            raise ValueError(f"{option} must be a directory, got {raw!r} (a file)")
        where = path
    else:
        parent = path.parent
        if not parent.exists():
            raise ValueError(
                f"{option} must be in an existing folder, got {raw!r} ({parent} does not exist)"
            )
        if not parent.is_dir():
            raise ValueError(
                f"{option} must be in a folder, got {raw!r} ({parent} is not a directory)"
            )
        where = parent
    if not os.access(where, os.W_OK | os.X_OK) or _virtual(where):
        raise ValueError(f"{option} must be writable, got {raw!r} ({where} is not writable)")
    return path


def _virtual(path: Path) -> bool:
    """True for the kernel's virtual file systems (/proc, /sys), where a folder can never be made."""
    return any(path == Path(p) or Path(p) in path.parents for p in ("/proc", "/sys"))


def memory_estimate(chapter: Chapter, values: dict[str, Any]) -> float | None:
    """Bytes the run allocates at its peak by the chapter's manifest (``[resources] memory_bytes``, evaluated on
    the defaults overridden by ``values``), or None where the manifest gives no estimate."""
    manifest = chapter.manifest
    expr = manifest.resources.get("memory_bytes") if manifest is not None else None
    if not expr:
        return None
    merged = {**chapter.defaults, **values}
    try:
        need = float(safe_eval(expr, merged))
    except OverflowError:
        return math.inf
    return need if math.isfinite(need) else math.inf


def check_memory(chapter: Chapter, values: dict[str, Any], available: int | None = None) -> None:
    """Refuse (one-line ``ValueError``) a parameter set whose memory estimate exceeds :data:`MEMORY_SHARE` of
    ``available`` (default: the memory available now), naming the estimate and the parameters it depends on."""
    need = memory_estimate(chapter, values)
    if need is None:
        return
    have = available_memory() if available is None else int(available)
    if need <= MEMORY_SHARE * have:
        return
    expr = chapter.manifest.resources["memory_bytes"]
    merged = {**chapter.defaults, **values}
    names = [n for n in _require_names(expr) if n in merged]
    changed = [n for n in names if n in values] or names
    shown = ", ".join(f"{n} = {_short(merged[n])}" for n in changed)
    raise ValueError(
        f"parameters {shown} need about {format_bytes(need)} of memory (estimate of chapter "
        f"{chapter.id}), {format_bytes(have)} available: lower {' or '.join(changed)}"
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def cap_n_jobs(chapter: Chapter, values: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """``values`` with ``n_jobs`` capped to :func:`cores` (a new dict), and the notice to print (None: unchanged)."""
    if "n_jobs" not in chapter.parameters:
        return values, None
    n = values.get("n_jobs", chapter.defaults["n_jobs"])
    limit = cores()
    if not isinstance(n, int) or n <= limit:
        return values, None
    return (
        {**values, "n_jobs": limit},
        f"n_jobs {n} capped to {limit}, the cores this run may use: more worker processes than cores "
        "add processes and memory, not speed (the results do not depend on n_jobs)",
    )


@dataclass
class Preflight:
    """The plan of a run, as :func:`preflight` made it: the values to run with (validated, ``n_jobs`` capped), the
    results folder, notices to print, the memory estimate, the files of the data registry the run reads
    (:func:`~dpcompendium.book.contract.required_datasets`) and its worker processes (``n_jobs``; None for a
    chapter without it). ``dpcompendium run`` and the fuzz read it."""

    values: dict[str, Any]
    out: Path | None
    notices: list[str] = field(default_factory=list)
    memory_bytes: float | None = None
    datasets: list[str] = field(default_factory=list)
    workers: int | None = None


def preflight(
    chapter: Chapter, values: dict[str, Any], out: str | os.PathLike | None = None
) -> Preflight:
    """Every check of ``dpcompendium run`` before a kernel starts: the contract
    (:func:`~dpcompendium.book.contract.validate_parameters`: types, ranges, ``# require:`` lines), the output
    folder, the memory estimate and the cap of ``n_jobs``. Raises a one-line ``ValueError``; returns the run's plan
    (:class:`Preflight`)."""
    validate_parameters(chapter, values)
    path = check_out_dir(out) if out is not None else None
    check_memory(chapter, values)
    capped, notice = cap_n_jobs(chapter, values)
    merged = {**chapter.defaults, **capped}
    return Preflight(
        capped,
        path,
        [notice] if notice else [],
        memory_estimate(chapter, capped),
        required_datasets(chapter, capped),
        merged.get("n_jobs"),
    )
