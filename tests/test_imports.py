"""The library's modules import each other without cycles, and each one imports on its own.

A cycle at module level (a module importing one that imports it back) works only if every module of the
cycle happens to need the others' names late enough; a reader cannot follow such an order, and a new
import can break it. The graph is read from the source with ``ast``: every import statement at module
level (not inside a function) that names a minitape module.
"""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "minitape"


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name, path):
    """The minitape modules that module ``name`` imports at module level."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text()).body:  # module level only: imports inside functions run late
        statements = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))] \
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else []
        for s in statements:
            if isinstance(s, ast.Import):
                found |= {a.name for a in s.names}
                continue
            base = package
            for _ in range(s.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{s.module}" if s.level and s.module else base if s.level else s.module
            for alias in s.names:  # `from . import tape` imports the module minitape.tape
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


def test_the_module_level_import_graph_has_no_cycle():
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    assert graph["minitape"] >= {"minitape.tape", "minitape.ops"}  # the reader sees the imports at all
    done, on_path = set(), []

    def visit(name):  # depth first; a module met again on the current path closes a cycle
        if name in on_path:
            cycle = on_path[on_path.index(name):] + [name]
            pytest.fail(f"import cycle: {' -> '.join(cycle)}")
        if name in done:
            return
        on_path.append(name)
        for imported in sorted(graph[name]):
            visit(imported)
        on_path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


def test_each_module_imports_first_in_a_fresh_interpreter():
    """Each module imported first (so its own imports run first): NumPy stays loaded, minitape is forgotten."""
    names = sorted(n for n in MODULES if n != "minitape.viz" or _has("graphviz"))
    script = ("import importlib, sys, numpy\n"
              "for name in sys.argv[1:]:\n"
              "    for loaded in [m for m in sys.modules if m == 'minitape' or m.startswith('minitape.')]:\n"
              "        del sys.modules[loaded]\n"
              "    try:\n"
              "        importlib.import_module(name)\n"
              "    except Exception as e:\n"
              "        print(name, type(e).__name__, e)\n")
    result = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True,
                            cwd=PACKAGE.parent, timeout=300)
    assert result.returncode == 0 and result.stdout == "", \
        f"modules that fail to import first:\n{result.stdout}{result.stderr}"


def _has(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True
