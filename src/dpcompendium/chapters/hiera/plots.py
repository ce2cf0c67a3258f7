"""Figures of the hiera chapter (matplotlib; each returns the Figure)."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...core.plotting import PAGE_WIDTH_IN, method_style, panels
from .methods_registry import sgd_labels

__all__ = [
    "DATASET_TITLES",
    "plot_accounting",
    "plot_methods",
    "plot_mu",
    "plot_privacy",
    "plot_sgd",
    "style",
]

#: panel titles of the synthetic datasets: the distributions, which must not be read (or translated) as the method
#: "uniform" of the method-name catalogue (issue 48); their Chinese is in
#: :data:`dpcompendium.core.figure_messages.FIGURE_MESSAGES`
DATASET_TITLES = {
    "uniform": "uniform distribution",
    "normal": "normal distribution",
    "exponential": "exponential distribution",
}

#: the line styles of the chapter's methods that the book-wide style does not set (their colours, markers and
#: legend labels are in their registrations, ``methods_registry.py``)
_EXTRA = {
    "hiera-graded": {"ls": "--"},
    "idldp": {"ls": "-."},
}


def style(method: str) -> dict:
    """The plot style of ``method``: the book's (:func:`~dpcompendium.core.plotting.method_style`), completed for the
    chapter's methods it does not list. Its legend label is the method's name, as the tables' rows have it (matplotlib
    draws its maths; the Chinese figure translates it as the name; referee 20, L-3)."""
    return {**method_style(method), **_EXTRA.get(method, {})}


def _eps_axis(ax, eps) -> None:
    """Log-scaled ε axis labelled at the grid's values only."""
    ax.set_xscale("log")
    ticks = sorted(set(float(e) for e in eps if np.isfinite(e)))
    ax.set_xticks(ticks, [f"{e:g}" for e in ticks])
    ax.xaxis.set_minor_formatter(plt.NullFormatter())


def _label_rows(fig: plt.Figure, axes, ylabel: str) -> plt.Figure:
    """``ylabel`` on the first panel of each row, and the first panel's legend once, under the panels."""
    for ax in axes:
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel(ylabel)
    # every panel's entries, once each in the order met: an arm labelled apart in some panels (HierA's budgets in
    # the SGD's variants) is in the legend too (referee 20, MJ-1)
    seen: dict[str, object] = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            seen.setdefault(lab, h)
    labels = list(seen)
    ncol = min(len(labels), 3)
    while True:
        legend = fig.legend(list(seen.values()), labels, loc="outside lower center", ncol=ncol)
        # the names of the rows are longer than the old legend labels: fewer columns where three do not fit
        width = legend.get_window_extent(fig.canvas.get_renderer()).width
        if ncol == 1 or width <= fig.bbox.width:
            return fig
        legend.remove()
        ncol -= 1


def plot_privacy(privacy: pd.DataFrame, pair: np.ndarray, base: float) -> plt.Figure:
    """(a) exact pairwise log-ratio E[t, t'] of LHP at one base ε; (b) exact vs claimed ε against the base ε."""
    fig, (ax1, ax2) = plt.subplots(
        1, 2, figsize=(PAGE_WIDTH_IN, 3.6), constrained_layout=True, width_ratios=(1, 1.1)
    )
    im = ax1.imshow(pair, cmap="viridis")
    k = pair.shape[0]
    for i in range(k):
        for j in range(k):
            ax1.text(j, i, f"{pair[i, j]:.2f}", ha="center", va="center", color="w", fontsize=9)
    ax1.set_xticks(range(k), [str(t + 1) for t in range(k)])
    ax1.set_yticks(range(k), [str(t + 1) for t in range(k)])
    ax1.set_xlabel("level t' of v'")
    ax1.set_ylabel("level t of v")
    ax1.set_title(
        f"(a) $\\sup\\,\\ln P(y\\mid v)/P(y\\mid v')$,\nschedule $\\{{5,4,3,2,1\\}}\\cdot {base:g}$"
    )
    fig.colorbar(im, ax=ax1, shrink=0.8)
    overall = privacy[privacy["level"] == "all"]
    for i, (name, g) in enumerate(overall.groupby("schedule", sort=False)):
        ax2.plot(g["base_epsilon"], g["exact_epsilon"], "-o", color=f"C{i}", label=f"{name}: exact")
        ax2.plot(
            g["base_epsilon"],
            g["claimed_epsilon"],
            "--",
            color=f"C{i}",
            label=f"{name}: largest $\\varepsilon_t$",
        )
    ax2.set_xlabel("base ε")
    ax2.set_ylabel("ε of the whole report")
    ax2.set_title("(b) exact LDP level of LHP\nvs the largest budget")
    ax2.legend(fontsize=9)
    return fig


def plot_mu(mu_table: pd.DataFrame, closed: pd.DataFrame) -> plt.Figure:
    """MAE of HierA against ε for each μ (markers: simulation; lines: √(2/π)·sd of the unclipped estimator)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.6), constrained_layout=True)
    for i, (mu, g) in enumerate(mu_table.groupby("mu", sort=True)):
        ax.errorbar(
            g["epsilon"],
            g["mae"],
            yerr=2 * g["mae_se"],
            fmt="o",
            color=f"C{i}",
            ms=4,
            label=f"μ = {mu}",
        )
        c = closed[closed["mu"] == mu]
        ax.plot(c["epsilon"], c["mae_unclipped"], "-", color=f"C{i}", lw=1)
    _eps_axis(ax, mu_table["epsilon"])
    ax.set_yscale("log")
    ax.set_xlabel(
        "base $\\varepsilon$ (schedule $\\{5\\varepsilon, 4\\varepsilon, 3\\varepsilon, 2\\varepsilon, \\varepsilon\\}$)"
    )
    ax.set_ylabel("MAE of the mean")
    ax.legend()
    return fig


def plot_methods(methods: pd.DataFrame, bound: pd.DataFrame | None = None) -> plt.Figure:
    """MAE against ε per dataset and method (log–log); ``bound`` (columns dataset, epsilon, mae): the minimax lower
    bound, drawn as a grey band's edge (dotted)."""
    names = list(dict.fromkeys(methods["dataset"]))
    fig, axes = panels(len(names), panel_height=2.6)
    for ax, name in zip(axes, names, strict=True):
        d = methods[methods["dataset"] == name]
        for m, g in d.groupby("method", sort=False):
            ax.plot(g["epsilon"], g["mae"], ms=4, **style(m))
        if bound is not None:
            b = bound[bound["dataset"] == name]
            ax.plot(b["epsilon"], b["mae"], ":", color="0.3", lw=1.5, label="minimax lower bound")
        _eps_axis(ax, d["epsilon"])
        ax.set_yscale("log")
        ax.set_title(DATASET_TITLES.get(name, name))
        ax.set_xlabel("base ε")
    return _label_rows(fig, axes, "MAE of the mean")


def plot_accounting(
    acc: pd.DataFrame, epsilon: float, labels: Mapping[str, str] | None = None
) -> plt.Figure:
    """Total ε of one user after E passes of LDP-SGD at base ``epsilon``, per method (panels) and accountant;
    ``labels``: a panel's title for a method whose arm here is not its registered one (default: HierA's budgets in
    the SGD are the text's, ``sgd_labels("corrected")``; referee 20, MJ-1)."""
    labels = sgd_labels("corrected") if labels is None else dict(labels)
    d = acc[acc["epsilon"] == epsilon]
    names = list(dict.fromkeys(d["method"]))
    fig, axes = panels(len(names), panel_height=2.6, sharey=True)
    cols = {
        "basic": ("basic", "-", "o"),
        "zcdp": ("zCDP", "--", "s"),
        "optimal": ("optimal (exact PLD)", ":", "^"),
        "shuffle_total": ("shuffled in each group", "-.", "D"),
    }
    for ax, name in zip(axes, names, strict=True):
        g = d[d["method"] == name]
        for i, (col, (label, ls, mk)) in enumerate(cols.items()):
            y = g[col].to_numpy(dtype=float)
            if np.isfinite(y).any():
                ax.plot(g["epochs"], y, ls=ls, marker=mk, ms=4, color=f"C{i}", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(
            f"{labels.get(name, style(name)['label'])}, "
            f"$\\varepsilon_0 = {g['report_epsilon'].iloc[0]:.3g}$"
        )
        ax.set_xlabel("passes E")
    return _label_rows(fig, axes, "total ε (δ as stated)")


def plot_sgd(
    sgd: pd.DataFrame, labels: Mapping[str, Mapping[str, str]] | None = None
) -> plt.Figure:
    """K-fold MSE against ε (mean over repetitions, bars ±2 standard errors where there are several), one panel per
    (dataset, variant) in rows of at most three; grey lines: least squares and non-private SGD. ``labels``: per
    variant, the legend label of a method whose arm there is not its registered one (HierA: the text's budgets in
    the corrected variant, the code's in the code's variants; referee 20, MJ-1). Default: HierA's and graded
    Laplace's by their budgets, ``methods_registry.sgd_labels`` (L-3)."""
    if labels is None:
        labels = {v: sgd_labels(v) for v in dict.fromkeys(sgd["variant"])}
    labels = {v: dict(m) for v, m in labels.items()}
    names = list(dict.fromkeys(sgd["dataset"]))
    variants = [v for v in dict.fromkeys(sgd["variant"]) if v != "non-private"]
    share = {"sharey": "row"} if len(variants) <= 3 else {}
    fig, flat = panels(
        len(names) * len(variants), ncols=min(3, len(variants)), panel_height=2.4, **share
    )
    for r, name in enumerate(names):
        d = sgd[sgd["dataset"] == name]
        ols = d.loc[d["method"] == "least-squares", "mse"].iloc[0]
        for c, variant in enumerate(variants):
            ax = flat[r * len(variants) + c]
            v = d[d["variant"] == variant]
            for m, g in v[v["method"] != "none"].groupby("method", sort=False):
                agg = g.groupby("epsilon")["mse"].agg(["mean", "std", "count"])
                se = (agg["std"] / np.sqrt(agg["count"])).fillna(0.0)
                st = style(m)
                if m in labels.get(variant, {}):
                    st = {**st, "label": labels[variant][m]}
                ax.errorbar(agg.index, agg["mean"], yerr=2 * se, ms=4, capsize=2, **st)
            ax.axhline(ols, color="k", lw=1, label="least squares")
            sgd0 = v.loc[v["method"] == "none", "mse"]
            if len(sgd0):
                ax.axhline(sgd0.mean(), color="0.5", ls="--", lw=1, label="SGD, no privacy")
            _eps_axis(ax, v["epsilon"])
            ax.set_yscale("log")
            ax.set_title(f"{name}, {variant}")
            ax.set_xlabel("base ε")
    return _label_rows(fig, flat, "K-fold MSE")
