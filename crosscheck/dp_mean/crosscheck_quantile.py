"""Cross-check (optional, not needed by the book): the DP quantile of the dp-mean chapter against diffprivlib.

``dpcompendium.chapters.dp_mean.dp_quantile`` is Smith's exponential-mechanism quantile: the gap i between sorted
records (padded with the public domain's ends) is chosen with probability ∝ width·exp(−ε|i − qn|/2), then a point
uniformly in it. diffprivlib's ``tools.quantile`` implements the same mechanism. For a few (n, q, ε) we draw many
releases from both and check

1. both samples against the exact law (``quantile_interval_probabilities``): the probability that the release lies
   within the central gaps (|z| <= 5);
2. a two-sample Kolmogorov–Smirnov test between the two samples (p-value > 1e-4).

Run it in the environment of ``crosscheck_diffprivlib.py`` (see README.md). Exit status 1 if any check fails.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
from diffprivlib.accountant import BudgetAccountant
from diffprivlib.tools import quantile as dpl_quantile
from scipy import stats

from dpcompendium.chapters import dp_mean as M

SEED = 20230207
DRAWS = 20_000
CASES = [(20, 0.5, 0.5), (100, 0.1, 1.0), (100, 0.9, 0.2), (1000, 0.5, 0.1)]


def main() -> int:
    domain = M.WIDE_BOUNDS["heights"]
    rows, ok = [], True
    accountant = BudgetAccountant()  # unlimited budget: we draw many releases on purpose
    for i, (n, q, eps) in enumerate(CASES):
        ss = np.random.SeedSequence([SEED, i])
        data_rng, ours_rng, dpl_seed = (np.random.default_rng(s) for s in ss.spawn(3))
        x = M.heights(n, data_rng)
        ours = np.asarray(M.dp_quantile(x, q, eps, domain, ours_rng, size=DRAWS))
        rs = np.random.RandomState(int(dpl_seed.integers(2**31)))
        theirs = np.array(
            [
                dpl_quantile(
                    x, q, epsilon=eps, bounds=domain, random_state=rs, accountant=accountant
                )
                for _ in range(DRAWS)
            ]
        )
        edges, p = M.quantile_interval_probabilities(x, q, eps, domain)
        k = int(np.argmax(p))
        lo, hi = edges[max(k - 2, 0)], edges[min(k + 3, edges.size - 1)]
        exact = float(p[max(k - 2, 0) : min(k + 3, p.size)].sum())
        for name, y in (("dpcompendium", ours), ("diffprivlib", theirs)):
            freq = float(np.mean((y >= lo) & (y <= hi)))
            z = (freq - exact) / math.sqrt(max(exact * (1 - exact), 1e-12) / DRAWS)
            rows.append({"n": n, "q": q, "epsilon": eps, "library": name, "P(central gaps)": freq,
                         "exact": exact, "z": z})  # fmt: skip
            ok &= abs(z) <= 5
        ks = stats.ks_2samp(ours, theirs)
        rows[-1]["ks_pvalue"] = rows[-2]["ks_pvalue"] = ks.pvalue
        ok &= ks.pvalue > 1e-4
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 160, "display.float_format", "{:.4g}".format):
        print(table.to_string(index=False))
    print("cross-check:", "PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
