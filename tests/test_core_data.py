"""The data registry and loaders: hash-verified files from the cache, clear errors when missing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from dpcompendium.core import data


def test_registry_entries_are_complete():
    reg = data.registry()
    assert "adult" in reg and "dpbench-1d-ADULTFRANK.n4096" in reg
    assert len([k for k in reg if k.startswith("dpbench-1d")]) == 18
    assert len([k for k in reg if k.startswith("dpbench-2d")]) == 10
    for info in reg.values():
        assert len(info.sha256) == 64 and info.url.startswith("https://")
        assert info.licence and info.description and info.file


def test_registry_hashes_match_shared_sums():
    sums = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "SHA256SUMS"
    if not sums.is_file():
        pytest.skip("../shared/data is not beside this checkout")
    listed = {
        line.split()[1][2:]: line.split()[0]
        for line in sums.read_text().splitlines()
        if line.strip()
    }
    for info in data.registry().values():
        assert listed[info.file] == info.sha256


def test_adult_loads_and_verifies():
    df = data.load_adult()
    assert df.shape == (32561, 15)
    assert list(df.columns) == data.ADULT_COLUMNS
    assert df["age"].between(17, 90).all()
    assert df["workclass"].isna().sum() > 0  # '?' became missing


@pytest.mark.parametrize(
    ("name", "shape", "total"), [("ADULT", (4096,), 17665), ("ADULT-2D", (256, 256), None)]
)
def test_dpbench_loads(name, shape, total):
    h = data.load_dpbench(name)
    assert h.shape == shape
    assert np.all(h >= 0)
    if total is not None:
        assert h.sum() == total
        assert h[0] / h.sum() > 0.9  # DPBench: 95 % of ADULT's records are in bin 0


def test_unknown_names():
    with pytest.raises(ValueError, match="name must be a registered dataset, got 'nope'"):
        data.fetch("nope")
    with pytest.raises(ValueError, match="name must be a DPBench dataset"):
        data.load_dpbench("nope")


def test_offline_missing_file_names_file_and_place(tmp_path, monkeypatch):
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DPCOMPENDIUM_OFFLINE", "1")
    with pytest.raises(
        FileNotFoundError, match=r"uci-adult/adult.data is not in the data cache"
    ) as exc:
        data.fetch("adult")
    assert str(tmp_path / "uci-adult" / "adult.data") in str(exc.value)


def test_corrupted_file_fails_hash_check(tmp_path, monkeypatch):
    target = tmp_path / "uci-adult" / "adult.data"
    target.parent.mkdir(parents=True)
    target.write_text("not the real file\n")
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("DPCOMPENDIUM_OFFLINE", "1")
    with pytest.raises(ValueError, match="fails its SHA-256 check"):
        data.fetch("adult")
    # pooch must not have silently accepted the corrupted bytes
    assert hashlib.sha256(target.read_bytes()).hexdigest() != data.registry()["adult"].sha256


def test_cache_dir_env(monkeypatch, tmp_path):
    monkeypatch.setenv("DPCOMPENDIUM_DATA_DIR", str(tmp_path))
    assert data.cache_dir() == tmp_path.resolve()
