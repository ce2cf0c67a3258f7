"""Stale doctrees: ``--all`` builds both editions from a fresh Sphinx environment, and a build drops an edition's
environment when the book's own Sphinx extensions changed (``dpcompendium.book._envstamp``). No book is built: Sphinx
and jupyter-book are replaced by recorders."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from dpcompendium.book import _envstamp as envstamp
from dpcompendium.book import cli, i18n


@pytest.fixture
def extensions(tmp_path):
    """A stand-in for the book's extension sources: one module in ``tmp_path/ext``."""
    folder = tmp_path / "ext"
    folder.mkdir()
    (folder / "glue_i18n.py").write_text("VERSION = 1\n")
    return ((folder, "*.py"),)


def _doctrees(path):
    path.mkdir(parents=True)
    (path / "environment.pickle").write_bytes(b"old environment")
    return path


def test_the_extension_hash_changes_with_an_extension_and_only_then(tmp_path, extensions):
    first = envstamp.extension_hash(tmp_path, extensions)
    assert envstamp.extension_hash(tmp_path, extensions) == first
    (tmp_path / "ext" / "glue_i18n.py").write_text("VERSION = 2\n")
    assert envstamp.extension_hash(tmp_path, extensions) != first
    # the book's real sources are found: the i18n extension among them, and book/_ext's under the root given
    names = [name for name, _ in envstamp.extension_files(Path(__file__).resolve().parents[1])]
    assert "book/i18n.py" in names and "book/glue_i18n.py" in names and "core/messages.py" in names
    assert "book/_ext/dpcompendium_pybtex.py" in names


def test_a_changed_extension_drops_the_cached_environment(tmp_path, extensions):
    doctrees = _doctrees(tmp_path / "_build" / ".zh_CN" / "doctrees")
    digest = envstamp.extension_hash(tmp_path, extensions)
    # doctrees without a stamp were read by unknown extensions: dropped, and the stamp recorded beside them
    assert envstamp.drop_stale_environment(doctrees, digest)
    assert not doctrees.exists()
    assert envstamp.stamp_path(doctrees) == doctrees.parent / "doctrees.extensions.sha256"
    assert envstamp.stamp_path(doctrees).read_text().strip() == digest
    # the same extensions: the environment is kept
    _doctrees(doctrees)
    assert not envstamp.drop_stale_environment(doctrees, digest)
    assert (doctrees / "environment.pickle").is_file()
    # one extension changed: the environment is dropped, the new hash recorded
    (tmp_path / "ext" / "glue_i18n.py").write_text("VERSION = 2\n")
    changed = envstamp.extension_hash(tmp_path, extensions)
    assert envstamp.drop_stale_environment(doctrees, changed)
    assert not doctrees.exists()
    assert envstamp.stamp_path(doctrees).read_text().strip() == changed


@pytest.fixture
def sphinx_calls(monkeypatch, tmp_path):
    """``i18n.build`` on ``tmp_path`` with Sphinx replaced: the keyword arguments of each ``build_sphinx`` call."""
    import jupyter_book.sphinx

    calls = []

    def build_sphinx(*args, **kwargs):
        calls.append(kwargs)
        return 0

    # i18n.build sets DPCOMPENDIUM_REPO if unset: set here, so that it goes with the test (repo_root() reads it)
    monkeypatch.setenv("DPCOMPENDIUM_REPO", str(tmp_path))
    monkeypatch.setattr(jupyter_book.sphinx, "build_sphinx", build_sphinx)
    monkeypatch.setattr(i18n, "_jupyter_book_config", lambda root: (tmp_path / "_config.yml", {}))
    return calls


@pytest.mark.parametrize("force_all", [True, False])
def test_an_edition_built_with_all_starts_from_a_fresh_environment(
    tmp_path, sphinx_calls, force_all
):
    assert i18n.build(tmp_path, "zh_CN", force_all=force_all) == 0
    (kwargs,) = sphinx_calls
    assert kwargs["freshenv"] is force_all and kwargs["force_all"] is force_all
    assert kwargs["doctreedir"] == i18n.work_dir(tmp_path.resolve(), "zh_CN") / "doctrees"


def test_an_edition_drops_its_environment_when_the_extensions_changed(tmp_path, sphinx_calls):
    doctrees = _doctrees(i18n.work_dir(tmp_path.resolve(), "zh_CN") / "doctrees")
    envstamp.stamp_path(doctrees).write_text("a hash of older extensions\n")
    i18n.build(tmp_path, "zh_CN")
    assert not (doctrees / "environment.pickle").exists()
    # the next build with the same extensions keeps what Sphinx read
    _doctrees(doctrees)
    i18n.build(tmp_path, "zh_CN")
    assert (doctrees / "environment.pickle").is_file()
    assert sphinx_calls[-1]["freshenv"] is False


@pytest.fixture
def book_calls(monkeypatch, tmp_path):
    """``dpcompendium book`` on ``tmp_path`` with its subprocesses replaced: the command lines."""
    calls = []

    def call(cmd, **kwargs):
        calls.append([str(c) for c in cmd])
        return 0

    monkeypatch.setattr(cli, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(cli.subprocess, "call", call)
    return calls


def _book(**flags) -> argparse.Namespace:
    return argparse.Namespace(**{"strict": False, "all": False, "english_only": False, **flags})


def test_book_all_builds_both_editions_from_a_fresh_environment(book_calls):
    assert cli.cmd_book(_book(all=True)) == 0
    english, *editions = book_calls
    assert "--all" in english and editions
    assert all("--all" in e and e[e.index("--lang") + 1] in i18n.LANGUAGES for e in editions)
    # jupyter-book's --all is Sphinx's fresh environment (-E), not only "write every page"
    from jupyter_book.cli.main import build

    (option,) = [p for p in build.params if "--all" in p.opts]
    assert option.name == "freshenv"
    # and `dpcompendium i18n build --all` reaches i18n.build as force_all (which passes freshenv: test above)
    parser = argparse.ArgumentParser()
    i18n.add_command(parser.add_subparsers())
    args = parser.parse_args(editions[0][editions[0].index("i18n") :])
    assert args.all is True


def test_book_without_all_drops_the_english_environment_when_the_extensions_changed(
    tmp_path, book_calls
):
    doctrees = _doctrees(tmp_path / "_build" / ".doctrees")
    envstamp.stamp_path(doctrees).write_text("a hash of older extensions\n")
    assert cli.cmd_book(_book(english_only=True)) == 0
    assert not doctrees.exists() and "--all" not in book_calls[0]
    _doctrees(doctrees)
    assert cli.cmd_book(_book(english_only=True)) == 0
    assert (doctrees / "environment.pickle").is_file()
