"""The library's layers, read from its source with ``ast`` (nothing imported): core ← chapters ← book, no cycle.

- ``dpcompendium.core`` imports nothing of the chapters or the book layer;
- a chapter (``dpcompendium.chapters.<folder>``) imports the core, the chapter registry and its own folder — never
  another chapter's folder, never the book layer;
- ``dpcompendium.book`` may import everything below it;
- no import cycle between modules (imports inside functions count: a lazy import is still an arrow).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "dpcompendium"


def module_name(path: Path, src: Path = SRC) -> tuple[str, bool]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    is_pkg = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_pkg else parts), is_pkg


def import_graph(pkg: Path = PKG) -> dict[str, set[str]]:
    """module -> the dpcompendium modules it imports (``from m import x`` counts ``m.x`` where that is a module)."""
    files = {module_name(p, pkg.parent)[0]: p for p in pkg.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        _, is_pkg = module_name(path, pkg.parent)
        package = name.split(".") if is_pkg else name.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    mod = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    mod = node.module or ""
                targets = [
                    f"{mod}.{a.name}" if f"{mod}.{a.name}" in files else mod for a in node.names
                ]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            deps |= {t for t in targets if t in files and t != name}
        graph[name] = deps
    return graph


def layer(module: str) -> tuple[int, str]:
    """(rank, chapter folder or ""): the package root 0, core 0, chapters 1, book 2."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "core":
        return 0, ""
    if parts[1] == "chapters":
        folder = parts[2] if len(parts) > 2 and parts[2] != "registry" else ""
        return 1, folder
    if parts[1] == "book":
        return 2, ""
    raise AssertionError(
        f"{module}: not in core/, chapters/ or book/ (every module belongs to a layer)"
    )


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for mod, deps in sorted(graph.items()):
        rank, folder = layer(mod)
        for dep in sorted(deps):
            drank, dfolder = layer(dep)
            if drank > rank:
                bad.append(f"{mod} -> {dep} (upward)")
            elif rank == drank == 1 and dfolder and dfolder != folder:
                bad.append(f"{mod} -> {dep} (another chapter)")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_upward_import_and_no_import_between_chapters():
    bad = upward_imports(import_graph())
    assert not bad, "imports must point down (core <- chapters <- book):\n" + "\n".join(bad)


def test_no_import_cycle():
    found = cycles(import_graph())
    assert not found, f"import cycles: {found}"


@pytest.mark.parametrize(
    "files, upward, cyclic",
    [
        ({"core/a.py": "from dpcompendium.book import b", "book/b.py": ""}, 1, 0),
        ({"chapters/x/a.py": "from dpcompendium.chapters.y import b", "chapters/y/b.py": ""}, 1, 0),
        ({"core/a.py": "def f():\n    from . import b", "core/b.py": "from .a import f"}, 0, 1),
        ({"book/a.py": "from dpcompendium.core import b", "core/b.py": ""}, 0, 0),
    ],
)
def test_the_checks_find_upward_imports_and_cycles(tmp_path, files, upward, cyclic):
    pkg = tmp_path / "dpcompendium"
    for rel, text in files.items():
        path = pkg / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in [path.parent, *path.parent.parents]:
            if folder == tmp_path:
                break
            (folder / "__init__.py").touch()
        path.write_text(text)
    graph = import_graph(pkg)
    assert len(upward_imports(graph)) == upward
    assert len(cycles(graph)) == cyclic
