"""The documentation cannot point at what does not exist: README.md and docs/*.md.

- every dotted name ``tichusim.…`` (prose or code) and every backticked ``module.name`` or
  ``Class.name`` reference to tichusim code names something that exists. Names are resolved
  from the sources with ``ast`` (top-level definitions, imports followed, class bodies), never by
  importing: a kernel module compiles as it loads. A name in quotes (``"tichusim.options"``, a
  Parquet metadata key) is a string, not a reference;
- every ``tichusim <command>`` in a fenced block is a command of ``tichusim.cli`` and every
  ``--option`` after it one of that command's;
- every backticked repository path to a ``.py``, ``.toml`` or ``.md`` file exists, and every
  relative link of README.md.

The site's strict build (``mkdocs build --strict``: a broken link or anchor, a page missing from
the nav) is a step of ``scripts/check``, before the tests.
"""

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tichusim"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"(?<![\w./\"'-])tichusim(?:\.[A-Za-z_]\w*)+")
REFERENCE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
FILE_ENDINGS = {"py", "md", "toml", "json", "csv", "png", "parquet", "txt", "yml", "yaml", "sh"}


def text_of(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return FENCE.sub("", text)


def fenced(text: str) -> list[tuple[str, str]]:
    """(info string, body) of each fenced block."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE.finditer(text)]


# --- names, resolved from the sources ---------------------------------------------------------


def module_path(dotted: str) -> Path | None:
    """The source file of module ``tichusim.a.b``, or None."""
    parts = dotted.split(".")
    if parts[0] != "tichusim":
        return None
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _bound(body: list[ast.stmt]) -> dict[str, ast.AST]:
    """The names a module or class body binds (into if/try/with blocks too), each to its node."""
    names: dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names[leaf.id] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = node
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            for handler in getattr(node, "handlers", []):
                inner += handler.body
            names.update(_bound(inner))
    return names


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _literal(body: list[ast.stmt], name: str):
    node = _bound(body).get(name)
    if isinstance(node, ast.Assign):
        try:
            return ast.literal_eval(node.value)
        except ValueError:
            return None
    return None


def find(module: str, name: str, seen=frozenset()):
    """What ``name`` is in module ``module``: ("module", dotted), ("node", node, module) or
    None. Follows imports, star imports and a lazy ``__getattr__`` over ``_HOMES``."""
    key = (module, name)
    if key in seen:
        return None
    seen = seen | {key}
    path = module_path(module)
    if path is None:
        return None
    if module_path(f"{module}.{name}"):
        return ("module", f"{module}.{name}")
    is_package = path.name == "__init__.py"
    body = tree_of(path).body
    node = _bound(body).get(name)
    if isinstance(node, ast.ImportFrom):
        source = _absolute(module, node, is_package)
        alias = next(a for a in node.names if (a.asname or a.name) == name)
        return find(source, alias.name, seen) if source.startswith("tichusim") else ("node", node)
    if isinstance(node, ast.Import):
        return ("module", name) if module_path(name) else ("node", node, module)
    if node is not None:
        return ("node", node, module)
    for star in (n for n in body if isinstance(n, ast.ImportFrom)):
        if any(a.name == "*" for a in star.names):
            found = find(_absolute(module, star, is_package), name, seen)
            if found:
                return found
    if "__getattr__" in _bound(body):  # a lazy package: tichusim/__init__.py
        homes = _literal(body, "_HOMES") or {}
        if name in homes:
            return find(f"{module}.{homes[name]}", name, seen)
        if name in (_literal(body, "_SUBPACKAGES") or ()):
            return ("module", f"{module}.{name}")
    return None


def _class_member(cls: ast.ClassDef, module: str, name: str, seen=frozenset()) -> bool:
    if name in _bound(cls.body):
        return True
    # an attribute set in a method (self.name = ...)
    for node in ast.walk(cls):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and node.attr == name
        ):
            return True
    for base in cls.bases:
        if isinstance(base, ast.Name) and (base.id, module) not in seen:
            found = find(module, base.id)
            if found and found[0] == "node" and isinstance(found[1], ast.ClassDef):
                if _class_member(found[1], found[2], name, seen | {(base.id, module)}):
                    return True
    return False


def resolves(dotted: str) -> bool:
    """Whether ``tichusim.a.b.c`` names a module, or a definition in one (a class's members
    included)."""
    parts = dotted.split(".")
    if parts[0] != "tichusim":
        return False
    found = ("module", "tichusim")
    for part in parts[1:]:
        if found[0] == "module":
            found = find(found[1], part)
        elif isinstance(found[1], ast.ClassDef):
            if not _class_member(found[1], found[2], part):
                return False
            found = ("member",)
        else:  # an attribute of a function, a constant or a member: not checked statically
            return False
        if found is None:
            return False
    return True


@functools.cache
def modules() -> dict[str, list[str]]:
    """Every module of the package by its last name (``batch`` -> both families' batch)."""
    found: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.setdefault(dotted.split(".")[-1], []).append(dotted)
    return found


@functools.cache
def classes() -> dict[str, list[str]]:
    """Every top-level class of the package by name, with its module."""
    found: dict[str, list[str]] = {}
    for dotted_list in modules().values():
        for dotted in dotted_list:
            for node in tree_of(module_path(dotted)).body:
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).append(f"{dotted}.{node.name}")
    return found


def candidates(reference: str) -> list[str] | None:
    """The full names a backticked ``a.b`` may mean, or None when it is no tichusim reference
    (``pd.read_parquet``, ``config.json``)."""
    parts = reference.split(".")
    if parts[-1] in FILE_ENDINGS:
        return None
    if parts[0] == "tichusim":
        return [reference]
    heads = modules().get(parts[0], []) + classes().get(parts[0], [])
    return [".".join([head, *parts[1:]]) for head in heads] or None


def references(page: Path) -> list[tuple[str, list[str]]]:
    text = text_of(page)
    found = [(m.group(0), [m.group(0)]) for m in DOTTED.finditer(text)]
    for token in INLINE.findall(prose(text)):
        token = re.sub(r"\(.*\)$", "", token.strip())
        if REFERENCE.fullmatch(token) and (names := candidates(token)):
            found.append((token, names))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_named_code_exists(page):
    missing = sorted(
        {token for token, names in references(page) if not any(resolves(name) for name in names)}
    )
    assert not missing, f"{page.name} names code that does not exist: {missing}"


def test_the_resolver_tells_names_apart():
    """The checker itself: real names of each kind pass, invented ones fail."""
    for name in (
        "tichusim.simulate",
        "tichusim.cards.format",
        "tichusim.Round.advance",
        "tichusim.games.steps.Round.advance",
        "tichusim.strategies.DEFAULT_STRATEGY",
        "tichusim.kernels.tichu.batch",
        "tichusim.pettingzoo.env",
        "tichusim.Agent.base",
    ):
        assert resolves(name), name
    for name in (
        "tichusim.simulat",
        "tichusim.cards.formats",
        "tichusim.Agent.pass_cards",
        "tichusim.games.stepz",
        "tichusim.kernels.tichu.batch.NOPE",
    ):
        assert not resolves(name), name
    assert candidates("pd.read_parquet") is None and candidates("config.json") is None


# --- commands ---------------------------------------------------------------------------------

COMMAND = re.compile(r"(?<![\w./-])tichusim[ \t]+([a-z][a-z0-9-]*)(.*)")


def shown_commands(page: Path) -> list[tuple[str, list[str]]]:
    """(command, --options) of every ``tichusim <command>`` in a fenced block: each command of
    a line (``a && b``, ``a | b``, ``a; b``) on its own."""
    shown = []
    for _, body in fenced(text_of(page)):
        for line in body.splitlines():
            line = re.sub(r"\"[^\"]*\"|'[^']*'", "ARG", line)  # quoted arguments
            for part in re.split(r"&&|\|\||;|\|", line):
                m = COMMAND.search(part)
                if m is None or re.search(r"\b(import|from)\s+$", part[: m.start()]):
                    continue  # none, or Python's: from tichusim import ...
                shown.append((m.group(1), re.findall(r"(?<!\S)(--[a-z][\w-]*)", m.group(2))))
    return shown


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shown_commands_exist(page):
    from tichusim.cli import main  # click and the package's light modules only

    wrong = []
    for command, options in shown_commands(page):
        cli = main.commands.get(command)
        if cli is None:
            wrong.append(f"tichusim {command}")
            continue
        known = {o for p in cli.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}
        wrong += [f"tichusim {command} {o}" for o in options if o not in known]
    assert not wrong, f"{page.name} shows commands or options tichusim does not have: {wrong}"


def test_every_command_is_shown_somewhere():
    """A command added to the CLI gets an example in the docs (docs/commands.md)."""
    shown = {command for page in PAGES for command, _ in shown_commands(page)}
    from tichusim.cli import main

    assert not set(main.commands) - shown, set(main.commands) - shown


# --- files and links --------------------------------------------------------------------------

PATH = re.compile(r"[\w./-]+/[\w.-]+\.(?:py|toml|md)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_named_files_exist(page):
    """A backticked path: from the repository root, or inside the package (``games/steps.py``)."""
    missing = sorted(
        {
            token
            for token in INLINE.findall(prose(text_of(page)))
            if PATH.fullmatch(token)
            and not (ROOT / token).exists()
            and not (PACKAGE / token).exists()
        }
    )
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def test_readme_links_exist():
    """README.md is outside the site (the strict build checks docs/): its relative links."""
    text = prose(text_of(ROOT / "README.md"))
    targets = {
        t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)
    }
    missing = sorted(t for t in targets if t and not (ROOT / t).exists())
    assert not missing, f"README.md links to files that do not exist: {missing}"
