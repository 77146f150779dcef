"""The library's modules import each other without cycles, at any level, and each one imports on its own.

A cycle (a module importing one that imports it back) works only if every module of the cycle happens
to need the others' names late enough; a reader cannot follow such an order, and a new import can break
it. An import inside a function is no exception: it only hides the cycle from the reader until the
function runs. So the graph is read from the source with ``ast``, from every ``import`` and ``from ...
import`` statement anywhere in a module (at module level, in functions, in classes) that names a
minitape module.

Packages: ``from .ops import zeros`` is an edge to the package ``minitape.ops``, and a package's
``__init__.py`` has edges to the modules it gathers, so the path goes on through them; ``from . import
tape`` is an edge to the module ``minitape.tape`` itself. ``minitape/__init__.py`` imports everything,
so a module that imported the package ``minitape`` would close a cycle: none may.
"""

import ast
import pathlib
import subprocess
import sys

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "minitape"


def _module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name, source, is_package=False):
    """The minitape modules that module ``name`` (of text ``source``) imports anywhere in it."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for s in ast.walk(ast.parse(source)):
        if isinstance(s, ast.Import):
            found |= {a.name for a in s.names}
        elif isinstance(s, ast.ImportFrom):
            base = package
            for _ in range(s.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{s.module}" if s.level and s.module else base if s.level else s.module
            for alias in s.names:  # `from . import tape` imports the module minitape.tape
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path.read_text(), path.name == "__init__.py") for name, path in MODULES.items()}


def cycles(graph):
    """The groups of modules that reach each other through imports (strongly connected components of more
    than one module), each sorted; Tarjan's algorithm, written as a loop."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []
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
            if child is None:
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
                        groups.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(groups)


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    inside_a_function = "def f():\n    from .tape import GradientTape\n"
    assert _imports("minitape.numeric", inside_a_function) == {"minitape.tape"}
    assert _imports("minitape.ops", "from . import shapes\nfrom .. import tape\n", is_package=True) == {
        "minitape.ops.shapes", "minitape.tape"}
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_is_read_from_every_module():
    assert GRAPH["minitape"] >= {"minitape.tape", "minitape.ops"}
    assert GRAPH["minitape.ops"] >= {"minitape.ops.shapes", "minitape.ops.operators"}
    assert GRAPH["minitape.ops.operators"] >= {"minitape.ops.arguments", "minitape.tensor"}


def test_no_import_cycle_at_any_level():
    found = cycles(GRAPH)
    assert found == [], "import cycles (modules that import each other, at any level):\n" + "\n".join(
        " <-> ".join(group) for group in found)


def test_each_module_imports_first_in_a_fresh_interpreter():
    """Each module imported first (so its own imports run first): NumPy stays loaded, minitape is forgotten.

    Importing ``minitape.a.b`` runs ``minitape``'s and ``minitape.a``'s ``__init__`` first, so every module that
    an import loaded was loaded exactly as it would be if it were asked for first: only the modules not loaded
    yet need a fresh start of their own (a handful, not one per module).
    """
    names = sorted(n for n in MODULES if not f"{n}.".startswith("minitape.viz.") or _has("graphviz"))
    script = ("import importlib, sys, numpy\n"
              "left = sys.argv[1:]\n"
              "while left:\n"
              "    name = left.pop(0)\n"
              "    for loaded in [m for m in sys.modules if m == 'minitape' or m.startswith('minitape.')]:\n"
              "        del sys.modules[loaded]\n"
              "    try:\n"
              "        importlib.import_module(name)\n"
              "    except Exception as e:\n"
              "        print(name, type(e).__name__, e)\n"
              "    left = [n for n in left if n not in sys.modules]\n")
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


def test_no_two_modules_share_a_name():
    """A module's name says which one it is: ``ops/linalg.py`` beside ``linalg.py`` (``mt.linalg``), or
    ``ops/losses.py`` beside ``keras/losses.py``, would leave a reader asking which one is meant."""
    stems = [path.stem for path in MODULES.values() if path.stem != "__init__"]
    assert sorted({stem for stem in stems if stems.count(stem) > 1}) == []
