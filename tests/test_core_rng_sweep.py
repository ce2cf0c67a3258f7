"""Random streams and the sweep runner: determinism whatever n_jobs, tidy output."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpcompendium.book.chapter import save_table
from dpcompendium.core.experiments import grid_cells, summarize, sweep
from dpcompendium.core.mechanisms import laplace_mechanism
from dpcompendium.core.rng import child_seeds, generators, make_rng


def _noisy(epsilon, n, rng):
    x = laplace_mechanism(0.0, 1.0 / n, epsilon, rng)
    return {"error": x}


def _noisy_vectorized(epsilon, n, reps, rng):
    x = laplace_mechanism(np.zeros(reps), 1.0 / n, epsilon, rng)
    return [{"rep": r, "error": e} for r, e in enumerate(x)]


def test_make_rng_and_children():
    assert make_rng(3).random() == np.random.default_rng(3).random()
    a = [g.random() for g in generators(5, 3)]
    b = [g.random() for g in generators(5, 3)]
    assert a == b and len(set(a)) == 3
    assert len(child_seeds(5, 4)) == 4
    with pytest.raises(ValueError, match="seed must be >= 0"):
        make_rng(-1)


def test_grid_cells_order():
    cells = grid_cells({"a": [1, 2], "b": ["x", "y"]})
    assert cells == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]
    with pytest.raises(ValueError, match="grid"):
        grid_cells({"a": "abc"})


@pytest.mark.parametrize("vectorized", [False, True])
def test_sweep_is_identical_whatever_n_jobs(tmp_path, vectorized):
    func = _noisy_vectorized if vectorized else _noisy
    grid = {"epsilon": [0.5, 1.0], "n": [10, 100]}
    runs = [sweep(func, grid, reps=20, seed=11, n_jobs=j, vectorized=vectorized) for j in (1, 2)]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    paths = [save_table(r, f"t{i}", tmp_path) for i, r in enumerate(runs)]
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert list(runs[0].columns[:3]) == ["epsilon", "n", "rep"]
    assert len(runs[0]) == 4 * 20


def test_sweep_seed_changes_results():
    a = sweep(_noisy, {"epsilon": [1.0], "n": [10]}, reps=5, seed=1)
    b = sweep(_noisy, {"epsilon": [1.0], "n": [10]}, reps=5, seed=2)
    assert not np.allclose(a["error"], b["error"])


def test_sweep_validates():
    with pytest.raises(ValueError, match="reps must be >= 1"):
        sweep(_noisy, {"epsilon": [1.0], "n": [1]}, reps=0, seed=0)
    with pytest.raises(ValueError, match="rep"):
        sweep(
            lambda epsilon, reps, rng: [{"error": 0.0}],
            {"epsilon": [1.0]},
            reps=2,
            seed=0,
            vectorized=True,
        )


def test_summarize_matches_numpy():
    runs = sweep(_noisy, {"epsilon": [0.5, 2.0], "n": [10]}, reps=50, seed=3)
    table = summarize(runs, ["epsilon", "n"])
    for _, row in table.iterrows():
        e = runs.loc[runs.epsilon == row.epsilon, "error"].to_numpy()
        assert row.reps == 50
        assert row.mae == pytest.approx(np.mean(np.abs(e)))
        assert row.rmse == pytest.approx(np.sqrt(np.mean(e**2)))


@pytest.mark.parametrize("layout", ["tight_layout", "constrained", None])
def test_show_figure_saves_both_files_once_laid_out_and_shows_the_saved_png(
    tmp_path, layout, monkeypatch
):
    """show_figure: PNG (150 dpi) and SVG written, the figure closed, the saved PNG returned at its physical size
    (96 CSS px per inch: a point of text is a point on the page); the PNG has the size savefig's own "tight" box
    gives (its layout computed once, not once per file). The phone's rendering is left out here (its draws:
    tests/test_figures_narrow.py)."""
    import io

    from dpcompendium.book import chapter

    monkeypatch.setattr(chapter, "_save_narrow", lambda fig, path: None)

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    from dpcompendium.book.chapter import FIGURE_DPI, figure_languages, show_figure

    def make():
        fig, axes = plt.subplots(
            1, 2, figsize=(6, 3), layout="constrained" if layout == "constrained" else None
        )
        axes[0].plot([0, 1, 2], [1, 3, 2], label="a long legend label")
        axes[0].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # sticks out: tight crop needed
        im = axes[1].imshow(np.arange(12.0).reshape(3, 4))
        fig.colorbar(im, ax=axes[1])
        axes[1].set_title("a title")
        if layout == "tight_layout":
            fig.tight_layout()
        return fig

    ref = io.BytesIO()
    make().savefig(ref, format="png", dpi=FIGURE_DPI, bbox_inches="tight")
    fig = make()
    engine = type(fig.get_layout_engine())
    draws = []
    draw = fig.draw
    fig.draw = lambda renderer: (draws.append(type(renderer).__name__), draw(renderer))[1]
    shown = show_figure(fig, "f", tmp_path)
    # per language (English, then each edition's, saved into <lang>/: tests/test_figures_zh.py): one layout, then
    # one drawing per file (savefig alone: a dry run and a drawing per file); English PNG and SVG, the others PNG
    languages = ["en", *figure_languages()]
    assert len(draws) == 3 + 2 * (len(languages) - 1), draws
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["f.png", "f.svg", *languages[1:]])
    assert not plt.fignum_exists(fig.number)
    assert type(fig.get_layout_engine()) is engine  # restored
    png = (tmp_path / "f.png").read_bytes()
    assert shown.image("en").data == png
    size = lambda b: (int.from_bytes(b[16:20], "big"), int.from_bytes(b[20:24], "big"))  # noqa: E731
    assert size(png) == size(ref.getvalue())
    assert shown.image("en").width == round(size(png)[0] * 96 / FIGURE_DPI)
    assert (tmp_path / "f.svg").read_text().lstrip().startswith("<?xml")
