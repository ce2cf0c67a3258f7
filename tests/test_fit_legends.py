"""A translated figure keeps its English twin's width: ``chapter.fit_legends`` takes columns from its multi-column
legends until it fits (issue 48: the Chinese mwem figures' four-column legends were 20 % wider than the English)."""

from __future__ import annotations

from matplotlib import pyplot as plt

from dpcompendium.book import chapter


def _figure(label_len: int):
    fig, ax = plt.subplots(figsize=(4, 3), layout="constrained")
    for i in range(4):
        ax.plot([0, 1], [i, i + 1], label=f"{i} " + "x" * label_len)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=4)
    return fig


def test_fit_legends_narrows_a_wide_legend_to_the_width():
    short = _figure(5)
    target = chapter.tight_width(short)
    plt.close(short)
    wide = _figure(40)
    assert chapter.tight_width(wide) > target + 0.5
    taken = chapter.fit_legends(wide, target)
    assert taken >= 1
    assert wide.legends[0]._ncols == 4 - taken
    assert chapter.tight_width(wide) <= target + 0.01 or wide.legends[0]._ncols == 1
    plt.close(wide)


def test_fit_legends_leaves_a_figure_that_fits_alone():
    fig = _figure(5)
    assert chapter.fit_legends(fig, chapter.tight_width(fig) + 1.0) == 0
    assert fig.legends[0]._ncols == 4
    plt.close(fig)
