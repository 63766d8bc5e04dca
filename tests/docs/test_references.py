"""Docstrings and comments cannot point at what does not exist: a ``tichusim.x.y`` name must be
a module of the package (or a name a module defines), and a ``path/to/file.py`` (``.md``,
``.toml``) must be a file of the repository. A module renamed or moved fails here, with the
places that still name it.

Only docstrings and ``#`` comments are read (a string literal may be a name on purpose, such as
a metadata key), and nothing is imported: the names a module defines are read from its source
(``ast``), so the test needs no compile and cannot be made flaky by an import's side effects.
Paths are checked when they hold a ``/`` (a bare ``engine.py`` is a sibling, or an example); a
path may be relative to the repository, to ``tichusim/`` or to the file that names it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tichusim"
# test files whose docstrings name missing things on purpose (the checkers' own examples)
EXEMPT = {"tests/docs/test_docs.py", "tests/docs/test_references.py"}
SCANNED = ("tichusim", "tests", "benchmarks", "scripts")

# a dotted name not inside a longer word, path or quoted string
DOTTED = re.compile(r"(?<![\w./\"'])tichusim(?:\.[A-Za-z_]\w*)+")
PATH = re.compile(r"(?<![\w./\"'-])((?:[\w-]+/)+[\w-]+\.(?:py|md|toml))\b")
PLACEHOLDERS = ("path/", "to/")  # ``path/to/file.py`` in an example


def texts(path: Path):
    """``(line, text)`` of every comment and docstring of a Python file."""
    source = path.read_text()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                yield node.body[0].lineno, doc


@cache
def defined(module: Path) -> frozenset[str]:
    """The names a module's top level defines, assigns or imports (``from x import *``
    followed); for a module with ``__getattr__``, every string constant too (its lazy names)."""
    tree = ast.parse(module.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node in tree.body:
                names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*" and isinstance(node, ast.ImportFrom) and node.module:
                    star = module.parent.joinpath(
                        *[".."] * (node.level - 1), *node.module.split(".")
                    )
                    if star.with_suffix(".py").exists():
                        names |= defined(star.with_suffix(".py").resolve())
                else:
                    names.add((alias.asname or alias.name).split(".")[0])
    if "__getattr__" in names:
        names |= {
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        }
    return frozenset(names)


def exists(dotted: str) -> bool:
    """Whether ``tichusim.a.b.c`` is a module or package, or its first name past the last
    module one that module defines (what follows, an attribute of an attribute, is not
    checked)."""
    parts = dotted.split(".")
    folder = ROOT
    for i, part in enumerate(parts):
        if (folder / part / "__init__.py").exists():
            folder = folder / part
        elif (folder / f"{part}.py").exists():
            rest = parts[i + 1 :]
            return not rest or rest[0] in defined(folder / f"{part}.py")
        else:
            return part in defined(folder / "__init__.py")
    return True


def missing_references() -> list[str]:
    found = []
    files = sorted(p for top in SCANNED for p in (ROOT / top).rglob("*.py"))
    for path in files:
        where = path.relative_to(ROOT).as_posix()
        if where in EXEMPT:
            continue
        for line, text in texts(path):
            for name in DOTTED.findall(text):
                if not exists(name):
                    found.append(f"{where}:{line}: {name}")
            for ref in PATH.findall(text):
                if ref.startswith(PLACEHOLDERS):
                    continue
                if not any((base / ref).exists() for base in (ROOT, PACKAGE, path.parent)):
                    found.append(f"{where}:{line}: {ref}")
    return found


def test_docstrings_and_comments_name_what_exists():
    missing = missing_references()
    assert not missing, "docstrings or comments name what does not exist:\n" + "\n".join(missing)


def test_the_checker_sees_a_missing_module_and_file(tmp_path):
    assert exists("tichusim.games.registry.GAMES")
    assert exists("tichusim.cards.parse")  # re-exported with ``from .notation import *``
    assert exists("tichusim.Round")  # a lazy name of the package's ``__getattr__``
    assert not exists("tichusim.games.registry.NO_SUCH_NAME")
    assert not exists("tichusim.no_such_module")
    assert not exists("tichusim.kernels.no_such_module")
    sample = tmp_path / "sample.py"
    sample.write_text('"""See ``tichusim.nope`` and kernels/nope.py."""\n# and tichusim.games\n')
    seen = [text for _, text in texts(sample)]
    assert [DOTTED.findall(t) for t in seen] == [["tichusim.games"], ["tichusim.nope"]]
    assert PATH.findall(seen[1]) == ["kernels/nope.py"]
