"""Datasets and horizontal splits for the federated-PCA chapter.

Preprocessing (:func:`prepare`), two paths:

- ``"public"`` (default; the chapter's private methods): every statistic is public — each feature is clipped to its
  *declared* domain ``[lo, hi]`` (:data:`PUBLIC_BOUNDS`, parameters, never computed from the rows), scaled to
  ``[0, 1]``, centred at the declared centre (default: the domain midpoint), then *norm-clipped* to the public
  clipping norm ``C`` and divided by it (:func:`~dpcompendium.chapters.federated_pca.clip_rows`), so rows lie in the
  unit ball. ``C`` is public: :data:`CLIP_FRACTION` times the domain's radius ``½√d`` (a function of the declared
  domain only, never of the rows). Each row is mapped on its own, so one record changes one row and
  ``‖A(D′) − A(D)‖`` stays within the claimed Δ. Unlike the source's ``x/‖x‖₂`` (which every row's direction survives
  but not its length, so PCA then estimates the second moment of directions), rows inside the ball keep their length.
- ``"as-written"`` (the source's): features divided by the data's own ranges (constant features dropped) and rows
  centred with the exact global mean (the source's masked mean, released exactly to site 1) before the unit-norm
  step. One record moves every row: **not private**; :func:`preprocessing_sensitivity` measures by how much.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn import datasets as skdatasets

from ...core.data import load_adult
from ...core.validation import check_array, check_int, check_rng
from .core import clip_rows, normalize_rows

__all__ = [
    "BOUNDS_SOURCES",
    "CLIP_FRACTION",
    "DATASETS",
    "PUBLIC_BOUNDS",
    "Dataset",
    "audit_rows",
    "bounds_condition",
    "load_dataset",
    "make_low_rank",
    "prepare",
    "preprocessing_sensitivity",
    "split_sites",
]

#: The public clipping norm of :func:`prepare`, as a fraction of the domain's radius ``½√d`` (features scaled to
#: [0, 1] and centred at the midpoint): ``C = CLIP_FRACTION · ½√d``. A constant of the method, not a statistic.
CLIP_FRACTION = 0.5

#: The chapter's datasets, by the name :func:`load_dataset` takes.
DATASETS = ("digits", "breast_cancer", "wine", "adult", "synthetic")
ADULT_NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
ADULT_CATEGORICAL = [
    "workclass", "education", "marital-status", "occupation", "relationship", "race", "sex", "native-country",
]  # fmt: skip


def _upper(v: list[float]) -> tuple[float, ...]:
    return tuple(float(x) for x in v)


#: Declared domains (lo, hi) per feature, each with its source in :data:`BOUNDS_SOURCES`. digits: pixel intensities
#: 0..16 (documented); Adult: the six numeric columns (see :data:`BOUNDS_SOURCES`), one-hot columns in [0, 1];
#: breast cancer and wine: [0, the maximum that scikit-learn's dataset description lists, rounded up to two
#: significant digits] — that maximum is the observed maximum *of the same rows* (observed/bound 0.95–1.0), so these
#: bounds are taken from the data; synthetic: [-10, 10] (clipped).
PUBLIC_BOUNDS: dict[str, tuple] = {
    "digits": (0.0, 16.0),
    "breast_cancer": (
        0.0,
        _upper(
            [
                29,
                40,
                190,
                2600,
                0.17,
                0.35,
                0.43,
                0.21,
                0.31,
                0.098,
                2.9,
                4.9,
                22,
                550,
                0.032,
                0.14,
                0.4,
                0.053,
                0.079,
                0.03,
                37,
                50,
                260,
                4300,
                0.23,
                1.1,
                1.3,
                0.3,
                0.67,
                0.21,
            ]
        ),
    ),
    "wine": (0.0, _upper([15, 5.8, 3.3, 30, 170, 3.9, 5.1, 0.66, 3.6, 13, 1.8, 4.0, 1700])),
    "adult": (
        (0.0, 0.0, 1.0, 0.0, 0.0, 0.0),
        (100.0, 1.5e6, 16.0, 1e5, 5000.0, 100.0),
    ),  # numeric; one-hot [0, 1]
    "synthetic": (-10.0, 10.0),
}


#: Where each dataset's declared bounds come from: ``(kind, source)`` with kind ``"documented"`` (a range a user
#: takes from the data's documentation or domain knowledge, before seeing the rows), ``"by construction"`` (the
#: generator's own clip), ``"from the data"`` (no documented range exists; the bound is the data's own maximum
#: rounded up, and a guarantee that uses it holds only on condition that it is treated as public) or ``"partly from
#: the data"`` (some columns documented, the others from the data).
BOUNDS_SOURCES: dict[str, tuple[str, str]] = {
    "digits": (
        "documented",
        "pixel intensities 0..16: the UCI optdigits documentation (each 4x4 block counts on-pixels, 0..16)",
    ),
    "breast_cancer": (
        "from the data",
        "the per-feature maxima of scikit-learn's description of WDBC, computed from the same 569 rows, rounded up "
        "to two significant digits (the UCI documentation states no ranges)",
    ),
    "wine": (
        "from the data",
        "the per-feature maxima of scikit-learn's description of the wine data, computed from the same 178 rows, "
        "rounded up to two significant digits (the UCI documentation states no ranges)",
    ),
    "adult": (
        "partly from the data",
        "age 0..100 and hours-per-week 0..100 (domain knowledge: human ages, hours in a week's work), education-num "
        "1..16 (the 16 education levels of the UCI adult.names), capital-gain 0..1e5 (the census top-code 99999); "
        "fnlwgt 0..1.5e6 and capital-loss 0..5000 have no documented range: rounded up from the data's maxima "
        "(1484705, 4356); one-hot columns 0..1",
    ),
    "synthetic": ("by construction", "the generator's rows are clipped to [-10, 10]"),
}


def bounds_condition(name: str) -> str:
    """The condition a claim on dataset ``name`` rests on: its bounds are public, with their source
    (:data:`BOUNDS_SOURCES`); for bounds taken from the data, what treating them as public means."""
    if name not in BOUNDS_SOURCES:
        raise ValueError(f"name must be one of {DATASETS}, got {name!r}")
    kind, source = BOUNDS_SOURCES[name]
    if "from the data" in kind:
        return (
            f"the feature bounds of {name} are treated as public, but they are {kind} ({source}): the guarantee "
            "holds only conditional on treating them as public; a bound taken from the data discloses that "
            "feature's maximum (to two significant digits) without noise"
        )
    return f"the feature bounds of {name} are public ({kind}: {source})"


@dataclass(frozen=True)
class Dataset:
    """Prepared rows ``x`` (n × d, ``‖x‖₂ ≤ 1``, centred before scaling) and class labels ``y``."""

    name: str
    x: np.ndarray
    y: np.ndarray

    @property
    def n(self) -> int:
        return int(self.x.shape[0])

    @property
    def d(self) -> int:
        return int(self.x.shape[1])


def prepare(
    x: np.ndarray,
    bounds: tuple | None = None,
    *,
    preprocessing: str = "as-written",
    centre: np.ndarray | float | None = None,
    clip_norm: float | None = None,
) -> np.ndarray:
    """Rows in the unit ball, by one of two paths (module docstring).

    ``"public"``: ``clip_rows((clip(x, lo, hi) − lo)/(hi − lo) − c, C)`` with declared ``bounds = (lo, hi)``
    (scalars or per-feature), ``c`` the declared ``centre`` in data units (default: the midpoint), mapped to
    ``[0, 1]``, and the public clipping norm ``C = clip_norm`` (default ``CLIP_FRACTION · ½√d``); a per-row map. ``"as-written"``: range-scale each feature by the data's own range (constant features
    dropped), centre with the data's exact mean, scale rows to unit norm (not private).
    """
    x = check_array(x, "x", ndim=2)
    if preprocessing == "as-written":
        span = x.max(axis=0) - x.min(axis=0)
        x = x[:, span > 0] / span[span > 0]
        return normalize_rows(x - x.mean(axis=0))
    if preprocessing != "public":
        raise ValueError(f"preprocessing must be 'public' or 'as-written', got {preprocessing!r}")
    if bounds is None:
        raise ValueError("bounds must be declared (lo, hi) for preprocessing='public', got None")
    lo = np.broadcast_to(np.asarray(bounds[0], dtype=float), x.shape[1:])
    hi = np.broadcast_to(np.asarray(bounds[1], dtype=float), x.shape[1:])
    if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and np.all(hi > lo)):
        raise ValueError(f"bounds must be finite with hi > lo per feature, got {bounds!r}")
    c = 0.5 if centre is None else (np.asarray(centre, dtype=float) - lo) / (hi - lo)
    cn = CLIP_FRACTION * 0.5 * np.sqrt(x.shape[1]) if clip_norm is None else clip_norm
    return clip_rows((np.clip(x, lo, hi) - lo) / (hi - lo) - c, cn)


def preprocessing_sensitivity(
    x: np.ndarray, x2: np.ndarray, bounds: tuple | None = None, *, preprocessing: str = "as-written"
) -> float:
    """Measured ``‖A(D′) − A(D)‖`` (upper triangle with diagonal, the norm the noise is calibrated to) of
    ``A = XᵀX/n`` after :func:`prepare`, for raw datasets ``x`` and ``x2`` (each normalised by its own n)."""
    a = prepare(x, bounds, preprocessing=preprocessing)
    b = prepare(x2, bounds, preprocessing=preprocessing)
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"x and x2 must keep the same features, got {a.shape[1]} and {b.shape[1]}")
    diff = np.triu(b.T @ b / b.shape[0] - a.T @ a / a.shape[0])
    return float(np.linalg.norm(diff))


def make_low_rank(
    n: int, d: int, rank: int, rng: np.random.Generator, *, noise: float = 0.3
) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic low-rank rows ``Z Wᵀ + noise·G``: ``Z`` (n × rank) with decreasing scales ``rank, rank−1, …, 1``,
    ``W`` a random orthonormal d × rank basis, ``G`` iid standard normal; label = sign of the first latent factor."""
    n, d = check_int(n, "n", minimum=2), check_int(d, "d", minimum=2)
    rank = check_int(rank, "rank", minimum=1, maximum=d)
    rng = check_rng(rng)
    w, _ = np.linalg.qr(rng.standard_normal((d, rank)))
    z = rng.standard_normal((n, rank)) * np.arange(rank, 0, -1)
    x = z @ w.T + noise * rng.standard_normal((n, d))
    return x, (z[:, 0] > 0).astype(np.int64)


def load_dataset(
    name: str, rng: np.random.Generator | None = None, *, preprocessing: str = "public"
) -> Dataset:
    """One of :data:`DATASETS`, prepared by :func:`prepare` (``"public"``: with :data:`PUBLIC_BOUNDS`; Adult's one-hot
    columns in [0, 1]). ``rng`` is needed (only) for ``"synthetic"`` (n=5000, d=50, rank 5).

    ``adult``: the six numeric columns plus one-hot encodings of the eight categorical ones (missing values as their
    own category) from :func:`dpcompendium.core.data.load_adult`; label ``income == ">50K"``.
    """
    if name == "digits":
        x, y = skdatasets.load_digits(return_X_y=True)
    elif name == "breast_cancer":
        x, y = skdatasets.load_breast_cancer(return_X_y=True)
    elif name == "wine":
        x, y = skdatasets.load_wine(return_X_y=True)
    elif name == "adult":
        df = load_adult()
        onehot = pd.get_dummies(df[ADULT_CATEGORICAL], dummy_na=True, dtype=float)
        x = np.hstack([df[ADULT_NUMERIC].to_numpy(dtype=float), onehot.to_numpy()])
        y = (df["income"].str.strip() == ">50K").to_numpy(dtype=np.int64)
    elif name == "synthetic":
        if rng is None:
            raise ValueError(
                "rng must be a numpy.random.Generator for dataset 'synthetic', got None"
            )
        x, y = make_low_rank(5000, 50, 5, rng)
    else:
        raise ValueError(f"name must be one of {DATASETS}, got {name!r}")
    x = np.asarray(x, dtype=float)
    bounds = PUBLIC_BOUNDS[name]
    if name == "adult":
        extra = x.shape[1] - len(ADULT_NUMERIC)
        bounds = (
            np.concatenate([bounds[0], np.zeros(extra)]),
            np.concatenate([bounds[1], np.ones(extra)]),
        )
    return Dataset(name, prepare(x, bounds, preprocessing=preprocessing), np.asarray(y))


def split_sites(
    n: int, s: int, rng: np.random.Generator, *, sizes: str = "equal", min_size: int = 2
) -> np.ndarray:
    """A random horizontal split of ``n`` rows over ``s`` sites: a site label per row.

    ``sizes="equal"``: sizes differ by at most one; ``"unequal"``: ``min_size`` rows each plus a multinomial share of
    the rest with Dirichlet(1, …, 1) proportions.
    """
    n, s = check_int(n, "n", minimum=1), check_int(s, "s", minimum=1)
    min_size = check_int(min_size, "min_size", minimum=1)
    rng = check_rng(rng)
    if n < s * min_size:
        raise ValueError(f"n must be >= s * min_size = {s * min_size}, got {n}")
    if sizes == "equal":
        counts = np.full(s, n // s) + (np.arange(s) < n % s)
    elif sizes == "unequal":
        counts = min_size + rng.multinomial(n - s * min_size, rng.dirichlet(np.ones(s)))
    else:
        raise ValueError(f"sizes must be 'equal' or 'unequal', got {sizes!r}")
    labels = np.repeat(np.arange(s), counts)
    return labels[rng.permutation(n)]


def audit_rows() -> tuple[np.ndarray, np.ndarray]:
    """The raw neighbouring pair (replace-one, n = 1002, d = 3) of :mod:`dpcompendium.chapters.federated_pca.audits`."""
    d = np.vstack([np.tile([0.5, 1.0, 0.5], (1000, 1)), np.zeros((1, 3)), np.ones((1, 3))])
    d2 = d.copy()
    d2[0] = [1.0, 0.5, 0.5]
    return d, d2
