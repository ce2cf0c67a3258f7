"""Referee 20's findings on the hiera chapter's experiment 3 (MJ-1): HierA's arm there is labelled by the budgets it
runs — the text's in the corrected variant, the code's in the code's variants — in the figures and the privacy
table too, not by experiment 2's "HierA (source's budgets)"."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from dpcompendium.chapters.hiera import plots
from dpcompendium.chapters.hiera.methods_registry import SGD_CODE_LABEL, SGD_TEXT_LABEL


def _sgd() -> pd.DataFrame:
    rows = []
    for variant in ("corrected", "faithful"):
        for m in ("hiera", "harmony", "none", "least-squares"):
            for e in (0.25, 1.0):
                rows.append(
                    {
                        "dataset": "adult",
                        "variant": variant,
                        "method": m,
                        "epsilon": e,
                        "mse": 1.0 + e,
                    }
                )
    return pd.DataFrame(rows)


def _legend_texts(fig) -> list[str]:
    return [t.get_text() for lg in fig.legends for t in lg.get_texts()]


def test_the_sgd_figure_labels_hieras_arm_by_its_budgets_per_variant():
    sgd = _sgd()
    plain = _legend_texts(plots.plot_sgd(sgd, {}))
    assert (
        SGD_TEXT_LABEL not in plain and SGD_CODE_LABEL not in plain
    )  # the registered name without labels
    labels = {"corrected": {"hiera": SGD_TEXT_LABEL}, "faithful": {"hiera": SGD_CODE_LABEL}}
    texts = _legend_texts(plots.plot_sgd(sgd, labels))
    # both arms in the one legend, each once, and the registered (experiment 2) name not at all
    assert texts.count(SGD_TEXT_LABEL) == 1 and texts.count(SGD_CODE_LABEL) == 1
    assert plots.style("hiera")["label"] not in texts
    plt.close("all")


def test_the_privacy_figure_titles_hieras_panel_with_the_text_budgets():
    acc = pd.DataFrame(
        {
            "method": ["harmony", "hiera"],
            "epsilon": [1.0, 1.0],
            "report_epsilon": [1.0, 3.845],
            "epochs": [1, 1],
            "basic": [1.0, 3.845],
            "zcdp": [1.0, 3.845],
            "optimal": [1.0, 3.845],
            "shuffle_total": [float("nan")] * 2,
        }
    )
    fig = plots.plot_accounting(acc, 1.0, {"hiera": SGD_TEXT_LABEL})
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert any(t.startswith(SGD_TEXT_LABEL) for t in titles), titles
    assert not any(t.startswith(plots.style("hiera")["label"]) for t in titles), titles
    plt.close("all")
