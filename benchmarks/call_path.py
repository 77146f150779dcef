"""The path of a first gradient through the library: which modules run, and how many Python calls.

    python benchmarks/call_path.py

Runs, once to warm up and once watched by ``sys.setprofile``::

    x, y = mt.Variable(3.0), mt.Variable(2.0)
    with mt.GradientTape() as tape:
        z = x * y
    tape.gradient(z, [x, y])

and prints each of minitape's modules that a Python function of it ran in, with the functions
and the number of calls. A reader following ``x * y`` and ``tape.gradient`` through the source
opens these files; fewer is easier (the count is of Python calls, so NumPy's own work is not in it).
"""

import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))  # minitape from this checkout

import minitape as mt

PACKAGE = pathlib.Path(mt.__file__).parent


def product_and_gradient(x, y):
    with mt.GradientTape() as tape:
        z = x * y
    return tape.gradient(z, [x, y])


def calls_on_the_path():
    """{(module path, function name): calls} of minitape's Python functions during one product and gradient."""
    x, y = mt.Variable(3.0), mt.Variable(2.0)
    product_and_gradient(x, y)  # warm: nothing is imported or cached on the measured run
    calls = collections.Counter()

    def watch(frame, event, arg):
        if event == "call":
            path = pathlib.Path(frame.f_code.co_filename)
            if path.is_relative_to(PACKAGE):
                calls[path.relative_to(PACKAGE).as_posix(), frame.f_code.co_name] += 1

    sys.setprofile(watch)
    try:
        product_and_gradient(x, y)
    finally:
        sys.setprofile(None)
    return calls


def main():
    calls = calls_on_the_path()
    modules = sorted({module for module, _ in calls})
    print(f"x * y and tape.gradient: {len(modules)} modules, {sum(calls.values())} Python calls")
    for module in modules:
        functions = {name: n for (m, name), n in calls.items() if m == module}
        print(f"  {module:<28} {sum(functions.values()):>3}  {', '.join(sorted(functions))}")


if __name__ == "__main__":
    main()
