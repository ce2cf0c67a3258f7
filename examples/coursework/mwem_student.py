"""MWEM as a student would hand it in, for ``dpcompendium check mwem`` (1-D, range-query workload).

The documented signature (see :mod:`dpcompendium.book.check.mwem`)::

    mwem(histogram, workload, epsilon, rounds, rng) -> synthetic histogram

``histogram``: float array of counts, shape (K,); ``workload``: int array of shape (m, 2), row j = the inclusive bin
range [lo_j, hi_j] of range query j (it counts histogram[lo_j : hi_j + 1]); ``epsilon``: total budget; ``rounds``:
T; ``rng``: a numpy Generator. Returns the synthetic histogram, shape (K,). The optional measurement step

    <function>_measure(histogram, query, epsilon, rounds, rng, size=None) -> noisy answer(s) of query = (lo, hi)

is audited by the check at its per-round budget ε/(2T).

- ``mwem`` — the book's coursework variant (:func:`dpcompendium.chapters.mwem.mwem`, ``variant="coursework"``);
- ``mwem_paper`` — MWEM as the paper gives it, in plain numpy: selection ∝ exp(ε/(2T) · score / 2), Laplace
  scale 2T/ε, 20 multiplicative-weights passes over the measurements so far, the average of the iterates as output
  (``mwem_paper_measure`` exposes its measurement step);
- ``mwem_unscaled_scores`` — BROKEN: the exponential mechanism uses exp(score) — the scores are not scaled by
  ε/(2T)/(2Δ) — so the selection spends 2 per round whatever ε (2T in all), and picks the worst query greedily;
- ``mwem_wrong_noise`` — BROKEN: Laplace scale ε/(2T) instead of 2T/ε (the fraction inverted), so the
  measurements are almost noiseless; ``mwem_wrong_noise_measure`` exposes the step and the audit flags it.

The two broken versions share one plain-numpy implementation of the coursework algorithm (``_coursework``): scores
divided by 100 000, re-drawing until an unmeasured query comes out, 20 multiplicative-weights passes over the
measurements in insertion order, last iterate.
"""

import numpy as np

from dpcompendium.chapters.mwem import RangeQueries
from dpcompendium.chapters.mwem import mwem as book_mwem


def mwem(histogram, workload, epsilon, rounds, rng):
    """The book's coursework variant of MWEM, called through the documented signature."""
    queries = RangeQueries.from_ranges(np.shape(histogram), np.asarray(workload))
    return book_mwem(histogram, queries, epsilon, rounds, variant="coursework", rng=rng).synthetic[
        0
    ]


def mwem_measure(histogram, query, epsilon, rounds, rng, size=None):
    """The measurement step: q(B) + Lap(2T/ε) (ε/(2T)-DP for a count of sensitivity 1)."""
    lo, hi = int(query[0]), int(query[1])
    return np.sum(histogram[lo : hi + 1]) + rng.laplace(0.0, 2.0 * rounds / epsilon, size=size)


def _answers(x, lo, hi):
    c = np.concatenate([[0.0], np.cumsum(x)])
    return c[hi + 1] - c[lo]


def _coursework(
    histogram, workload, epsilon, rounds, rng, *, score_scale, noise_scale, passes=20, paper=False
):
    """The coursework algorithm (``paper=False``: re-draw until an unmeasured query, last iterate) or the paper's
    (``paper=True``: any query may be selected again, the average of the iterates)."""
    h = np.asarray(histogram, dtype=float)
    w = np.asarray(workload, dtype=np.int64)
    lo, hi = w[:, 0], w[:, 1]
    n, size, m = h.sum(), h.size, len(w)
    true = _answers(h, lo, hi)
    synth = np.full(size, n / size)
    cells = np.arange(size)
    measured = np.zeros(m, dtype=bool)
    masks, values = [], []
    eps_round = epsilon / (2.0 * rounds)
    total = np.zeros(size)
    for _ in range(rounds):
        scores = np.abs(_answers(synth, lo, hi) - true)
        logits = scores * eps_round / (2.0 * score_scale)
        if not paper:
            logits[measured] = -np.inf  # re-draw until an unmeasured query comes out
        p = np.exp(logits - logits.max())
        q = rng.choice(m, p=p / p.sum())
        measured[q] = True
        masks.append((cells >= lo[q]) & (cells <= hi[q]))
        values.append(true[q] + rng.laplace(0.0, noise_scale))
        for _ in range(passes):
            for mask, value in zip(masks, values, strict=True):
                synth = synth * np.exp(mask * (value - synth[mask].sum()) / (2.0 * n))
                synth *= n / synth.sum()
        total += synth
    return total / rounds if paper else synth


def mwem_unscaled_scores(histogram, workload, epsilon, rounds, rng):
    """BROKEN: selection ∝ exp(score) — the score is not multiplied by ε/(2T)/(2Δ)."""
    eps_round = epsilon / (2.0 * rounds)
    return _coursework(histogram, workload, epsilon, rounds, rng, score_scale=eps_round / 2.0,
                       noise_scale=2.0 * rounds / epsilon)  # fmt: skip


def mwem_wrong_noise(histogram, workload, epsilon, rounds, rng):
    """BROKEN: Laplace scale ε/(2T) instead of 2T/ε."""
    return _coursework(histogram, workload, epsilon, rounds, rng, score_scale=1e5,
                       noise_scale=epsilon / (2.0 * rounds))  # fmt: skip


def mwem_wrong_noise_measure(histogram, query, epsilon, rounds, rng, size=None):
    """BROKEN measurement step: q(B) + Lap(ε/(2T))."""
    lo, hi = int(query[0]), int(query[1])
    return np.sum(histogram[lo : hi + 1]) + rng.laplace(0.0, epsilon / (2.0 * rounds), size=size)


def mwem_paper(histogram, workload, epsilon, rounds, rng):
    """MWEM as the paper gives it: selection ∝ exp(ε/(2T) · score / 2) (score sensitivity 1), Laplace scale 2T/ε,
    20 MW passes, the average of the iterates."""
    return _coursework(histogram, workload, epsilon, rounds, rng, score_scale=1.0,
                       noise_scale=2.0 * rounds / epsilon, paper=True)  # fmt: skip


def mwem_paper_measure(histogram, query, epsilon, rounds, rng, size=None):
    """The paper's measurement step: q(B) + Lap(2T/ε)."""
    return mwem_measure(histogram, query, epsilon, rounds, rng, size=size)
