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

# cli module -> the store names it still reaches through an API module's re-export
# ("fscli.api.MODULE.NAME"): the listings and dump, until their reads are API functions
REEXPORT_DEBT = {
    "fscli.cli.sacctmgr.show": {"fscli.api.sacctmgr.queries", "fscli.api.sacctmgr.slurmdbd_txn"},
    "fscli.cli.sacctmgr.files": {"fscli.api.sacctmgr.queries"},
}


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


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
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


def store_names_through_api() -> dict[str, set[str]]:
    """cli module -> the ``fscli.api.MODULE.NAME`` it imports that are store modules or
    objects the store defines: the layer rule read through a re-export, which the import
    graph alone does not see."""
    import importlib

    out: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module(path)
        if layer(module) != "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module):
                continue
            if layer(node.module) != "api":
                continue
            source = importlib.import_module(node.module)
            for alias in node.names:
                found = getattr(source, alias.name, None)
                origin = getattr(found, "__name__", None) if isinstance(found, type(ast)) else None
                origin = origin or getattr(found, "__module__", None) or ""
                if layer(origin) == "store":
                    out.setdefault(module, set()).add(f"{node.module}.{alias.name}")
    return out


def test_the_cli_reaches_no_store_name_through_the_api():
    found = store_names_through_api()
    debt = REEXPORT_DEBT
    new = {m: sorted(n - debt.get(m, set())) for m, n in found.items() if n - debt.get(m, set())}
    paid = {m: sorted(n - found.get(m, set())) for m, n in debt.items() if n - found.get(m, set())}
    assert new == {}, f"store names reached through the API (docs/architecture.md): {new}"
    assert paid == {}, f"no longer reached: remove them from REEXPORT_DEBT: {paid}"


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
