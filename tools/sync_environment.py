"""Write ``environment.yml`` (for Binder) from ``requirements-lock.txt``: Python 3.11 and the lock's exact pins.

    python tools/sync_environment.py          # rewrite environment.yml
    python tools/sync_environment.py --check  # exit 1 if environment.yml does not match the lock

``tests/test_env_lock.py`` fails when the two disagree, so run this after every change to the lock (``make lock``
does it).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements-lock.txt"
ENV = ROOT / "environment.yml"
PYTHON = "3.11"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)\s*(;[^\\]*)?")
HEADER = """\
# Binder environment (repo2docker). GENERATED from requirements-lock.txt by tools/sync_environment.py — do not edit;
# tests/test_env_lock.py checks that it agrees with the lock. The last pip line installs this package itself.
"""


def lock_pins(text: str | None = None) -> dict[str, str]:
    """``{normalized name: 'name==version[ ; marker]'}`` for every pinned requirement of the lock."""
    text = LOCK.read_text(encoding="utf8") if text is None else text
    pins: dict[str, str] = {}
    for line in text.splitlines():
        m = PIN.match(line)
        if m:
            name, extras, version, marker = m.groups()
            spec = f"{name}{extras or ''}=={version}"
            if marker:
                spec += f" {marker.strip()}"
            pins[normalize(name)] = spec
    return pins


def normalize(name: str) -> str:
    """PEP 503 name normalization."""
    return re.sub(r"[-_.]+", "-", name).lower()


def render(pins: dict[str, str]) -> str:
    lines = [HEADER, "name: dpcompendium", "channels:", "  - conda-forge", "dependencies:"]
    lines += [f"  - python={PYTHON}", "  - pip", "  - pip:"]
    lines += [f'      - "{spec}"' for _, spec in sorted(pins.items())]
    lines += ['      - "--editable=."', ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if out of date")
    args = parser.parse_args(argv)
    text = render(lock_pins())
    if args.check:
        if not ENV.is_file() or ENV.read_text(encoding="utf8") != text:
            print(
                "environment.yml disagrees with requirements-lock.txt: run python tools/sync_environment.py"
            )
            return 1
        print("environment.yml agrees with requirements-lock.txt")
        return 0
    ENV.write_text(text, encoding="utf8")
    print(f"wrote {ENV.relative_to(ROOT)}: python={PYTHON} and {len(lock_pins())} pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
