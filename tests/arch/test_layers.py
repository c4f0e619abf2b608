"""The layers' import rules (docs/architecture.md), read from the source of every module.

cli -> api -> (store, io, render) -> engine; ``fscli.errors`` is everyone's, and
``fscli.heap`` (holding the garbage collector off a command's data, a process-level
matter) everyone's but the engine's. The engine imports only the standard library; no
layer imports one above it. What the code still
does against the rules is listed in :data:`DEBT`, exactly: a new breach fails, and so does
an entry that no longer holds (remove it when the debt is paid).
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
    "api": {"store", "io", "render", "engine"},
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


def imports() -> dict[str, set[str]]:
    """module -> every module it imports (top level and inside functions)."""
    out: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found = out.setdefault(module, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
    return out


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
