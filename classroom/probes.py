"""What a probe uses: run a learner's answer on public test cases and report what it observed.

A check looks at an answer through a *probe*: a public function ``probe(answer, *case)`` that runs the
answer on one test case and returns what it observed, as a list of ``Slot``s (or one plain value). The
check compares each observation with the hash of the right one (``classroom.judge``), so a probe never
holds an expected value: it only says what to look at, and what to say when that is wrong. A probe stops
early by raising ``Wrong("a sentence")`` when the answer is wrong in kind, and ``NotAnswered`` while the
learner's ``...`` is still there; ``call`` runs the learner's function and raises the right one of these.

>>> def stub(x):
...     return ...  # replace the ... with your code
>>> is_placeholder(stub), is_placeholder(lambda x: 2 * x)
(True, False)
>>> call(lambda x: 2 * x, 3)
6
>>> try:
...     call(stub, 3)
... except NotAnswered:
...     print("not answered yet")
not answered yet
"""

import ast
import dis
import inspect
import textwrap

import numpy as np

MORE = "on test case {case} of {cases} its result is wrong in this way: {}"  # the default lead-in of a result
ONE = "its result is wrong in this way: {}"  # the same when the exercise has one test case


class NotAnswered(Exception):
    """The learner's ``...`` is still in the answer."""


class Wrong(Exception):
    """The answer is wrong in a way the probe can say in a sentence (never with the expected value)."""


class ReturnedNone(Exception):
    """The learner's function returned None; the check says why that happens (a missing return, a gradient)."""


class Raised(Exception):
    """The learner's function raised ``error``; ``what`` names the call ("divide(Dual(1, 2), Dual(3, 0))")."""

    def __init__(self, error, what=None):
        super().__init__(error)
        self.error, self.what = error, what


class Slot:
    """One observation of a probe: ``value``, and what to say when it is wrong.

    ``says`` may hold ``{}``, replaced by what is wrong in kind ("the sign is wrong"), and ``{case}``,
    ``{cases}``, the test case's number and their count. ``exact`` compares the value exactly (an int, a
    string, a shape) rather than within the tolerance; None lets the kind of the right value decide.
    """

    def __init__(self, value, says=None, exact=None):
        self.value, self.says, self.exact = value, says, exact

    def __repr__(self):
        return f"Slot({self.value!r}, {self.says!r})"


def is_placeholder(function):
    """Whether a function is the skeleton the learner was given: its body is only ``...`` or ``return ...``.

    A body of ``pass`` is not a skeleton: it returns None, and the check says so as for a missing ``return``.

    >>> def given(x):
    ...     ...
    >>> def empty(x):
    ...     pass
    >>> is_placeholder(given), is_placeholder(empty)
    (True, False)
    """
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP")]
    if steps in ([("LOAD_CONST", ...), ("RETURN_VALUE", None)], [("RETURN_CONST", ...)]):
        return True
    if steps not in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)]) \
            or function.__name__ == "<lambda>":
        return False
    # `...` and `pass` compile alike: only the source tells them apart (a notebook cell's is always at hand).
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return True
    body = tree.body[0].body if tree.body and hasattr(tree.body[0], "body") else []
    return all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
               and (s.value.value is ... or isinstance(s.value.value, str)) for s in body)


def class_is_placeholder(cls):
    """Whether every function a class defines is a skeleton (a class stub such as ``Dense`` before it is written)."""
    functions = [f for f in vars(cls).values() if hasattr(f, "__code__")]
    functions += [p.fget for p in vars(cls).values() if isinstance(p, property) and p.fget is not None]
    return bool(functions) and all(is_placeholder(f) for f in functions)


def call(function, *args, what=None, **kwargs):
    """``function(*args, **kwargs)``, for a probe: ``NotAnswered``, ``ReturnedNone`` and ``Raised`` say what went wrong.

    An error that names the ellipsis means the learner's ``...`` reached an operation: not answered yet.
    """
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # the learner's code failed: the check says how, and never breaks the notebook
        if "ellipsis" in str(error).lower():
            raise NotAnswered from None
        raise Raised(error, what) from None
    if result is ...:
        raise NotAnswered
    if result is None:
        raise ReturnedNone
    return result


def parts(answer, *names):
    """The objects called ``names`` where ``answer`` was defined (the learner's notebook, for a tape's parts).

    A learner builds some exercises from several cells (a tape's Value, record and ops): the parts an
    answer works with are the ones of the namespace it was defined in.

    >>> def mul(a, b):
    ...     return a * b
    >>> parts(mul, "mul")[0] is mul
    True
    """
    if isinstance(answer, type):
        functions = [f for f in vars(answer).values() if hasattr(f, "__globals__")]
        scope = functions[0].__globals__ if functions else {}
    else:
        scope = getattr(answer, "__globals__", {})
    missing = [name for name in names if name not in scope]
    if missing:
        raise Wrong(f"run the cells that define {', '.join(missing)} first")
    return [scope[name] for name in names]


def call_with(function, *args):
    """The default probe: the function's result on the case's arguments."""
    return call(function, *_copies(args))


def _copies(args):
    """The arguments, with arrays copied, so that a learner's function cannot change the test's inputs."""
    return tuple(arg.copy() if isinstance(arg, np.ndarray) else arg for arg in args)
