"""Figures of the DP-average chapter (matplotlib; each function returns the Figure)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd

from ...core.plotting import PAGE_WIDTH_IN, method_color, method_style
from .analysis import resampling_pair_loss
from .experiments import COMPARISONS

__all__ = ["plot_closed_form", "plot_conclusion", "plot_errors", "plot_resampling_loss"]


def plot_errors(errors: pd.DataFrame, metric: str = "rmse"):
    """``metric`` vs ε per method (log-log), one panel per (dataset, n): a row per dataset, at most three sizes in
    a row (more sizes wrap onto further rows)."""
    datasets, ns = list(dict.fromkeys(errors["dataset"])), sorted(set(errors["n"]))
    per_row = min(len(ns), 3)
    rows_per_ds = -(-len(ns) // per_row)
    fig, grid = plt.subplots(
        len(datasets) * rows_per_ds,
        per_row,
        figsize=(PAGE_WIDTH_IN, 2.3 * len(datasets) * rows_per_ds + 0.7),
        squeeze=False,
    )
    axes = np.empty((len(datasets), len(ns)), dtype=object)
    for i in range(len(datasets)):
        for j in range(len(ns)):
            axes[i, j] = grid[i * rows_per_ds + j // per_row, j % per_row]
    used = {id(ax) for ax in axes.ravel()}
    for ax in grid.ravel():
        if id(ax) not in used:
            ax.set_visible(False)
    for i, ds in enumerate(datasets):
        for j, n in enumerate(ns):
            ax = axes[i, j]
            cell = errors[(errors["dataset"] == ds) & (errors["n"] == n)]
            for (method, variant), g in cell.groupby(["method", "variant"], sort=False):
                ax.plot(g["epsilon"], g[metric], **method_style(method, variant))
            ax.set(xscale="log", yscale="log", title=f"{ds}, n = {n}", xlabel="ε")
            if j % per_row == 0:
                ax.set_ylabel(metric.upper())
    handles, labels = axes[0, 0].get_legend_handles_labels()
    ncol = min(len(labels), 3)
    fig.legend(handles, labels, loc="lower center", ncol=ncol, frameon=False)
    fig.tight_layout(rect=(0, 0.01 + 0.035 * -(-len(labels) // ncol), 1, 1))
    return fig


def plot_closed_form(table: pd.DataFrame):
    """Measured RMSE / closed-form RMSE against nε, one marker per method; exact forms filled, first-order open."""
    fig, ax = plt.subplots(figsize=(PAGE_WIDTH_IN, 4.2))
    for (method, variant, kind), g in table.groupby(["method", "variant", "kind"], sort=False):
        color = method_color(method)
        face = color if kind == "exact" else "none"
        marker = "o" if variant == "as-written" else "s"
        ax.scatter(g["n"] * g["epsilon"], g["rmse_ratio"], s=14, marker=marker, edgecolors=color,
                   facecolors=face, label=f"{method} ({variant}), {kind}")  # fmt: skip
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set(xscale="log", yscale="log", xlabel="n·ε", ylabel="measured RMSE / closed-form RMSE")
    ax.yaxis.set_major_formatter(mticker.ScalarFormatter())
    ax.yaxis.set_minor_formatter(mticker.NullFormatter())
    ax.set_yticks([0.8, 1, 1.25, 2, 4, 8])
    ax.legend(ncol=2, loc="upper left", bbox_to_anchor=(0, -0.18))
    fig.tight_layout()
    return fig


def plot_conclusion(conclusion: pd.DataFrame):
    """RMSE ratio vs ε for every comparison (2 × 2 panels); colour: n, line style: dataset."""
    names = list(COMPARISONS)
    ns = sorted(set(conclusion["n"]))
    styles = dict(zip(dict.fromkeys(conclusion["dataset"]), ("-", "--", ":", "-."), strict=False))
    colors = dict(zip(ns, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    fig, axes = plt.subplots(2, 2, figsize=(PAGE_WIDTH_IN, 5.6), sharex=True, sharey=True)
    for ax, name in zip(axes.ravel(), names, strict=True):
        sub = conclusion[conclusion["comparison"] == name]
        for (ds, n), g in sub.groupby(["dataset", "n"], sort=False):
            ax.errorbar(g["epsilon"], g["rmse_ratio"], yerr=2 * g["rmse_ratio_se"], ls=styles[ds],
                        color=colors[n], marker=".", capsize=2, label=f"{ds}, n = {n}")  # fmt: skip
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set(xscale="log", yscale="log")
        ax.set_title(name, fontsize=9)
        ax.yaxis.set_major_formatter(mticker.ScalarFormatter())
        ax.yaxis.set_minor_formatter(mticker.NullFormatter())
        ax.set_yticks([0.5, 1, 2, 4, 8])
    for ax in axes[-1]:
        ax.set_xlabel("ε")
    for ax in axes[:, 0]:
        ax.set_ylabel("RMSE ratio (> 1: 2nd better)")
    axes[0, 0].legend(ncol=2)
    fig.tight_layout()
    return fig


def plot_resampling_loss(bounds, epsilons: Sequence[float], ns: Sequence[int] = (2, 10, 1000)):
    """Privacy loss / ε of method 2 on the pair (a,…,a) vs (a,…,a,b), as written and corrected."""
    eps = np.asarray(epsilons, dtype=float)
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, n in enumerate(ns):
        for variant, ls in (("as-written", "-"), ("corrected", "--")):
            loss = [resampling_pair_loss(int(n), float(e), bounds, variant) / e for e in eps]
            ax.plot(eps, loss, ls=ls, color=colors[k % len(colors)], label=f"n = {n}, {variant}")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set(xscale="log", xlabel="ε", ylabel="privacy loss / ε")
    ax.legend(ncol=2)
    fig.tight_layout()
    return fig
