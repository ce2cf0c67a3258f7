"""``chapter.states_book_claims``: a chapter asserts the numbers its text states only at the book's configuration."""

from __future__ import annotations

import re

import nbformat
import pytest
from _chapter_ids import DP_MEAN, HIERA

from dpcompendium.book import chapter
from dpcompendium.book.contract import chapters, get_chapter


def test_the_defaults_state_the_claims_and_any_other_value_does_not():
    d = get_chapter(DP_MEAN).defaults
    assert chapter.states_book_claims(DP_MEAN, d, at_least={"reps": 500})
    assert chapter.states_book_claims(
        DP_MEAN, {**d, "reps": 5000, "n_jobs": 2, "output_dir": "x"}, at_least={"reps": 500}
    )
    assert not chapter.states_book_claims(DP_MEAN, {**d, "reps": 499}, at_least={"reps": 500})
    assert not chapter.states_book_claims(
        DP_MEAN, {**d, "epsilons": [2.0, 5.0]}, at_least={"reps": 500}
    )
    assert not chapter.states_book_claims(DP_MEAN, {**d, "seed": 1}, at_least={"reps": 500})
    h = get_chapter(HIERA).defaults
    assert not chapter.states_book_claims(
        HIERA, {**h, "datasets": ["uniform"]}, at_least={"reps": 100}
    )


def test_a_missing_parameter_is_an_error():
    d = dict(get_chapter(DP_MEAN).defaults)
    del d["epsilons"]
    with pytest.raises(KeyError):
        chapter.states_book_claims(DP_MEAN, d)


@pytest.mark.parametrize("ch", [c.id for c in chapters()])
def test_every_gate_on_claims_is_the_book_configuration(ch):
    """A chapter that gates assertions (``CHECK``/``CLAIMS``) defines its gate with ``states_book_claims`` on its own
    id (a gate on the repetitions alone let a reader's full-scale run with other budgets stop on an assertion)."""
    nb = nbformat.read(get_chapter(ch).notebook, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    gated = "CHECK" in code or "CLAIMS" in code
    assert not gated or re.search(rf'chapter\.states_book_claims\(\s*"{re.escape(ch)}"', code), ch
