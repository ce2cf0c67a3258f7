"""Data: a registry of pinned, hash-verified files, fetched with pooch.

The registry (``data/registry.yml`` in the repository) lists for each dataset its file (relative to the cache
directory), pinned upstream URL, SHA-256, licence and description. The cache directory (:func:`cache_dir`) is
``$DPCOMPENDIUM_DATA_DIR`` if set; else ``../shared/data`` beside the repository when it holds registered files (the
folder the Makefile and CI use); else pooch's per-user cache. A file already in the cache is verified by hash and used
without any network access; with ``DPCOMPENDIUM_OFFLINE=1`` a missing file is an error that names the file and where
to put it. :func:`status` says whether each file is present, missing or fails its hash (``dpcompendium data``).

Small tables transcribed from the sources live in ``data/shipped/`` with their provenance and are read with
:func:`shipped_path`.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from tqdm import TqdmWarning

with warnings.catch_warnings():
    # pooch imports tqdm.auto, which warns "IProgress not found" inside kernels without ipywidgets.
    warnings.simplefilter("ignore", TqdmWarning)
    import pooch

from .paths import repo_root

__all__ = [
    "ADULT_COLUMNS",
    "DPBENCH_ALIASES",
    "DatasetInfo",
    "cache_dir",
    "cache_dir_source",
    "data_root",
    "fetch",
    "load_adult",
    "load_dpbench",
    "registry",
    "shared_data_dir",
    "shipped_path",
    "status",
]

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
    "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country", "income",
]  # fmt: skip

#: DPBench's short names (Hay et al. 2016, table 2) → file stems.
DPBENCH_ALIASES = {
    "ADULT": "ADULTFRANK.n4096",
    "HEPTH": "HEPTH.n4096",
    "INCOME": "INCOME.n4096",
    "MEDCOST": "MEDCOST.n4096",
    "NETTRACE": "NETTRACE.n4096",
    "PATENT": "PATENT.n4096",
    "SEARCHLOGS": "SEARCHLOGS.n4096",
    "BIDS-ALL": "bids",
    "BIDS-FJ": "bids_j",
    "BIDS-FM": "bids_m",
    "MDSALARY": "GrossCompenMDSalary1",
    "MDSALARY-FA": "GrossCompenMDSalary2_filtered",
    "ADULT-2D": "Adult_2D_256_256",
    "BEIJING-CABS-E": "BeijingTaxiE_256_256",
    "BEIJING-CABS-S": "BeijingTaxiS_256_256",
    "GOWALLA": "checkin_256_256",
    "LOAN": "Loan_2D_256_256",
    "MDSALARY-2D": "MDSalary2D_256_256",
    "SF-CABS-E": "cabspottingE_256_256",
    "SF-CABS-S": "cabspottingS_256_256",
    "STROKE": "Stroke_2D_256_256",
    "TWITTER": "twitter_256_256",
}


@dataclass(frozen=True)
class DatasetInfo:
    name: str
    file: str
    url: str
    sha256: str
    licence: str
    description: str


def data_root() -> Path:
    """The repository's ``data/`` folder (registry and shipped tables)."""
    return repo_root() / "data"


@cache
def registry() -> dict[str, DatasetInfo]:
    """Every registered dataset, by name."""
    raw = yaml.safe_load((data_root() / "registry.yml").read_text(encoding="utf-8"))
    return {
        name: DatasetInfo(name=name, **{k: str(v) for k, v in entry.items()})
        for name, entry in raw.items()
    }


def shared_data_dir() -> Path | None:
    """``../shared/data`` beside the repository (the Makefile's ``SHARED_DATA``) if it holds a registered file."""
    try:
        shared = (repo_root().parent / "shared" / "data").resolve()
    except FileNotFoundError:  # not a checkout
        return None
    if shared.is_dir() and any((shared / info.file).is_file() for info in registry().values()):
        return shared
    return None


def cache_dir_source() -> tuple[Path, str]:
    """The cache directory and where it comes from: ``$DPCOMPENDIUM_DATA_DIR`` if set; else ``../shared/data``
    beside the repository if it holds a registered file (found as the Makefile finds it); else pooch's per-user
    cache for dpcompendium."""
    env = os.environ.get("DPCOMPENDIUM_DATA_DIR")
    if env:
        return Path(env).expanduser().resolve(), "DPCOMPENDIUM_DATA_DIR"
    shared = shared_data_dir()
    if shared is not None:
        return shared, "../shared/data beside the repository"
    return Path(
        pooch.os_cache("dpcompendium")
    ), "the per-user cache (DPCOMPENDIUM_DATA_DIR unset, no ../shared/data)"


def cache_dir() -> Path:
    """The data cache directory (see :func:`cache_dir_source`)."""
    return cache_dir_source()[0]


def status(name: str, root: Path | None = None) -> str:
    """``"present"`` (the file is in the cache with its registered SHA-256), ``"missing"`` or ``"hash mismatch"``."""
    info = registry()[name]
    target = (root or cache_dir()) / info.file
    if not target.is_file():
        return "missing"
    return (
        "present" if pooch.file_hash(str(target), alg="sha256") == info.sha256 else "hash mismatch"
    )


def _offline() -> bool:
    return os.environ.get("DPCOMPENDIUM_OFFLINE", "0").lower() not in ("", "0", "false", "no")


def fetch(name: str) -> Path:
    """Local path of a registered file, downloading it (pinned URL) if absent and verifying its SHA-256."""
    reg = registry()
    if name not in reg:
        raise ValueError(
            f"name must be a registered dataset, got {name!r} (known: {', '.join(sorted(reg))})"
        )
    info = reg[name]
    root = cache_dir()
    target = root / info.file
    if target.exists():
        actual = pooch.file_hash(str(target), alg="sha256")
        if actual == info.sha256:
            return target
        if _offline():
            raise ValueError(
                f"{info.file} in {root} fails its SHA-256 check (expected {info.sha256[:12]}…, got {actual[:12]}…)"
            )
    elif _offline():
        raise FileNotFoundError(
            f"{info.file} is not in the data cache {root} and DPCOMPENDIUM_OFFLINE is set: put the file at {target} "
            f"(from {info.url}, sha256 {info.sha256}) or point DPCOMPENDIUM_DATA_DIR at a folder that holds it"
        )
    try:
        path = pooch.retrieve(
            url=info.url,
            known_hash=f"sha256:{info.sha256}",
            fname=Path(info.file).name,
            path=target.parent,
            progressbar=False,
        )
    except ValueError as exc:  # pooch: hash mismatch
        raise ValueError(f"{info.file} in {root} fails its SHA-256 check: {exc}") from exc
    except Exception as exc:  # network errors: say what to do
        raise FileNotFoundError(
            f"could not download {info.file} from {info.url} ({exc.__class__.__name__}); put the file at {target} "
            "or point DPCOMPENDIUM_DATA_DIR at a folder that holds it"
        ) from exc
    return Path(path)


def load_adult() -> pd.DataFrame:
    """UCI Adult training split as a DataFrame with named columns; '?' becomes missing (NaN)."""
    path = fetch("adult")
    return pd.read_csv(path, header=None, names=ADULT_COLUMNS, skipinitialspace=True, na_values="?")


def load_dpbench(name: str) -> np.ndarray:
    """A DPBench histogram by short name (``"ADULT"``, ``"HEPTH"``, ``"ADULT-2D"``…) or file stem."""
    stem = DPBENCH_ALIASES.get(name.upper() if name.upper() in DPBENCH_ALIASES else name, name)
    for dim in ("1d", "2d"):
        key = f"dpbench-{dim}-{stem}"
        if key in registry():
            return np.load(fetch(key), allow_pickle=False)
    known = sorted(DPBENCH_ALIASES)
    raise ValueError(f"name must be a DPBench dataset, got {name!r} (known: {', '.join(known)})")


def shipped_path(relative: str) -> Path:
    """Path of a small file shipped in ``data/shipped/`` (transcribed from a source, with provenance)."""
    path = data_root() / "shipped" / relative
    if not path.is_file():
        raise FileNotFoundError(f"shipped data file not found: {path}")
    return path
