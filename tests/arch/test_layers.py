"""The layers' import rules (docs/architecture.md), read from the source of every module.

cli -> api -> (store, io) -> engine, and cli -> render -> engine; ``fscli.errors`` is
everyone's, and ``fscli.heap`` (holding the garbage collector off a command's data, a
process-level matter) everyone's but the engine's. The engine imports only the standard
library; no layer imports one above it; the API returns data and never formats it, so it
imports no renderer (the constants both need live in the engine). What the code still
does against the rules is listed in :data:`DEBT`, exactly: a new breach fails, and so does
an entry that no longer holds (remove it when the debt is paid).

No module imports itself through others (:func:`test_no_module_imports_itself`): a
circle means that neither module can be read, tested or moved without the other, and
that which one runs first depends on who imported first.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "fscli"

# layer -> fscli layers and third-party packages it may import (besides the standard
# library, fscli.errors and itself)
ALLOWED = {
    "engine": set(),
    "io": {"engine", "yaml"},
    "render": {"engine", "rich", "click", "matplotlib"},
    "store": {"engine", "sqlalchemy", "alembic"},
    "api": {"store", "io", "engine"},
    "cli": {"api", "io", "render", "engine", "click", "rich"},
}
FORBIDDEN_MODULES = {
    "cli": {"sqlite3"},
    "api": {"sqlite3"},
    "render": {"sqlite3"},
    "io": {"sqlite3"},
    "engine": {"sqlite3"},
}

DEBT = {}


def imports(typing: bool = True) -> dict[str, set[str]]:
    """module -> every module it imports (top level and inside functions); without
    ``typing``, those under ``if TYPE_CHECKING:`` left out (they never run). ``from
    PACKAGE import MODULE`` imports ``PACKAGE.MODULE``, ``from MODULE import NAME``
    imports ``MODULE``."""
    paths = {_module(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    out: dict[str, set[str]] = {}
    for module, path in paths.items():
        found = out.setdefault(module, set())
        for node in _nodes(ast.parse(path.read_text()), typing):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in paths else node.module)
    return out


def _module(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _nodes(tree: ast.AST, typing: bool):
    """The nodes of ``tree``, without the bodies of ``if TYPE_CHECKING:`` unless ``typing``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if not typing and isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "fscli" and len(parts) > 1 else None


def breaches() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for module, names in imports().items():
        own = layer(module)
        if own not in ALLOWED:
            continue
        for name in names:
            top = name.split(".")[0]
            if top == "fscli":
                other = layer(name)
                shared = ("errors",) if own == "engine" else ("errors", "heap")
                ok = other in (own, None, *shared) or other in ALLOWED[own]
            elif top in sys.stdlib_module_names:
                ok = top not in FORBIDDEN_MODULES.get(own, ())
            else:  # a third-party package
                ok = top in ALLOWED[own]
            if not ok:
                out.setdefault(module, set()).add(name)
    return out


def test_the_layers_import_only_what_they_may():
    found = breaches()
    new = {m: sorted(n - DEBT.get(m, set())) for m, n in found.items() if n - DEBT.get(m, set())}
    paid = {m: sorted(n - found.get(m, set())) for m, n in DEBT.items() if n - found.get(m, set())}
    assert new == {}, f"imports against the layer rules (docs/architecture.md): {new}"
    assert paid == {}, f"no longer imported: remove them from DEBT: {paid}"


def store_reexports(package: Path = PACKAGE) -> dict[str, set[str]]:
    """API module -> the names it binds, at its top level, to what it imports from
    ``fscli.store`` (a store module or one of its names)."""
    out: dict[str, set[str]] = {}
    for path in sorted((package / "api").rglob("*.py")):
        names = out.setdefault(_module(path, package), set())
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ImportFrom) and layer(node.module or "") == "store":
                names.update(alias.asname or alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                names.update(
                    alias.asname
                    for alias in node.names
                    if alias.asname and layer(alias.name) == "store"
                )
    return out


def store_names_reached(package: Path = PACKAGE) -> dict[str, set[str]]:
    """cli module -> the store names it imports through the API (``from fscli.api.M import
    N``, ``N`` bound in ``M`` to something of ``fscli.store``), anywhere in the module."""
    reexports = store_reexports(package)
    out: dict[str, set[str]] = {}
    for path in sorted((package / "cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module in reexports:
                for alias in node.names:
                    if alias.name in reexports[node.module]:
                        out.setdefault(_module(path, package), set()).add(
                            f"{node.module}.{alias.name}"
                        )
    return out


def test_the_cli_reaches_no_store_name_through_the_api():
    """The API hands the command line plain data and functions of its own; a store module
    or name it merely re-exports would be the store under another name (issue 32)."""
    assert store_names_reached() == {}


def test_a_store_name_reached_through_the_api_is_found(tmp_path):
    package = tmp_path / "fscli"
    sources = {
        "api/__init__.py": "",
        "api/reads.py": (
            "from fscli.store import lists as rows\n"
            "from fscli.store.snapshot import load_qos\n"
            "import fscli.store.tables as tables\n"
            "from fscli.engine.model import Qos\n"
            "def own():\n    from fscli.store.db import HEAD\n"
        ),
        "cli/__init__.py": "",
        "cli/show.py": (
            "from fscli.api.reads import Qos, own\n"
            "def run():\n    from fscli.api.reads import load_qos, rows\n"
        ),
        "cli/plain.py": "from fscli.api.reads import own\nimport fscli.api.reads\n",
    }
    for name, text in sources.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert store_reexports(package) == {
        "fscli.api": set(),
        "fscli.api.reads": {"rows", "load_qos", "tables"},
    }
    assert store_names_reached(package) == {
        "fscli.cli.show": {"fscli.api.reads.load_qos", "fscli.api.reads.rows"}
    }


def test_the_engine_imports_the_standard_library_only():
    for module, names in imports().items():
        if layer(module) == "engine":
            outside = {
                n
                for n in names
                if n.split(".")[0] != "fscli" and n.split(".")[0] not in sys.stdlib_module_names
            }
            inside = {
                n
                for n in names
                if layer(n) not in (None, "engine", "errors") and n.startswith("fscli.")
            }
            assert (module, outside | inside) == (module, set())


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, by
    iteration): each is a set of modules that import one another round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def runtime_graph() -> dict[str, set[str]]:
    """fscli module -> the fscli modules it imports when it runs (not for type checking),
    with the packages that importing them runs first (``fscli.cli.sacctmgr`` before
    ``fscli.cli.sacctmgr.add``) but the module's own (already running)."""
    found = imports(typing=False)
    graph: dict[str, set[str]] = {}
    for module, names in found.items():
        own = _packages(module) | {module}
        graph[module] = {
            m for name in names if name in found for m in _packages(name) | {name} if m not in own
        }
    return graph


def _packages(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_no_module_imports_itself():
    assert circles(runtime_graph()) == []


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
