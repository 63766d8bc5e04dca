"""What the code digest covers, and docs/architecture.md's module table held to the tree; no
circle of imports of more than two modules, type-only imports counted. The import layers are
enforced by ``lint-imports``, a step of ``scripts/check`` before the tests."""

import ast
import re
import shutil
import tomllib
from pathlib import Path

import grimp
import pytest

from tichusim.runs import manifest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tichusim"


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    copy = tmp_path_factory.mktemp("pkg") / "tichusim"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _data_files(package: Path) -> list[Path]:
    return sorted(p for folder in manifest.DATA_FOLDERS for p in (package / folder).rglob("*.py"))


def test_code_digest_depends_on_sources_not_location(package_copy):
    assert manifest.code_digest(package_copy) == manifest.code_digest()


def test_editing_any_data_source_changes_the_code_digest(package_copy):
    """A resumed run must never mix shards of two code versions: every module of the folders
    that make data (kernels, cards, strategies, games, runs) is covered, new ones included."""
    before = manifest.code_digest(package_copy)
    files = _data_files(package_copy)
    assert len(files) > 40
    for folder in manifest.DATA_FOLDERS:
        assert any(p.parent.relative_to(package_copy).parts[:1] == (folder,) for p in files)
    for path in files:
        text = path.read_bytes()
        path.write_bytes(text + b"\n# edited\n")
        try:
            assert manifest.code_digest(package_copy) != before, path
        finally:
            path.write_bytes(text)
    new = package_copy / "games" / "brand_new_module.py"
    new.write_text("X = 1\n")
    try:
        assert manifest.code_digest(package_copy) != before
    finally:
        new.unlink()
    assert manifest.code_digest(package_copy) == before


def test_the_reading_layer_is_outside_the_digest(package_copy):
    """Reports and the CLI read data without making it: editing them keeps resumes possible."""
    before = manifest.code_digest(package_copy)
    for path in sorted(
        [*(package_copy / "cli").rglob("*.py"), *(package_copy / "analysis").rglob("*.py")]
    ):
        text = path.read_bytes()
        path.write_bytes(text + b"\n# edited\n")
        try:
            assert manifest.code_digest(package_copy) == before, path
        finally:
            path.write_bytes(text)


def _module_table() -> dict[str, set[str]]:
    """docs/architecture.md's module table: folder (``tichusim/games/``) -> the modules its
    row names."""
    rows: dict[str, set[str]] = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not re.fullmatch(r"`tichusim/[\w/]*`", cells[0]):
            continue
        folder = cells[0].strip("`")
        assert folder not in rows, f"{folder} has two rows in docs/architecture.md"
        rows[folder] = set(re.findall(r"`(\w+\.py)`", " ".join(cells[1:])))
    return rows


def test_the_architecture_page_lists_exactly_the_packages_modules():
    package: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tichusim").rglob("*.py")):
        if path.name != "__init__.py":
            package.setdefault(path.parent.relative_to(ROOT).as_posix() + "/", set()).add(path.name)
    rows = _module_table()
    assert sorted(rows) == sorted(package), "the folders of docs/architecture.md's table"
    for folder, modules in package.items():
        assert rows[folder] == modules, (
            f"docs/architecture.md, {folder}: lists {sorted(rows[folder] - modules)} that do not "
            f"exist and misses {sorted(modules - rows[folder])}"
        )


def _circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The modules of ``graph`` that import each other round a circle: its strongly connected
    components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def imported(module: str):
        return iter(sorted(graph.find_modules_directly_imported_by(module)))

    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, imported(root))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, edges = work[-1]
            for other in edges:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def _graph(edges: list[tuple[str, str]]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in edges:
        graph.add_import(importer=importer, imported=imported)
    return graph


def test_the_circle_finder_finds_circles():
    found = _circles(_graph([("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]))
    assert found == [{"p.a", "p.b", "p.c"}]
    found = _circles(_graph([("p.a", "p.b"), ("p.b", "p.a"), ("p.c", "p.d"), ("p.d", "p.e")]))
    assert found == [{"p.a", "p.b"}]
    assert _circles(_graph([("p.a", "p.b"), ("p.b", "p.c"), ("p.a", "p.c")])) == []


@pytest.fixture(scope="module")
def package_graph() -> grimp.ImportGraph:
    """The package's imports, those under ``if TYPE_CHECKING:`` and inside functions too."""
    return grimp.build_graph("tichusim", exclude_type_checking_imports=False)


def test_no_import_circle_of_more_than_two_modules(package_graph):
    """A module can be read from the ones it imports: no circle of imports of more than two
    modules, even of imports for types alone (a game and its Steps may name each other)."""
    big = [sorted(c) for c in _circles(package_graph) if len(c) > 2]
    assert not big, f"import circles of more than two modules: {big}"


def test_every_circle_of_two_is_named_in_the_import_contracts(package_graph):
    """Each circle of two modules is one the acyclic contract in pyproject.toml names (one of
    its imports in ``ignore_imports``), so none comes in unseen."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    ignored = {
        tuple(line.split(" -> "))
        for contract in contracts["contracts"]
        if contract["type"] == "acyclic_siblings"
        for line in contract.get("ignore_imports", ())
    }
    for circle in _circles(package_graph):
        a, b = sorted(circle)
        assert {(a, b), (b, a)} & ignored, f"{a} and {b} import each other, unnamed"


def test_function_level_imports_in_games_say_which_circle_they_break():
    """An import inside a function of ``tichusim/games/`` is there to break a circle of imports,
    and its line's comment says which."""
    for path in sorted((PACKAGE / "games").glob("*.py")):
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    line = lines[sub.lineno - 1]
                    assert "#" in line, f"{path.name}:{sub.lineno}: {line.strip()} (why here?)"


def _prose_list(opening: str) -> set[str]:
    """The files named in the paragraph of docs/architecture.md that begins ``opening``."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    start = text.index(opening)
    paragraph = text[start : text.find("\n\n", start)]
    return set(re.findall(r"`([\w.]+)`", paragraph)) - {"tests/test_architecture.py"}


@pytest.mark.parametrize(
    ("folder", "opening"),
    [
        ("benchmarks", "The benchmarks are in `benchmarks/`"),
        ("scripts", "The scripts in `scripts/`"),
    ],
)
def test_the_architecture_page_lists_exactly_the_benchmarks_and_scripts(folder, opening):
    files = {
        p.name
        for p in (ROOT / folder).iterdir()
        if p.is_file() and (p.suffix == ".py" or p.name == "check")
    }
    named = {name for name in _prose_list(opening) if "." in name or name == "check"}
    assert named == files, (
        f"docs/architecture.md, {folder}/: names {sorted(named - files)} that do not exist and "
        f"misses {sorted(files - named)}"
    )
