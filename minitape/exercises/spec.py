"""The kinds of exercise answer, as the lessons' answers files declare them.

Each spec names the learner's variable (or function) that the exercise asks for, knows how to judge
an answer and carries the hints, nudge first. ``spec.problem(answer)`` is None when the answer is
right, ``...`` when it is not given yet, else a sentence saying what is wrong in kind:

>>> spec = value("dy_dx", expected=12.0, hints=["Use the power rule."])
>>> print(spec.problem(12.0))
None
>>> spec.problem(-12.0)
'the sign is wrong'
>>> choice("mode", expected="reverse", options=["forward", "reverse"]).problem("sideways")
"answer one of: 'forward', 'reverse'"
"""

import dis
import math

import numpy as np

from .feedback import NONE_ANSWER, article, diagnose


class Spec:
    """One exercise: the learner's name, how to judge an answer, and the hints."""

    def __init__(self, name, judge, hints):
        if isinstance(hints, str):
            raise TypeError(f"hints of {name!r} must be a list of sentences, nudge first; got one string")
        self.name, self.judge, self.hints = name, judge, list(hints)

    def problem(self, answer):
        """None if right, ``...`` if not answered yet, else what is wrong (a sentence without the answer)."""
        if answer is ...:
            return ...
        return self.judge(answer)

    def __repr__(self):
        return f"<exercise answer {self.name!r}>"


def value(name, expected, rtol=1e-6, atol=1e-12, hints=(), mistakes=()):
    """A number, list, array or tensor, compared within ``rtol``/``atol``.

    ``mistakes`` are ``(wrong value, sentence)`` pairs for typical slips: an answer equal to a wrong value
    gets its sentence (say what the slip is, never the right value) instead of the general diagnosis.
    """
    def judge(answer):
        problem = diagnose(answer, expected, rtol, atol)
        if problem is None or not mistakes:
            return problem
        return next((sentence for wrong, sentence in mistakes if diagnose(answer, wrong, rtol, atol) is None),
                    problem)
    return Spec(name, judge, hints)


def choice(name, expected, options=None, hints=()):
    """An exact answer (a string, an int, a tuple such as a shape); ``options`` are listed when it is not one."""
    def judge(answer):
        given = answer.strip() if isinstance(answer, str) else answer
        if isinstance(expected, tuple) and isinstance(given, list):
            given = tuple(given)
        if isinstance(expected, tuple) and hasattr(given, "as_list"):  # a TensorShape
            given = tuple(given.as_list())
        if options is not None and not any(_same(given, option) for option in options):
            return "answer one of: " + ", ".join(repr(option) for option in options)
        if _same(given, expected):
            return None
        if options is None and type(given) is not type(expected) and not _both_numbers(given, expected):
            return f"it is {article(type(answer).__name__)}, the exercise asks for {article(type(expected).__name__)}"
        return "that is not the right answer"
    return Spec(name, judge, hints)


def function(name, reference, inputs, rtol=1e-6, atol=1e-12, hints=()):
    """A function, called on each argument tuple of ``inputs`` and compared with ``reference(*args)``."""
    def judge(answer):
        if not callable(answer):
            return f"it is {article(type(answer).__name__)}, not a function: define it with def {name}(...)"
        if is_placeholder(answer):
            return ...
        for case, args in enumerate(inputs, 1):
            args = args if isinstance(args, tuple) else (args,)
            try:
                result = answer(*_copies(args))
            except Exception as error:  # the learner's code failed: say how, never crash the notebook
                if "ellipsis" in str(error).lower():
                    return ...
                return f"calling it on test case {case} raised {type(error).__name__}: {error}"
            if result is ...:
                return ...
            if result is None:
                return (f"it returned None on test case {case}: is its return statement missing? If it returns a "
                        f"gradient: {NONE_ANSWER.removeprefix('it is None. ')}")
            problem = diagnose(result, reference(*_copies(args)), rtol, atol)
            if problem:
                return f"on test case {case} of {len(inputs)} its result is wrong in this way: {problem}"
        return None
    return Spec(name, judge, hints)


def expression(name, expected, symbols, hints=()):
    """A SymPy expression in ``symbols``, compared symbolically (and, if SymPy cannot decide, at sample points)."""
    def judge(answer):
        import sympy  # a course dependency only, so imported when an expression is judged

        if not isinstance(answer, sympy.Basic):
            return f"it is {article(type(answer).__name__)}, the exercise asks for a SymPy expression"
        extra = answer.free_symbols - set(symbols)
        if extra:
            return "it uses symbols the exercise does not: " + ", ".join(sorted(map(str, extra)))
        if _equal(sympy, answer, expected, symbols):
            return None
        if _equal(sympy, -answer, expected, symbols):
            return "the sign is wrong"
        ratio = sympy.simplify(answer / expected) if expected != 0 else None
        if ratio is not None and not ratio.free_symbols and ratio != 0:
            return "it is off by a constant factor"
        return "the expression is wrong"
    return Spec(name, judge, hints)


def predicate(name, test, hints=()):
    """An answer judged by ``test(answer)``: None when right, ``...`` when not given yet, else a sentence."""
    def judge(answer):
        try:
            return test(answer)
        except Exception as error:  # the learner's code failed inside the test
            if "ellipsis" in str(error).lower():
                return ...
            return f"testing it raised {type(error).__name__}: {error}"
    return Spec(name, judge, hints)


def is_placeholder(fn):
    """Whether a function does nothing yet: its body is only ``...`` or ``pass``, or only ``return ...``.

    >>> def stub(x):
    ...     ...
    >>> def skeleton(x):
    ...     return ...  # replace the ... with your code
    >>> is_placeholder(stub), is_placeholder(skeleton), is_placeholder(lambda x: 2 * x)
    (True, True, False)
    """
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP")]
    return any(steps in ([("LOAD_CONST", body), ("RETURN_VALUE", None)], [("RETURN_CONST", body)])
               for body in (None, ...))


def parts_beside(answer, reference, *names):
    """The objects called ``names`` in the notebook where ``answer`` was defined.

    A learner builds some exercises from several cells (a tape's Value, record, ops): an answer's own
    globals are that notebook's. When ``answer`` is one of ``reference``'s parts (a reference solution
    lent it), the parts come from ``reference`` too, so that they fit together.

    >>> def mul(a, b):
    ...     return a * b
    >>> parts_beside(mul, None, "mul")[0] is mul
    True
    """
    if reference is not None and any(answer is part for part in vars(reference).values()):
        return [getattr(reference, name) for name in names]
    function = answer.__init__ if isinstance(answer, type) else answer
    scope = getattr(function, "__globals__", {})
    missing = [name for name in names if name not in scope]
    if missing:
        raise LookupError(f"run the cells that define {', '.join(missing)} first")
    return [scope[name] for name in names]


def _same(given, expected):
    try:
        return bool(given == expected)
    except (TypeError, ValueError):  # an array compared with a tuple, say
        return False


def _both_numbers(a, b):
    return all(isinstance(x, (int, float, np.number)) and not isinstance(x, bool) for x in (a, b))


def _copies(args):
    """The arguments, with arrays copied, so a learner's function cannot change the test's inputs."""
    return tuple(arg.copy() if isinstance(arg, np.ndarray) else arg for arg in args)


def _equal(sympy, a, b, symbols):
    if sympy.simplify(a - b) == 0:
        return True
    # simplify cannot prove every identity: a match at several random points settles it
    rng = np.random.default_rng(0)
    for _ in range(5):
        point = {s: sympy.Float(rng.uniform(0.3, 1.7)) for s in symbols}
        try:
            x, y = complex(a.evalf(subs=point)), complex(b.evalf(subs=point))
        except (TypeError, ValueError):
            return False
        if not math.isclose(abs(x - y), 0, abs_tol=1e-9 * max(1.0, abs(y))):
            return False
    return True
