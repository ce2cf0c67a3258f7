"""The fuzz strategy draws only valid parameter sets, within the declared fuzz size (no chapter is run here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from dpcompendium.book.chapter import closest, skipped
from dpcompendium.book.contract import CHAPTER_IDS, get_chapter, validate_parameters
from dpcompendium.book.fuzz import FUZZ_SIZE, MAX_LEN, parameter_strategy, small_overrides


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_strategy_draws_valid_small_sets(chapter_id):
    chapter = get_chapter(chapter_id)
    caps = FUZZ_SIZE[chapter_id]

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(values=parameter_strategy(chapter))
    def check(values):
        assert set(values) == set(chapter.parameters) - {"output_dir"}
        validate_parameters(chapter, values)
        for name, value in values.items():
            items = value if isinstance(value, list) else [value]
            if isinstance(value, list):
                assert len(value) <= caps.get("max_len", MAX_LEN)
            if name in caps:
                lo, hi = caps[name]
                assert all(lo <= v <= hi for v in items), (name, value)

    check()


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_strategy_filter_rejects_little(chapter_id):
    """The draws respect the per-parameter constraints by construction; the # require: filter rejects few."""
    chapter = get_chapter(chapter_id)

    @settings(
        max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[]
    )
    @given(values=parameter_strategy(chapter))
    def check(values):
        pass

    check()  # hypothesis fails with HealthCheck.filter_too_much otherwise


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_small_overrides_are_valid_and_within_caps(chapter_id):
    chapter = get_chapter(chapter_id)
    over = small_overrides(chapter)
    validate_parameters(chapter, over)
    for name, (_lo, hi) in (
        (n, c) for n, c in FUZZ_SIZE[chapter_id].items() if isinstance(c, tuple)
    ):
        value = over.get(name, chapter.parameters[name].default)
        items = value if isinstance(value, list) else [value]
        assert all(v <= hi for v in items), (name, value)
    given = {"epsilons": [0.5, 2]} if "epsilons" in chapter.parameters else {}
    assert not set(small_overrides(chapter, given)) & set(given)


def test_skipped_and_closest(capsys):
    note = skipped("the comparison", "the reference lists epsilon = 1 only")
    assert capsys.readouterr().out.strip() == note
    assert (
        note
        == "Note: the comparison skipped for these parameters because the reference lists epsilon = 1 only."
    )
    assert closest([0.25, 0.5, 1.0, 2.0]) == 1.0
    assert closest([0.1, 5.0]) == 5.0 and closest([0.5, 2.0]) == 0.5  # log scale; ties: the smaller
    with pytest.raises(ValueError, match="values must be non-empty"):
        closest([])
