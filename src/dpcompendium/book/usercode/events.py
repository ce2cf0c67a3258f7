"""Event selection: candidate statistics of the outputs and the interval events on them."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core._jit import compiled
from ...core.audit.events import (
    _interval_counts,
    _selection_z,
    _wilson_score,
    interval_cuts,
    pooled_sorted,
)
from .common import MAX_DISCRETE, UserCodeError
from .sampling import sample_outputs
from .target import _Shipped


@dataclass
class _Statistic:
    """A scalar statistic of the outputs, fitted on the selection half only."""

    name: str
    fn: Callable[[np.ndarray], np.ndarray]
    #: what the statistic is, for the report's sentence: ``output``, ``projection``, ``l1``, ``coordinate:j``,
    #: ``learned`` (:func:`~dpcompendium.book.usercode.describe.statistic_text`)
    key: str = "output"


def _flatten(x: Any) -> list:
    """The atoms of one canonical output (numbers, strings, None, NaN token), depth first."""
    if isinstance(x, tuple):
        return [a for v in x for a in _flatten(v)]
    return [x]


class _Encoder:
    """Maps the outputs of one audit to a numeric array, consistently across draws and inputs.

    - numbers (one shape): the numbers themselves (one column per value);
    - numbers with NaN: the numbers (NaN as 0) and one indicator column per value (NaN or not);
    - strings (one per call): a code per distinct string;
    - structured outputs (tuples, lists of varying length, ``None``, mixtures; :func:`~.sampling.as_structured`):
      the number of atoms, then for each position j < ``width`` (the most atoms seen) its value (strings coded,
      ``None``/NaN/missing as 0), whether it is present, and whether it is ``None``/NaN.

    :meth:`fit` learns the codes and the layout (call it on every input's outputs before the first encoding, in
    the inputs' order); calling the encoder fits too unless it is frozen.
    """

    def __init__(self) -> None:
        self.codes: dict[Any, int] = {}
        self.frozen = False
        self.structured = False
        self.nan = False
        self.width = 0

    @property
    def strings(self) -> bool:
        """The outputs are one string per call (their codes name the events)."""
        return bool(self.codes) and not self.structured

    def frozen_copy(self) -> _Encoder:
        """The same codes and layout, fixed: a value the selection did not see gets NaN (in no interval event), so
        the evaluation counts do not depend on the order in which chunks meet new values."""
        enc = _Encoder()
        enc.merge(self)
        enc.frozen = True
        return enc

    def merge(self, other: _Encoder) -> None:
        """Add ``other``'s codes (in its order) and layout to this encoder's."""
        for v in other.codes:
            self.codes.setdefault(v, len(self.codes))
        self.structured |= other.structured
        self.nan |= other.nan
        self.width = max(self.width, other.width)

    def fit(self, out: np.ndarray) -> None:
        """Learn the codes (each input's strings sorted) and the layout from ``out``."""
        if self.frozen:
            return
        if out.dtype == object:
            self.structured = True
            atoms = [_flatten(o) for o in out]
            self.width = max(self.width, max((len(a) for a in atoms), default=0))
            strings = sorted({a for row in atoms for a in row if isinstance(a, str)})
            for v in strings:
                self.codes.setdefault(v, len(self.codes))
        elif out.dtype.kind in "USa":
            for v in np.unique(out.reshape(out.shape[0], -1)):
                self.codes.setdefault(v.item(), len(self.codes))
        elif out.dtype.kind in "fc" and np.isnan(out).any():
            self.nan = True

    def __call__(self, out: np.ndarray) -> np.ndarray:
        self.fit(out)
        if self.structured:
            return self._structured(out)
        if out.dtype.kind in "biuf":
            x = out.astype(float, copy=False).reshape(
                out.shape[0], -1
            )  # no copy of float64 outputs
            if self.nan:
                miss = np.isnan(x)
                return np.hstack([np.where(miss, 0.0, x), miss.astype(float)])
            return x
        if out.dtype.kind not in "USa":
            raise UserCodeError(
                f"outputs must be numbers, arrays or strings, got dtype {out.dtype}"
            )
        flat = out.reshape(out.shape[0], -1)
        if flat.shape[1] != 1:
            raise UserCodeError(
                f"string outputs must be one string per call (or a tuple), got shape {out.shape[1:]}"
            )
        vals, inv = np.unique(flat[:, 0], return_inverse=True)
        lut = np.array([self.codes.get(v.item(), np.nan) for v in vals], dtype=float)
        return lut[np.asarray(inv).ravel()][:, None]

    def _structured(self, out: np.ndarray) -> np.ndarray:
        from .sampling import as_structured

        if out.dtype != object:
            out = as_structured(list(out), "function")
        w = self.width
        feats = np.zeros((out.shape[0], 1 + 3 * w))
        if w >= 1 and not any(type(o) is tuple for o in out):
            # every output one atom (a number, None, NaN, a string): the same features, column by column
            missing = np.fromiter((o is None or o == "NaN" for o in out), bool, out.shape[0])
            text = np.fromiter((isinstance(o, str) and o != "NaN" for o in out), bool, out.shape[0])
            value = np.fromiter(
                (0.0 if m else self.codes.get(o, -1.0) if t else o
                 for o, m, t in zip(out, missing, text, strict=True)),
                float, out.shape[0],
            )  # fmt: skip
            feats[:, 0], feats[:, 2], feats[:, 3], feats[:, 1] = 1.0, 1.0, missing, value
            return feats
        for i, o in enumerate(out):
            atoms = _flatten(o)
            feats[i, 0] = len(atoms)
            for j, a in enumerate(atoms[:w]):
                feats[i, 1 + 3 * j + 1] = 1.0
                if a is None or a == "NaN":
                    feats[i, 1 + 3 * j + 2] = 1.0
                elif isinstance(a, str):
                    feats[i, 1 + 3 * j] = self.codes.get(a, -1.0)
                else:
                    feats[i, 1 + 3 * j] = a
        return feats

    def label(self, code: float) -> str:
        inv = {c: v for v, c in self.codes.items()}
        return repr(inv.get(int(code), code)) if self.codes else f"{code:g}"


def _snap(stat: _Statistic, ref: np.ndarray) -> _Statistic:
    """Round the statistic to 10 significant digits (of its largest value on the selection samples).

    A statistic with an atom (e.g. a sum of saturated terms) takes the atom's value only up to a few ulps, and
    which ulp depends on the floating-point grid of the input: x + Lap(b) and x' + Lap(b) lie on different grids.
    Unrounded, an interval ending at the atom would measure that rounding, not the mechanism (a floating-point
    leak [mironov2012significance] that the chapter audits separately). Rounding merges the ulps.
    """
    return _snap_values(stat, stat.fn(ref), np.empty(0))[0]


def _snap_values(
    stat: _Statistic, va: np.ndarray, vb: np.ndarray
) -> tuple[_Statistic, np.ndarray, np.ndarray]:
    """:func:`_snap` from the statistic's values on the two inputs' selection samples (computed once): the rounded
    statistic and the rounded values."""
    top = max((float(np.max(np.abs(v))) for v in (va, vb) if v.size), default=1.0)
    dec = int(9 - math.floor(math.log10(top))) if top > 0 and math.isfinite(top) else 9
    snapped = _Statistic(stat.name, functools.partial(_rounded, f=stat.fn, d=dec), stat.key)
    return snapped, np.round(va, dec), np.round(vb, dec)


# The statistics are partials of module functions (not lambdas), so a selection task can return them from a worker.
def _rounded(x: np.ndarray, f: Callable, d: int) -> np.ndarray:
    return np.round(f(x), d)


def _column(x: np.ndarray, j: int) -> np.ndarray:
    return x[:, j]


def _project(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return x @ w


#: Rows per block of :func:`_l1_ratio` (its temporaries stay in cache).
_L1_BLOCK = 2048


def _l1_ratio(x: np.ndarray, a: np.ndarray, b: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``(|x − a|/s − |x − b|/s).sum(1)``, row block by row block with in-place temporaries: the same operations on
    each element and the same row sums (a row's sum does not depend on the other rows), bit for bit."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape[0])
    for i in range(0, x.shape[0], _L1_BLOCK):
        xx = x[i : i + _L1_BLOCK]
        u = np.subtract(xx, a)
        np.abs(u, out=u)
        np.divide(u, s, out=u)
        v = np.subtract(xx, b)
        np.abs(v, out=v)
        np.divide(v, s, out=v)
        np.subtract(u, v, out=u)
        np.sum(u, axis=1, out=out[i : i + _L1_BLOCK])
    return out


#: Outputs per input the learned event's classifier is trained on (the first ones of the selection half).
LEARN_SAMPLES = 10_000


def _classifier_score(x: np.ndarray, model: Any, trees: _Trees | None = None) -> np.ndarray:
    """P̂(D' | output) of the fitted classifier on the rows of ``x``; each distinct row scored once. With ``trees``
    (:func:`_flat_trees` of ``model``) by the compiled kernel, which gives scikit-learn's ``predict_proba`` bit for
    bit (``tests/test_audit_user.py``), else by scikit-learn."""
    from threadpoolctl import threadpool_limits

    rows, inverse = _unique_rows(x)
    if trees is not None:
        scores = _tree_scores(rows, model, trees)
        return scores if inverse is None else scores[inverse]
    with threadpool_limits(limits=1, user_api="openmp"):
        if inverse is None:
            return model.predict_proba(x)[:, 1]
        return model.predict_proba(rows)[:, 1][inverse]


@dataclass(frozen=True)
class _Trees:
    """A fitted binary histogram-gradient-boosting classifier's trees as flat arrays (the nodes of every tree, one
    after the other, children indexed in the whole array; ``roots``: each tree's first node, in boosting order)."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf: np.ndarray
    missing_left: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    baseline: float


def _flat_trees(model: Any) -> _Trees | None:
    """``model``'s trees as :class:`_Trees`, or ``None`` when the compiled kernel does not cover it (categorical
    splits, more than one tree per iteration, a baseline of another shape)."""
    preds = getattr(model, "_predictors", None)
    base = np.asarray(getattr(model, "_baseline_prediction", np.nan), dtype=float)
    if not preds or any(len(p) != 1 for p in preds) or base.size != 1:
        return None
    nodes = [p[0].nodes for p in preds]
    if any(bool(np.any(n["is_categorical"])) for n in nodes):
        return None
    sizes = np.array([n.size for n in nodes], dtype=np.int64)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    offset = np.repeat(roots, sizes)
    allnodes = np.concatenate(nodes)
    return _Trees(
        feature=allnodes["feature_idx"].astype(np.int64),
        threshold=allnodes["num_threshold"].astype(np.float64),
        left=allnodes["left"].astype(np.int64) + offset,
        right=allnodes["right"].astype(np.int64) + offset,
        leaf=allnodes["is_leaf"].astype(np.bool_),
        missing_left=allnodes["missing_go_to_left"].astype(np.bool_),
        value=allnodes["value"].astype(np.float64),
        roots=roots,
        baseline=float(base.ravel()[0]),
    )


def _trees_loop(
    x, feature, threshold, left, right, leaf, missing_left, value, roots, baseline, out
):
    """The raw score of each row of ``x``: 0 + baseline, then each tree's leaf value added in boosting order — the
    order and arithmetic of scikit-learn's ``_raw_predict`` (its Cython traversal: NaN goes the node's missing side,
    else x ≤ threshold goes left)."""
    for i in range(x.shape[0]):
        acc = 0.0 + baseline
        for t in range(roots.shape[0]):
            node = roots[t]
            while not leaf[node]:
                v = x[i, feature[node]]
                if v != v:
                    node = left[node] if missing_left[node] else right[node]
                elif v <= threshold[node]:
                    node = left[node]
                else:
                    node = right[node]
            acc += value[node]
        out[i] = acc


_trees_kernel = compiled(_trees_loop)


def _tree_scores(x: np.ndarray, model: Any, trees: _Trees) -> np.ndarray:
    """``model.predict_proba(x)[:, 1]`` from the compiled traversal (:func:`_trees_loop`) and the model's own link."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    raw = np.empty(x.shape[0])
    t = trees
    _trees_kernel()(x, t.feature, t.threshold, t.left, t.right, t.leaf, t.missing_left, t.value, t.roots,
                    t.baseline, raw)  # fmt: skip
    return model._loss.predict_proba(raw[:, None])[:, 1]


def _unique_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The distinct rows of ``x`` (byte for byte: NaNs of one pattern are one row) and the inverse map, when they
    are at most a quarter of the rows (the sparse vectors' ⊤/⊥/NaN patterns: a few hundred of 10⁵); else
    ``(x, None)``. A classifier scores each distinct row once: the same scores, bit for bit."""
    x = np.ascontiguousarray(x)
    if x.ndim != 2 or x.shape[0] < 1000:
        return x, None
    probe = x[: min(x.shape[0], 4000)]
    voids = probe.view(np.dtype((np.void, probe.dtype.itemsize * probe.shape[1]))).ravel()
    if np.unique(voids).size > probe.shape[0] // 4:  # mostly distinct (continuous outputs): no gain
        return x, None
    found = _unique_rows_hashed(x)
    if found is not None:
        return found
    rows = x.view(np.dtype((np.void, x.dtype.itemsize * x.shape[1]))).ravel()
    uniq, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    if uniq.size > x.shape[0] // 4:
        return x, None
    return x[first], inverse.ravel()


#: Odd 64-bit multipliers of ``_unique_rows_hashed``'s row keys (fixed: the keys only group rows, checked byte for
#: byte).
_ROW_KEY_MULTIPLIERS = np.arange(1, 65, dtype=np.uint64) * np.uint64(
    0x9E3779B97F4A7C15
) | np.uint64(1)


def _unique_rows_hashed(x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None] | None:
    """``_unique_rows`` by a 64-bit key per row (a multiply–xor hash of its bytes, sorted as integers: faster than
    sorting the rows as bytes), checked byte for byte — ``None`` (use the byte sort) when two distinct rows share a
    key or ``x`` is not a C-contiguous array of 8-byte items. The distinct rows come in another order than the byte
    sort's, but each row is scored on its own, so the scores are the same, bit for bit."""
    if x.dtype.itemsize != 8 or not x.flags.c_contiguous or x.shape[1] > _ROW_KEY_MULTIPLIERS.size:
        return None
    words = x.view(np.uint64)
    key = np.zeros(x.shape[0], dtype=np.uint64)
    for j in range(x.shape[1]):
        key ^= words[:, j] * _ROW_KEY_MULTIPLIERS[j]
        key = (key << np.uint64(7)) | (key >> np.uint64(57))
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    if uniq.size > x.shape[0] // 4:
        return x, None
    rows = x[first]
    inverse = inverse.ravel()
    if not np.array_equal(
        rows.view(np.uint64)[inverse], words
    ):  # a key shared by two distinct rows
        return None
    return rows, inverse


#: The learned event's classifier is the frequency table of the training outputs (the plug-in Bayes classifier) when
#: they take at most one distinct value per this many training rows: each distinct output then has enough rows for
#: its own frequency (a sparse vector's ⊤/⊥/NaN patterns: 11 of 20 000), and the table is what boosting would
#: approximate, exactly and at a fraction of the cost (issue 50).
TABLE_ROWS_PER_OUTPUT = 64


def _distinct_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of 2-D float ``x`` (byte for byte) and the inverse map, whatever their number."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    found = _unique_rows_hashed(x) if x.shape[0] else None
    if found is not None and found[1] is not None:
        return found
    voids = x.view(np.dtype((np.void, x.dtype.itemsize * x.shape[1]))).ravel()
    _, first, inverse = np.unique(voids, return_index=True, return_inverse=True)
    return x[first], np.asarray(inverse).ravel()


def _table_score(x: np.ndarray, table: dict[bytes, float]) -> np.ndarray:
    """The frequency table's P̂(D' | output) of each row of ``x`` (:func:`_learned_statistic`); ½ (no evidence
    either way) for an output the training rows did not show. Each distinct row is looked up once."""
    x = np.asarray(x, dtype=np.float64)
    if x.shape[0] == 0:
        return np.empty(0)
    rows, inverse = _distinct_rows(x)
    scores = np.array([table.get(r.tobytes(), 0.5) for r in rows], dtype=np.float64)
    return scores[inverse]


def _learned_statistic(xa: np.ndarray, xb: np.ndarray) -> _Statistic:
    """The learned event's statistic, as DP-Sniper [bichsel2021dpsniper]: a classifier trained on the selection
    half to tell M(D') from M(D), its score P̂(D' | output). The interval event on the score is chosen on the
    selection half too; the evaluation samples never meet the classifier's training, so the Clopper–Pearson bound
    stays valid.

    The classifier: when the training outputs take few distinct values (at most one per
    ``TABLE_ROWS_PER_OUTPUT`` rows), their frequency table — for each distinct output o seen k_a times in the m_a
    rows of D and k_b times in the m_b rows of D′, P̂(D' | o) = r_b/(r_a + r_b) with r = (k + ½)/m (equal priors,
    add-½) — the plug-in Bayes classifier, whose score orders the outputs by their estimated likelihood ratio; else
    scikit-learn's histogram gradient boosting (fixed seed: non-linear, so an event such as "the first ⊤ late and
    its value small" is within its reach)."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from threadpoolctl import threadpool_limits

    m_a, m_b = min(len(xa), LEARN_SAMPLES), min(len(xb), LEARN_SAMPLES)
    X = np.vstack([xa[:m_a], xb[:m_b]])
    name = "learned classifier score P̂(D' | output)"
    limit = X.shape[0] // TABLE_ROWS_PER_OUTPUT
    few = bool(m_a and m_b) and _few_distinct_rows(X, limit)
    rows, inverse = _distinct_rows(X) if few else (X, None)
    if few and rows.shape[0] <= limit:
        k_a = np.bincount(inverse[:m_a], minlength=rows.shape[0])
        k_b = np.bincount(inverse[m_a:], minlength=rows.shape[0])
        r_a, r_b = (k_a + 0.5) / m_a, (k_b + 0.5) / m_b
        score = r_b / (r_a + r_b)
        table = {r.tobytes(): float(s) for r, s in zip(rows, score, strict=True)}
        return _Statistic(name, functools.partial(_table_score, table=table), "learned")
    y = np.r_[np.zeros(m_a), np.ones(m_b)]
    with threadpool_limits(
        limits=1, user_api="openmp"
    ):  # small data: threads only contend (shared machines)
        model = HistGradientBoostingClassifier(
            max_iter=20, max_leaf_nodes=15, early_stopping=False, random_state=0
        ).fit(X, y)
    return _Statistic(name, functools.partial(_classifier_score, model=model, trees=_flat_trees(model)),
                      "learned")  # fmt: skip


def _column_medians(x: np.ndarray) -> np.ndarray:
    """``np.median(x, 0)``, bit for bit (each median is an order statistic, or the mean of two), from a transposed
    copy: the partition runs along contiguous rows instead of down strided columns."""
    return np.median(np.ascontiguousarray(x.T), axis=1)


def _few_distinct_rows(x: np.ndarray, limit: int) -> bool:
    """Whether ``x`` may have at most ``limit`` distinct rows: ``False`` as soon as its first ``4 * limit + 4`` rows
    already have more (continuous outputs: decided without sorting all the rows), else ``True`` (the caller counts
    them all)."""
    probe = np.ascontiguousarray(x[: 4 * limit + 4], dtype=np.float64)
    if probe.shape[0] <= limit:
        return True
    voids = probe.view(np.dtype((np.void, probe.dtype.itemsize * probe.shape[1]))).ravel()
    return np.unique(voids).size <= limit


def _candidate_statistics(xa: np.ndarray, xb: np.ndarray) -> list[_Statistic]:
    """Scalar statistics of (n, d) outputs: the output itself (d = 1), else the projection on the difference of
    means, an L1 likelihood-ratio statistic (Laplace noise), the most shifted coordinate and a learned classifier
    score (:func:`_learned_statistic`); unrounded (:func:`_pair_selection` rounds them, :func:`_snap_values`)."""
    d = xa.shape[1]
    if d == 1:
        return [_Statistic("output", functools.partial(_column, j=0))]
    mu_a, mu_b = xa.mean(0), xb.mean(0)
    diff = mu_b - mu_a
    if not np.any(diff):
        diff = np.ones(d)
    med_a, med_b = _column_medians(xa), _column_medians(xb)
    sd = np.sqrt(0.5 * (xa.var(0) + xb.var(0))) + 1e-12
    j = int(np.argmax(np.abs(diff) / sd))
    stats = [
        _Statistic(
            "projection on mean(D') − mean(D)", functools.partial(_project, w=diff), "projection"
        ),
        _Statistic(
            "Σ |o − med(D)| − |o − med(D')|",
            functools.partial(_l1_ratio, a=med_a, b=med_b, s=sd),
            "l1",
        ),
        _Statistic(f"output coordinate {j}", functools.partial(_column, j=j), f"coordinate:{j}"),
    ]
    if np.ptp(
        np.concatenate([xa[:LEARN_SAMPLES], xb[:LEARN_SAMPLES]]), axis=0
    ).any():  # outputs that vary
        stats.append(_learned_statistic(xa, xb))
    return stats


def _draw_outputs(func, to_input, params, batched, data, n, rng) -> np.ndarray:
    """A spec's ``sample(dataset, n, rng)`` for user code: n outputs of ``func`` on ``to_input(dataset)``."""
    return sample_outputs(func, to_input(data), params, n, rng, batched=batched)


def _in_event(stat, enc, lo: float, hi: float, out: np.ndarray) -> np.ndarray:
    """The chosen event: the statistic of the encoded outputs in (lo, hi]."""
    s = stat(enc(out))
    return (s > lo) & (s <= hi)


@dataclass
class _Choice:
    score: float
    pair: int
    stat: _Statistic
    lo: float
    hi: float
    forward: bool


def _best_interval(sa, sb, delta, z, max_cuts) -> tuple[float, float, float, bool]:
    """Best Wilson-penalized interval event (lo, hi] for sa over sb (forward) or sb over sa."""
    return _best_interval_sorted(np.sort(sa), np.sort(sb), delta, z, max_cuts)


def _best_interval_sorted(sa, sb, delta, z, max_cuts) -> tuple[float, float, float, bool]:
    """:func:`_best_interval` on sorted ``sa``, ``sb``."""
    cuts = interval_cuts(pooled_sorted(sa, sb), max_cuts)
    Ka, Kb = _interval_counts(sa, cuts), _interval_counts(sb, cuts)
    valid = np.triu(np.ones(Ka.shape, dtype=bool), k=1)
    sab = np.where(valid, _wilson_score(Ka, sa.size, Kb, sb.size, delta, z), -np.inf)
    sba = np.where(valid, _wilson_score(Kb, sb.size, Ka, sa.size, delta, z), -np.inf)
    forward = sab.max() >= sba.max()
    s = sab if forward else sba
    i, j = np.unravel_index(int(np.argmax(s)), Ka.shape)
    return float(s[i, j]), float(cuts[i]), float(cuts[j]), bool(forward)


@dataclass
class _PairSelection:
    """What the selection of one candidate pair returns (small: no samples). ``values`` (strings, structured
    outputs or NaN drawn without a layout): each side's :class:`_Encoder`, fitted on its outputs, to build the
    audit's layout; else ``rows`` (one per
    statistic), ``best`` (the pair's best event), ``support`` (the distinct encoded outputs of a one-number output
    when they name the event: strings, or at most ``MAX_DISCRETE`` values) and ``plot`` (:func:`_plot_summary` of
    the best statistic)."""

    dims: tuple[int, int]
    values: tuple[Any, Any] | None = None
    rows: list[dict] = field(default_factory=list)
    best: _Choice | None = None
    support: np.ndarray | None = None
    plot: dict | None = None


def _selection_z_for(c: float, n_pairs: int, dims: int, max_cuts: int) -> float:
    """The Wilson penalty of the selection: the number of (pair, statistic, interval, direction) candidates."""
    n_stats = 1 if dims == 1 else 4
    return _selection_z(c, 2 * n_pairs * n_stats * (max_cuts + 2) ** 2 // 2)


def _pair_selection(k, name, xa, xb, has_codes, n_pairs, c, delta, max_cuts) -> _PairSelection:
    """Selection on candidate pair ``k`` from its encoded selection outputs ``xa``, ``xb``: each candidate
    statistic's best Wilson-penalized interval (a row each) and the pair's best (the first of the largest score)."""
    dims = (xa.shape[1], xb.shape[1])
    if dims[0] != dims[1]:  # the caller raises with every input's size
        return _PairSelection(dims)
    z = _selection_z_for(c, n_pairs, dims[0], max_cuts)
    rows, best, best_sorted = [], None, None
    for raw in _candidate_statistics(xa, xb):
        st, sa, sb = _snap_values(raw, raw.fn(xa), raw.fn(xb))
        sa, sb = np.sort(sa), np.sort(sb)
        score, lo, hi, fwd = _best_interval_sorted(sa, sb, delta, z, max_cuts)
        rows.append({"pair": name, "statistic": st.name,
                     "event": f"({lo:.6g}, {hi:.6g}], {'M(D) over M(D_)' if fwd else 'M(D_) over M(D)'}",
                     "selection_estimate": max(score, 0.0)})  # fmt: skip
        if best is None or score > best.score:
            best, best_sorted = _Choice(score, k, st, lo, hi, fwd), (sa, sb)
        del sa, sb
    assert best is not None and best_sorted is not None
    support = None
    # more than MAX_DISCRETE distinct values among the first 1000 outputs: more in all (no need to sort them all)
    if dims == (1, 1) and (has_codes or np.unique(xa[:1000, 0]).size <= MAX_DISCRETE):
        support = np.unique(np.concatenate([xa[:, 0], xb[:, 0]]))
        if not (has_codes or support.size <= MAX_DISCRETE):
            support = None
    plot = _plot_summary(*best_sorted, presorted=True)
    return _PairSelection(dims, rows=rows, best=best, support=support, plot=plot)


def _select_pair_task(
    func, params, batched, k, name, inputs, seeds, n_sel, codes, n_pairs, c, delta, max_cuts
):
    """One selection task (a worker's share of a chunked audit): draw the pair's ``n_sel`` selection outputs per
    input from their seeds — the streams of the serial selection — encode them with the audit's ``codes`` and run
    :func:`_pair_selection`. Strings, structured outputs or NaN with ``codes=None`` return only each side's fitted
    encoder (the caller merges them into the audit's layout and runs the task again with it, an :class:`_Encoder`). The samples never leave the task."""
    fn = func.fn if isinstance(func, _Shipped) else func
    outs = [
        sample_outputs(fn, x, params, n_sel, ss, batched=batched)
        for x, ss in zip(inputs, seeds, strict=True)
    ]
    if codes is None and any(_needs_layout(o) for o in outs):
        layouts, dims = [], []
        for o in outs:
            enc = _Encoder()
            dims.append(enc(o).shape[1])  # validates the outputs as the encoding does
            layouts.append(enc)
        return _PairSelection((dims[0], dims[1]), values=(layouts[0], layouts[1]))
    enc = codes.frozen_copy() if isinstance(codes, _Encoder) else _Encoder()
    enc.frozen = True
    xa, xb = enc(outs[0]), enc(outs[1])
    del outs
    return _pair_selection(k, name, xa, xb, enc.strings, n_pairs, c, delta, max_cuts)


def _needs_layout(out: np.ndarray) -> bool:
    """Outputs whose encoding depends on what every input returns: strings, structured outputs, NaN."""
    return (
        out.dtype == object
        or out.dtype.kind in "USa"
        or (out.dtype.kind == "f" and np.isnan(out).any())
    )


def _plot_summary(sa: np.ndarray, sb: np.ndarray, presorted: bool = False) -> dict:
    """What the report's figure draws from the chosen statistic on the two inputs' samples, without the samples:
    at most ``MAX_DISCRETE`` distinct values → each value's frequency; else an 80-bin histogram (edges in [a, b), the
    last [a, b], as ``np.histogram``) of the central 99.8 % (quantiles 0.001, 0.999 of both samples). Computed on the
    sorted samples (``presorted``: already sorted), in linear time after the sort."""
    if not presorted:
        sa, sb = np.sort(sa), np.sort(sb)

    def distinct(s):
        return s[np.concatenate([[True], s[1:] != s[:-1]])] if s.size else s

    da = distinct(sa)
    if da.size <= MAX_DISCRETE:
        vals = np.union1d(da, distinct(sb))
        if vals.size <= MAX_DISCRETE:

            def freq(s):
                return (
                    np.searchsorted(s, vals, "right") - np.searchsorted(s, vals, "left")
                ) / s.size

            return {"values": vals, "pa": freq(sa), "pb": freq(sb)}
    lo_q, hi_q = np.quantile(np.sort(np.concatenate([sa, sb]), kind="stable"), [0.001, 0.999])
    bins = np.linspace(lo_q, hi_q, 80)

    def hist(s):
        edges = np.searchsorted(s, bins, "left")
        edges[-1] = np.searchsorted(s, bins[-1], "right")
        return np.diff(edges)

    return {"bins": bins, "ha": hist(sa), "hb": hist(sb)}
