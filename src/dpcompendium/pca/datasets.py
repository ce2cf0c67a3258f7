"""Datasets and horizontal splits for the federated-PCA chapter.

Preprocessing (:func:`prepare`): each feature is divided by its range (treated as public domain knowledge, as DP-PCA
papers do), the rows are centred with the global mean (the source's masked-mean protocol; the mean itself is not
privatised — the source releases it exactly to site 1) and scaled to unit norm ``x/‖x‖₂`` (the source's step 2), so
every row has ``‖x‖₂ ≤ 1`` as the Gaussian mechanism requires.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn import datasets as skdatasets

from ..data import load_adult
from ..validation import check_array, check_int, check_rng
from .core import normalize_rows

__all__ = ["DATASETS", "Dataset", "load_dataset", "make_low_rank", "prepare", "split_sites"]

#: The chapter's datasets, by the name :func:`load_dataset` takes.
DATASETS = ("digits", "breast_cancer", "wine", "adult", "synthetic")
ADULT_NUMERIC = ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]
ADULT_CATEGORICAL = [
    "workclass", "education", "marital-status", "occupation", "relationship", "race", "sex", "native-country",
]  # fmt: skip


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


def prepare(x: np.ndarray) -> np.ndarray:
    """Range-scale each feature (constant features dropped), centre with the global mean, scale rows to unit norm."""
    x = check_array(x, "x", ndim=2)
    span = x.max(axis=0) - x.min(axis=0)
    x = x[:, span > 0] / span[span > 0]
    return normalize_rows(x - x.mean(axis=0))


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


def load_dataset(name: str, rng: np.random.Generator | None = None) -> Dataset:
    """One of :data:`DATASETS`, prepared. ``rng`` is needed (only) for ``"synthetic"`` (n=5000, d=50, rank 5).

    ``adult``: the six numeric columns plus one-hot encodings of the eight categorical ones (missing values as their
    own category) from :func:`dpcompendium.data.load_adult`; label ``income == ">50K"``.
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
    return Dataset(name, prepare(np.asarray(x, dtype=float)), np.asarray(y))


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
