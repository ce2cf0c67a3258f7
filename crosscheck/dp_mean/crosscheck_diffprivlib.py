"""Cross-check (optional, not needed by the book): method 3 of the dp-mean chapter against diffprivlib.

diffprivlib's ``tools.mean`` clips the data to the bounds and releases the mean through ``LaplaceTruncated`` with
sensitivity (upper - lower)/n — the same mechanism as ``dpcompendium.chapters.dp_mean.noisy_average_clamped`` (replace-one,
public n, clamped Laplace). For a few (n, ε) we draw many releases from both, and check

1. both empirical MSEs against the exact clamped-Laplace MSE (z-score of the MSE, |z| <= 5);
2. both atoms P(y = a), P(y = b) against the exact probabilities (|z| <= 5);
3. a two-sample Kolmogorov–Smirnov test between the two samples (p-value > 1e-4).

Run it in its own environment (see README.md). Exit status 1 if any check fails.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import pandas as pd
from diffprivlib.accountant import BudgetAccountant
from diffprivlib.tools import mean as dpl_mean
from scipy import stats

from dpcompendium.chapters import dp_mean as M

SEED = 20230207
DRAWS = 20_000
CASES = [(5, 0.1), (20, 0.5), (100, 0.05), (100, 1.0)]


def main() -> int:
    bounds = M.HEIGHT_BOUNDS
    a, b = bounds
    rows = []
    ok = True
    accountant = BudgetAccountant()  # unlimited budget: we draw many releases on purpose
    for i, (n, eps) in enumerate(CASES):
        ss = np.random.SeedSequence([SEED, i])
        data_rng, ours_rng, dpl_seed = (np.random.default_rng(s) for s in ss.spawn(3))
        x = M.heights(n, data_rng)
        mu = float(x.mean())
        ours = np.asarray(M.noisy_average_clamped(x, eps, bounds, ours_rng, size=DRAWS))
        # diffprivlib takes a legacy RandomState; one seeded stream for all draws
        rs = np.random.RandomState(int(dpl_seed.integers(2**31)))
        theirs = np.array(
            [
                dpl_mean(x, epsilon=eps, bounds=bounds, random_state=rs, accountant=accountant)
                for _ in range(DRAWS)
            ]
        )
        _, mse = M.clamped_laplace_error(mu, (b - a) / (n * eps), bounds)
        p_a = M.event_probability("clamped", x, eps, bounds, (a, a))
        p_b = M.event_probability("clamped", x, eps, bounds, (b, b))
        for name, y in (("dpcompendium", ours), ("diffprivlib", theirs)):
            e2 = (y - mu) ** 2
            z_mse = (e2.mean() - mse) / (e2.std(ddof=1) / math.sqrt(DRAWS))
            z_a = (np.mean(y == a) - p_a) / math.sqrt(max(p_a * (1 - p_a), 1e-12) / DRAWS)
            z_b = (np.mean(y == b) - p_b) / math.sqrt(max(p_b * (1 - p_b), 1e-12) / DRAWS)
            rows.append({"n": n, "epsilon": eps, "library": name, "mse": e2.mean(), "mse_closed": mse,
                         "z_mse": z_mse, "z_atom_a": z_a, "z_atom_b": z_b})  # fmt: skip
            ok &= abs(z_mse) <= 5 and abs(z_a) <= 5 and abs(z_b) <= 5
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
