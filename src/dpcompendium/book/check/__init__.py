"""Check a student's implementation against the course: ``dpcompendium check NAME TARGET`` (coursework mode).

A check is a :class:`Check` in a registry: a name, the documented signature of the student's function, and a
``run(func, module, *, reps, seed)`` that returns a :class:`CheckReport` (tables, summary lines, optional audits of
exposed steps, a figure). Built-in checks live in modules of this package that call :func:`register` when imported
(``mwem`` → :mod:`dpcompendium.book.check.mwem`); a new check (hiera, histograms) is one module plus one line in
``_BUILTIN``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

# pandas only names the tables' type: the CLI lists the checks when it parses its arguments, and importing pandas
# there cost every `dpcompendium` call about half a second
if TYPE_CHECKING:
    import pandas as pd

__all__ = ["HELP", "Check", "CheckReport", "available_checks", "get_check", "register"]

#: check name → module that registers it on import.
_BUILTIN: dict[str, str] = {"mwem": "dpcompendium.book.check.mwem"}
_REGISTRY: dict[str, Check] = {}
#: What a student writes for each built-in check, shown by ``dpcompendium check --help`` without importing the
#: check (its module imports pandas): the signature and its arguments. A check's ``signature`` equals the first line.
HELP: dict[str, str] = {
    "mwem": """mwem(histogram, workload, epsilon, rounds, rng) -> synthetic histogram
  histogram: float array of counts, shape (K,) (the course's 14 age bins)
  workload:  int array, shape (m, 2); row j = inclusive bin range (lo_j, hi_j),
             answer histogram[lo_j : hi_j + 1].sum() (the course's 60 queries)
  epsilon:   the total budget; rounds: T (the course uses 30)
  rng:       a numpy.random.Generator, the only source of randomness
  returns:   the synthetic histogram, shape (K,)
  optional:  <function>_measure(histogram, query, epsilon, rounds, rng[, size]) -> noisy answer of
             query (lo, hi): audited at its per-round budget epsilon/(2T)""",
}


@dataclass
class CheckReport:
    """What a check found: ``tables`` (name → tidy DataFrame, saved as ``<name>.csv``), ``lines`` (the printed
    summary), ``verdict`` (what the check found, one phrase: which implementation the runs match, or the privacy
    failure of an audited step, which then also heads ``lines``), the :class:`~dpcompendium.book.usercode.AuditReport` of
    any audited step, and a figure builder."""

    check: str
    function: str
    verdict: str
    lines: list[str]
    tables: dict[str, pd.DataFrame]
    audits: dict[str, Any] = field(default_factory=dict)
    figure: Callable[[], Any] | None = field(default=None, repr=False)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_markdown(self) -> str:
        out = [
            f"# dpcompendium check {self.check}: `{self.function}`",
            "",
            f"**Verdict: {self.verdict}.**",
            "",
        ]
        out += [f"- {line}" for line in self.lines]
        out += ["", "Settings: " + ", ".join(f"{k} = {v}" for k, v in self.settings.items()), ""]
        for name, df in self.tables.items():
            out += [f"## {name}", "", df.to_markdown(index=False, floatfmt=".4g"), ""]
        for name, rep in self.audits.items():
            out += [f"## audit of {name}", "", rep.summary(), ""]
        if self.figure is not None:
            out += ["![errors](report.png)", ""]
        return "\n".join(out)

    def save(self, out_dir: str | Path) -> list[Path]:
        """Write every table as CSV, ``report.md`` and ``report.png`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, df in self.tables.items():
            p = out / f"{name}.csv"
            df.to_csv(p, index=False)
            paths.append(p)
        for name, rep in self.audits.items():
            p = out / f"audit_{name}.csv"
            rep.table.to_csv(p, index=False)
            paths.append(p)
        md = out / "report.md"
        md.write_text(self.to_markdown(), encoding="utf-8")
        paths.append(md)
        if self.figure is not None:
            png = out / "report.png"
            self.figure().savefig(png, dpi=110)
            paths.append(png)
        return paths


@dataclass(frozen=True)
class Check:
    """A registered check: ``run(func, module, *, reps, seed) -> CheckReport``; ``signature`` documents the
    student's function; ``function`` is the default function name looked up when TARGET names only a file."""

    name: str
    summary: str
    signature: str
    run: Callable[..., CheckReport]
    function: str
    default_reps: int = 100
    calls_per_rep: int = (
        1  # calls of the student's function per repetition (progress and time limit)
    )


def register(check: Check) -> Check:
    """Add ``check`` to the registry (a later registration under the same name replaces it)."""
    _REGISTRY[check.name] = check
    return check


def available_checks() -> list[str]:
    """Names of every built-in and registered check."""
    return sorted(set(_BUILTIN) | set(_REGISTRY))


def get_check(name: str) -> Check:
    """The check called ``name`` (importing its module on first use)."""
    if name not in _REGISTRY and name in _BUILTIN:
        importlib.import_module(_BUILTIN[name])
    if name not in _REGISTRY:
        raise ValueError(f"check must be one of {'|'.join(available_checks())}, got {name!r}")
    return _REGISTRY[name]
