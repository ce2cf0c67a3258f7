"""Checked notebook outputs compared as numbers (a pytest plugin, loaded by every pytest run in the venv).

nbval compares a checked cell's output (cells tagged ``nbval-check-output``) with the output stored in the notebook,
character by character. A number printed from a floating-point result is not reproducible to the character: the
same seed gives results that differ in their last bits from one CPU's code paths to another's (NumPy's SIMD
kernels, OpenBLAS's kernels, the thread count, an optimiser's iterates; ``book/reproducibility.md``), and a value
near a rounding boundary then prints with its last digit changed, at any precision. So when nbval finds a checked
output different, this plugin looks again, token by token:

- the text must match exactly, but for the widths of runs of white space (a column of a printed table realigns when
  one of its numbers prints one character longer);
- every number must match **within one unit in its last printed digit** (``1.72`` and ``1.73``: 0.01; ``5.07e+09``:
  10⁷; of two numbers printed to different precisions, the coarser unit), plus, where the cell declares it, a
  relative tolerance;
- an integer (digits only: a count, a number of cells, a size) must match exactly, unless the cell declares that its
  integers are rounded values (``"integers": "rounded"``: a float printed to 3 significant digits as ``579``);
- words, verdicts, ``True``/``False``, ``inf`` and ``nan`` are text, so they must match exactly.

A cell declares its tolerance in its metadata (``nbcompare``)::

    {"nbcompare": {"integers": "rounded", "rtol": 1e-6}}

A difference inside the tolerance passes and is reported in the test's output (pytest's ``-rA`` shows it); a
difference outside it fails with each number that differs, its two values and the tolerance it exceeded. Why a
plugin and not assertions: the stored outputs stay what the reader of the notebook sees and what the rerun page
compares a rerun with, and no chapter needs extra cells; the comparison is the same for every chapter.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

#: A number as a chapter prints one: an optional sign, digits with an optional fraction, an optional exponent. It
#: does not start inside a word (``T_2d``, ``x1``) and does not end inside one (``3rd``); a dot before it is allowed
#: (the ``..`` of a range ``1.72..2.85``).
NUMBER = re.compile(r"(?<![\w])([-+\u2212]?(?:\d+\.\d*|\d+)(?:[eE][-+]?\d+)?)(?![\w])")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Tolerance:
    """What a cell allows beyond the printed precision: ``integers`` ``"exact"`` or ``"rounded"``, and ``rtol``."""

    integers: str = "exact"
    rtol: float = 0.0

    def __post_init__(self) -> None:
        if self.integers not in ("exact", "rounded"):
            raise ValueError(f"integers must be 'exact' or 'rounded', got {self.integers!r}")
        if not (isinstance(self.rtol, int | float) and 0.0 <= self.rtol < 1.0):
            raise ValueError(f"rtol must be a number in [0, 1), got {self.rtol!r}")

    @classmethod
    def of_cell(cls, cell: Any) -> Tolerance:
        """The tolerance a notebook cell declares in its metadata (``nbcompare``), or the default."""
        meta = dict(getattr(cell, "metadata", {}) or {}).get("nbcompare") or {}
        unknown = set(meta) - {"integers", "rtol"}
        if unknown:
            raise ValueError(f"nbcompare metadata has unknown keys {sorted(unknown)}")
        return cls(integers=meta.get("integers", "exact"), rtol=float(meta.get("rtol", 0.0)))


@dataclass
class Comparison:
    """The result of comparing two printed texts: ``ok``, the numbers that differ within the tolerance (``within``)
    and the reasons it fails (``problems``), each a line a reader can act on."""

    ok: bool
    within: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _value(token: str) -> float:
    return float(token.replace("\u2212", "-"))


def last_digit_unit(token: str) -> float:
    """One unit in the last printed digit of ``token``: ``1.72`` → 0.01, ``5.07e+09`` → 1e7, ``285`` → 1."""
    t = token.replace("\u2212", "-").lstrip("+-")
    mantissa, _, exponent = t.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def is_integer(token: str) -> bool:
    """Digits only (with a sign): a count, a size, an index."""
    return re.fullmatch(r"[-+\u2212]?\d+", token) is not None


def split_numbers(text: str) -> tuple[list[str], list[str]]:
    """The text between the numbers (white-space runs folded to one space) and the numbers, in order."""
    parts = NUMBER.split(text)
    texts = [_SPACE.sub(" ", p) for p in parts[0::2]]
    return texts, parts[1::2]


def compare_text(stored: str, computed: str, tol: Tolerance = Tolerance()) -> Comparison:
    """Compare a stored output with a newly computed one: text exactly (white-space widths aside), numbers within one
    unit of their last printed digit (and ``tol``), integers exactly unless ``tol.integers == "rounded"``."""
    if stored == computed:
        return Comparison(True)
    s_text, s_nums = split_numbers(stored)
    c_text, c_nums = split_numbers(computed)
    if len(s_nums) != len(c_nums) or s_text != c_text:
        for a, b in zip(s_text, c_text, strict=False):
            if a != b:
                return Comparison(
                    False, problems=[f"text differs: {a.strip()!r} (stored) vs {b.strip()!r} (now)"]
                )
        return Comparison(
            False,
            problems=[
                f"{len(s_nums)} numbers stored, {len(c_nums)} now (the text around them differs)"
            ],
        )
    result = Comparison(True)
    for k, (a, b) in enumerate(zip(s_nums, c_nums, strict=True)):
        if a == b:
            continue
        where = f"number {k + 1} ({s_text[k][-30:].strip()!r} before it)"
        if is_integer(a) and is_integer(b) and tol.integers == "exact":
            result.ok = False
            result.problems.append(f"{where}: {a} stored, {b} now (integers must match exactly)")
            continue
        x, y = _value(a), _value(b)
        allowed = max(last_digit_unit(a), last_digit_unit(b)) * (1.0 + 1e-9) + tol.rtol * max(
            abs(x), abs(y)
        )
        if math.isfinite(x) and math.isfinite(y) and abs(x - y) <= allowed:
            result.within.append(f"{where}: {a} stored, {b} now (within {allowed:.3g})")
        else:
            result.ok = False
            result.problems.append(
                f"{where}: {a} stored, {b} now (|difference| {abs(x - y):.3g} > {allowed:.3g})"
            )
    return result


# --- the pytest plugin ------------------------------------------------------------------------------------------------


def _flatten(item: Any, outputs: list[Any], skip: Any) -> dict[str, list[Any]]:
    """nbval's view of a list of outputs: one list of (sanitized) values per key, MIME types flattened."""
    from nbval.plugin import transform_streams_for_comparison

    flat: dict[str, list[Any]] = defaultdict(list)
    for out in transform_streams_for_comparison(outputs):
        for key, value in out.items():
            if key in skip:
                continue
            if key == "data":
                for mime, v in value.items():
                    if mime not in skip:
                        flat[mime].append(item.sanitize(v))
            else:
                flat[key].append(item.sanitize(value))
    return flat


def _compare_outputs(original: Any) -> Any:
    def compare_outputs(self: Any, test: Any, ref: Any, skip_compare: Any = None) -> bool:
        if original(self, test, ref, skip_compare):
            return True
        skip = skip_compare or self.parent.skip_compare
        stored, now = _flatten(self, ref, skip), _flatten(self, test, skip)
        if stored.keys() != now.keys() or any(len(stored[k]) != len(now[k]) for k in stored):
            return False  # nbval's own message stands
        tol = Tolerance.of_cell(self.cell)
        within: list[str] = []
        for key in stored:
            for a, b in zip(stored[key], now[key], strict=True):
                if a == b:
                    continue
                if not (isinstance(a, str) and isinstance(b, str)):
                    return False
                res = compare_text(a, b, tol)
                if not res.ok:
                    self.comparison_traceback.append(
                        f"Compared as numbers ({key}; tolerance: one unit in the last printed digit"
                        f"{', rtol ' + str(tol.rtol) if tol.rtol else ''}, integers {tol.integers}):"
                    )
                    self.comparison_traceback.extend("  " + p for p in res.problems)
                    return False
                within.extend(res.within)
        self.comparison_traceback = []
        if within:
            self.user_properties.append(("nbcompare_within_tolerance", "; ".join(within)))
        return True

    compare_outputs.__wrapped__ = original  # type: ignore[attr-defined]
    return compare_outputs


def pytest_configure(config: Any) -> None:
    """Install the number-aware comparison when nbval is loaded (a no-op otherwise, and when already installed)."""
    if not config.pluginmanager.hasplugin("nbval"):
        return
    from nbval.plugin import IPyNbCell

    if not hasattr(IPyNbCell.compare_outputs, "__wrapped__"):
        IPyNbCell.compare_outputs = _compare_outputs(IPyNbCell.compare_outputs)
