"""Where things live: the repository root, its notebooks and data."""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    """The repository root: ``$DPCOMPENDIUM_REPO`` if set, else the checkout this package is installed from."""
    env = os.environ.get("DPCOMPENDIUM_REPO")
    root = Path(env).expanduser().resolve() if env else Path(__file__).resolve().parents[3]
    if not (root / "_toc.yml").is_file():
        raise FileNotFoundError(
            f"no dpcompendium checkout at {root} (no _toc.yml); install with 'pip install -e .' from the repository "
            "or set DPCOMPENDIUM_REPO to its root"
        )
    return root
