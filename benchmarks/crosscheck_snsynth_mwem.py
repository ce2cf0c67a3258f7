"""Optional independent check of the mwem chapter: smartnoise-synth's MWEM on the report's 1-D data.

smartnoise-synth pins older pandas/OpenDP, so it runs in its own environment, never in the book's:

    python3.11 -m venv /tmp/snsynth-venv && /tmp/snsynth-venv/bin/pip install smartnoise-synth==1.0.8
    /tmp/snsynth-venv/bin/python benchmarks/crosscheck_snsynth_mwem.py 5

It fits ``snsynth.mwem.MWEMSynthesizer`` (T = 30 iterations, 20 multiplicative-weights passes, range queries) on the
1,013,184 records behind the report's 14-bin histogram, samples as many synthetic records, and scores the sample on the
report's 60 range queries with the chapter's four error summaries; it prints the averages per ε and the wall time of
one fit + sample. smartnoise's own random workload and its sampling step differ from ``dpcompendium.chapters.mwem`` (which
releases the synthetic histogram itself), so only the orders of magnitude are comparable. Not collected by pytest.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from snsynth.mwem import MWEMSynthesizer

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "shipped" / "mwem"


def _prefix(h: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(h)])


def main(reps: int) -> pd.DataFrame:
    hist = pd.read_csv(SHIPPED / "histogram_1d.csv")["count"].to_numpy()
    queries = pd.read_csv(SHIPPED / "queries_1d.csv")
    lo, hi = queries["lo"].to_numpy(), queries["hi"].to_numpy()
    true = _prefix(hist)[hi + 1] - _prefix(hist)[lo]
    data = pd.DataFrame({"age": np.repeat(np.arange(hist.size), hist)})
    rows = []
    for eps in (0.1, 1.0, 5.0, 10.0):
        for rep in range(reps):
            t0 = time.perf_counter()
            synth = MWEMSynthesizer(
                epsilon=eps, iterations=30, mult_weights_iterations=20, add_ranges=True
            )
            synth.fit(data, ordinal_columns=["age"], preprocessor_eps=0.0)
            sample = synth.sample(len(data))
            seconds = time.perf_counter() - t0
            h = np.bincount(np.asarray(sample["age"], dtype=int), minlength=hist.size)[
                : hist.size
            ].astype(float)
            err = np.abs(_prefix(h)[hi + 1] - _prefix(h)[lo] - true)
            rows.append(
                {
                    "epsilon": eps,
                    "rep": rep,
                    "seconds": seconds,
                    "max_error": err.max(),
                    "min_error": err.min(),
                    "mse": float(np.mean(err**2)),
                    "mean_error": err.mean(),
                }
            )
    return pd.DataFrame(rows)


if __name__ == "__main__":
    runs = main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
    print(
        runs.groupby("epsilon")[["seconds", "max_error", "min_error", "mse", "mean_error"]]
        .mean()
        .to_string()
    )
