"""Helpers shared by the book tests (not a test module)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_entries(toc_path: Path = ROOT / "_toc.yml") -> list[str]:
    """Every file in ``_toc.yml`` (root first), as written there, in book order."""
    toc = yaml.safe_load(toc_path.read_text(encoding="utf8"))
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            for key in ("chapters", "sections", "parts"):
                walk(entry.get(key))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    return files
