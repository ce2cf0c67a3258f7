"""Figures of the DP-average chapter (matplotlib; each function returns the Figure)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd

from ...core.plotting import OKABE_ITO, PAGE_WIDTH_IN, method_color, panels
from .analysis import resampling_pair_loss
from .experiments import COMPARISONS
from .modern import minimax_lower_bound

__all__ = [
    "ERROR_PANELS",
    "plot_clipping_tradeoff",
    "plot_closed_form",
    "plot_conclusion",
    "plot_errors",
    "plot_resampling_loss",
]


#: the series of each relation's panel in :func:`plot_errors`: (method, variant) → (label, colour, line style);
#: both sides of a panel are private under that relation at the same ε
ERROR_PANELS: dict[str, dict[tuple[str, str], tuple[str, str, str]]] = {
    "replace-one": {
        ("clamped", "as-written"): ("method 3: clamped Laplace", OKABE_ITO["blue"], "-"),
        ("laplace-public-n", "as-written"): ("Laplace, unclamped", OKABE_ITO["sky"], ":"),
        ("gaussian", "analytic"): ("Gaussian (analytic), δ > 0", OKABE_ITO["green"], "--"),
        ("private-bounds", "quantiles"): ("private bounds", OKABE_ITO["vermillion"], "-."),
        ("coinpress", "zcdp"): ("CoinPress (private range), δ > 0", OKABE_ITO["purple"], "--"),
    },
    "add-remove": {
        ("normalized", "as-written"): ("method 4 as written", OKABE_ITO["vermillion"], "-"),
        ("normalized", "corrected"): ("method 4, Δ/2, even split", OKABE_ITO["orange"], "--"),
        ("centred-clamped", "split-opt"): (
            "method 4, Δ/2, opt. split, clamped",
            OKABE_ITO["blue"],
            "-",
        ),
        ("composition", "corrected"): ("method 1 corrected", OKABE_ITO["purple"], ":"),
    },
}


def plot_errors(errors: pd.DataFrame, n: int, bounds: dict, metric: str = "rmse"):
    """``metric`` vs ε at dataset size ``n``: a row per dataset, a panel per neighbour relation
    (:data:`ERROR_PANELS`: the methods private under that relation), with the minimax lower bound
    (:func:`~dpcompendium.chapters.dp_mean.modern.minimax_lower_bound`) of the relation in black.
    ``bounds``: dataset → declared bounds."""
    datasets = list(dict.fromkeys(errors["dataset"]))
    fig, axes = plt.subplots(
        len(datasets), 2, figsize=(PAGE_WIDTH_IN, 2.5 * len(datasets) + 1.0), squeeze=False
    )
    eps_grid = np.geomspace(errors["epsilon"].min(), errors["epsilon"].max(), 60)
    for i, ds in enumerate(datasets):
        for j, (relation, series) in enumerate(ERROR_PANELS.items()):
            ax = axes[i, j]
            cell = errors[(errors["dataset"] == ds) & (errors["n"] == n)]
            for (method, variant), (label, color, ls) in series.items():
                g = cell[(cell["method"] == method) & (cell["variant"] == variant)]
                if len(g):
                    ax.plot(g["epsilon"], g[metric], color=color, ls=ls, marker=".", label=label)
            lb = [minimax_lower_bound(n, float(e), bounds[ds], relation) for e in eps_grid]
            ax.plot(eps_grid, lb, color="black", lw=1.0, label="minimax lower bound")
            ax.set_ylim(bottom=max(min(lb), cell[metric].min() / 30))
            ax.set(xscale="log", yscale="log", xlabel="ε")
            ax.set_title(f"{ds}, n = {n}: {relation}", fontsize=9)
            if j == 0:
                ax.set_ylabel(metric.upper())
    for j in range(2):
        axes[-1, j].legend(
            loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False, fontsize=9
        )
    fig.tight_layout()
    return fig


def plot_clipping_tradeoff(tradeoffs: pd.DataFrame):
    """RMSE, |bias| and noise sd of the clipped Laplace mean against the upper clipping bound, one panel per
    dataset, one colour per n; a vertical line at the declared upper bound."""
    datasets = list(dict.fromkeys(tradeoffs["dataset"]))
    ns = sorted(set(tradeoffs["n"]))
    colors = dict(
        zip(ns, (OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["green"]), strict=False)
    )
    fig, axes = plt.subplots(1, len(datasets), figsize=(PAGE_WIDTH_IN, 3.4), squeeze=False)
    for ax, ds in zip(axes[0], datasets, strict=True):
        sub = tradeoffs[tradeoffs["dataset"] == ds]
        for n, g in sub.groupby("n"):
            c = colors.get(n, "grey")
            ax.plot(g["upper"], g["rmse"], color=c, label=f"RMSE, n = {n}")
            ax.plot(g["upper"], g["bias"].abs(), color=c, ls=":", lw=1.0)
            ax.plot(g["upper"], g["sd"], color=c, ls="--", lw=1.0)
        ax.axvline(sub["declared_upper"].iloc[0], color="black", lw=0.8)
        ax.set(
            yscale="log",
            xlabel="upper clipping bound u",
            title=f"{ds}: range [{sub['lower'].iloc[0]:g}, u]",
        )
        ax.set_ylim(bottom=max(sub["rmse"].min() / 5, 1e-4))
    axes[0, 0].set_ylabel("error (solid RMSE, dotted |bias|, dashed sd)")
    axes[0, 0].legend(fontsize=9)
    fig.tight_layout()
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
    """RMSE ratio vs ε for every comparison of :data:`COMPARISONS` (one relation each); colour: n, line style:
    dataset."""
    names = list(COMPARISONS)
    ns = sorted(set(conclusion["n"]))
    styles = dict(zip(dict.fromkeys(conclusion["dataset"]), ("-", "--", ":", "-."), strict=False))
    colors = dict(zip(ns, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    fig, axes = panels(len(names), ncols=3, panel_height=2.6, sharey=True, spare=True)
    spare = axes[len(names)] if len(axes) > len(names) else None
    axes = axes[: len(names)]
    for ax, name in zip(axes, names, strict=True):
        sub = conclusion[conclusion["comparison"] == name]
        for (ds, n), g in sub.groupby(["dataset", "n"], sort=False):
            ax.errorbar(g["epsilon"], g["rmse_ratio"], yerr=2 * g["rmse_ratio_se"], ls=styles[ds],
                        color=colors[n], marker=".", capsize=2, label=f"{ds}, n = {n}")  # fmt: skip
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set(xscale="log", yscale="log", xlabel="ε")
        relation, title = name.split(": ", 1)
        ax.set_title(f"{relation}:\n{title}", fontsize=9)
        ax.yaxis.set_major_formatter(mticker.ScalarFormatter())
        ax.yaxis.set_minor_formatter(mticker.NullFormatter())
        ax.set_yticks([0.25, 0.5, 1, 2, 4, 8, 16])
    axes[0].set_ylabel("RMSE ratio (> 1: 2nd better)")
    if len(axes) > 3:
        axes[3].set_ylabel("RMSE ratio (> 1: 2nd better)")
    handles, labels = axes[0].get_legend_handles_labels()
    if spare is not None:
        spare.legend(handles, labels, loc="center", frameon=False, fontsize=9)
    else:
        fig.legend(handles, labels, loc="outside lower center", ncol=3, frameon=False, fontsize=9)
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
