"""The method registry (issue 47): one registration per method, read by tables, figures, sentences, claims cards and
the audit catalogue.

A toy method — a Laplace count, ε-DP under add-remove — is registered once (its module is this file) and shows up
everywhere the book names, draws, states or audits a method; a registration missing a language or a colour is
refused in one line.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium.chapters.privacy_audit.catalog import catalog, run_catalog
from dpcompendium.core import methods
from dpcompendium.core.audit.spec import AuditSpec
from dpcompendium.core.mechanisms import laplace_mechanism
from dpcompendium.core.messages import METHOD_NAMES, method_name
from dpcompendium.core.plotting import METHOD_COLORS, method_style, translate_figure
from dpcompendium.core.privacy import ClaimsTable, PrivacyClaim, claims_table
from dpcompendium.core.tables import readable

TOY = "toy-count"
TOY_CHAPTER = "toy-registry"
EN, ZH = "Toy Laplace count", "玩具计数（拉普拉斯机制）"
COLOUR = "#E69F00"


# --- the toy method's module: an estimator, its claim and its audit ---------------------------------------------
def toy_count(
    data: np.ndarray, epsilon: float, rng: np.random.Generator, *, size=None
) -> np.ndarray:
    """The number of records plus Lap(1/ε): add-remove neighbours, sensitivity 1, ε-DP."""
    return laplace_mechanism(float(len(data)), 1.0, epsilon, rng, size=size)


def toy_claim(epsilon: float) -> PrivacyClaim:
    return PrivacyClaim(EN, "add-remove", "1 (a count)", epsilon)


def toy_audit() -> list[AuditSpec]:
    eps = 1.0
    return [
        AuditSpec(
            "toy Laplace count",
            TOY_CHAPTER,
            "private",
            toy_claim(eps),
            (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0])),
            sample=lambda d, n, g: toy_count(d, eps, g, size=n),
            expected="holds",
            true_epsilon=eps,
        )
    ]


# --- its registration ------------------------------------------------------------------------------------------
@pytest.fixture
def toy():
    method = methods.register(
        methods.Method(
            TOY,
            {"en": EN, "zh_CN": ZH},
            COLOUR,
            TOY_CHAPTER,
            estimator=toy_count,
            claim=toy_claim,
            audit=toy_audit,
        )
    )
    yield method
    methods.unregister(TOY)


def test_the_chapters_methods_are_registered():
    """Every chapter's methods are in the registry, each named in every language with a colour, and every
    estimator and claim reference resolves."""
    ids = {m.id for m in methods.methods()}
    assert {"composition", "php", "mwem", "cape", "hiera", "hb"} <= ids
    chapters = {m.chapter for m in methods.methods()}
    assert {"core", "dp-mean", "histograms", "mwem", "federated-pca", "hiera"} <= chapters
    for m in methods.methods():
        assert set(methods.LANGUAGES) <= set(m.names)
        for what in ("estimator", "claim"):
            ref = m.resolve(what)
            assert ref is None or callable(ref), (m.id, what)
    assert methods.get("hierarchical") is methods.get("hb")  # an alias names the same method


def test_toy_method_in_a_table(toy):
    df = pd.DataFrame({"method": [TOY, "php"], "mse": [1.5, 2.0]})
    assert EN in readable(df, lang="en")._repr_html_()
    assert ZH in readable(df, lang="zh_CN")._repr_html_()
    assert METHOD_NAMES["en"][TOY] == EN and METHOD_NAMES["zh_CN"][TOY] == ZH


def test_toy_method_in_a_sentence(toy):
    assert method_name(TOY, "en") == EN
    assert method_name(TOY, "zh_CN") == ZH
    assert method_name(f"as-written:{TOY}", "en") == f"{EN}, as written"


def test_toy_method_in_a_figure(toy):
    """Its colour and legend name in English, its legend in Chinese once the figure is translated."""
    assert METHOD_COLORS[TOY] == COLOUR
    fig, ax = plt.subplots()
    (line,) = ax.plot([0, 1], [1, 2], **{**method_style(TOY), "label": toy.name("en")})
    legend = ax.legend()
    assert matplotlib.colors.to_hex(line.get_color()).lower() == COLOUR.lower()
    assert [t.get_text() for t in legend.get_texts()] == [EN]
    assert translate_figure(fig, "zh_CN") == []
    assert [t.get_text() for t in legend.get_texts()] == [ZH]
    plt.close(fig)


def test_toy_method_in_a_claims_card(toy):
    claim = toy.resolve("claim")(0.5)
    table = claims_table({TOY: claim})
    assert EN in ClaimsTable(table, "en")._repr_html_()
    assert ZH in ClaimsTable(table, "zh_CN")._repr_html_()
    assert claim.private and claim.epsilon == 0.5 and claim.neighbours == "add-remove"


def test_toy_method_in_the_audit_catalogue(toy):
    """Its registration's audit spec is a group of the catalogue (its chapter is not in the book) and runs."""
    specs = catalog([TOY_CHAPTER])
    assert [s.mechanism for s in specs] == ["toy Laplace count"]
    assert [s.chapter for s in catalog()][-1] == TOY_CHAPTER
    table = run_catalog(specs, n_samples=20_000, seed=1)
    row = table.iloc[0]
    assert row["verdict"] == row["expected"] == "holds"
    assert row["claimed_epsilon"] == 1.0
    # the audited ε is a lower bound: at most the claim's (holds), and with 20 000 samples it sees most of it
    assert 0.5 < row["audited_epsilon"] <= 1.0


def test_catalogue_without_the_toy_has_no_toy_group():
    assert TOY_CHAPTER not in {s.chapter for s in catalog()}


@pytest.mark.parametrize(
    ("names", "colour", "word"),
    [
        ({"en": EN}, COLOUR, "zh_CN"),
        ({"en": EN, "zh_CN": ""}, COLOUR, "zh_CN"),
        ({"zh_CN": ZH}, COLOUR, "in en"),
        ({"en": EN, "zh_CN": ZH}, None, "colour"),
        ({"en": EN, "zh_CN": ZH}, "orange", "colour"),
    ],
)
def test_incomplete_registration_is_refused(names, colour, word):
    with pytest.raises(ValueError, match=word) as info:
        methods.Method(TOY, names, colour, TOY_CHAPTER)
    assert "\n" not in str(info.value)


def test_an_id_of_another_method_is_refused(toy):
    with pytest.raises(ValueError, match="already registered") as info:
        methods.register(methods.Method("php", {"en": "x", "zh_CN": "x"}, COLOUR, TOY_CHAPTER))
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="already registered"):
        methods.register(
            methods.Method("other", {"en": "x", "zh_CN": "x"}, COLOUR, "x", aliases=(TOY,))
        )
    assert methods.get("php").chapter == "histograms"


def test_a_chapter_registers_a_method_in_one_call():
    """``registrar``: a chapter's one call per method — relative references under its package, the keywords its
    methods share unless a call gives its own, a name kept in English when no Chinese is given."""
    method = methods.registrar(
        TOY_CHAPTER, "dpcompendium.core.mechanisms", claim=".ranges:range_claim"
    )
    try:
        toy = method(TOY, EN, None, COLOUR, estimator=".laplace:laplace_mechanism")
        other = method("toy-other", EN, ZH, COLOUR, claim=None)
        assert methods.get(TOY) is toy
        assert toy.names == {"en": EN, "zh_CN": EN}
        assert toy.estimator == "dpcompendium.core.mechanisms.laplace:laplace_mechanism"
        assert toy.resolve("estimator") is laplace_mechanism
        assert toy.claim == "dpcompendium.core.mechanisms.ranges:range_claim"
        assert other.claim is None and other.names["zh_CN"] == ZH
    finally:
        for key in (TOY, "toy-other"):
            if any(m.id == key for m in methods.methods()):
                methods.unregister(key)
    with pytest.raises(ValueError, match="colour"):
        methods.registrar(TOY_CHAPTER)(TOY, EN, ZH)
    with pytest.raises(ValueError, match="package"):
        methods.registrar(TOY_CHAPTER)(TOY, EN, ZH, COLOUR, claim=".x:y")
