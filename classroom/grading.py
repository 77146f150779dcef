"""The hidden tests of the nbgrader edition: each graded part's grade, computed by the instructor's copy alone.

nbgrader's autograder runs a student's notebook in one kernel, so whatever a student cell defines is in force when
the graded cells run: a rebound ``check``, a patched ``classroom`` module, a fake in ``sys.modules``, a name such as
``exec`` or ``float`` shadowed in the notebook. The hidden test of a part therefore trusts none of it:

- it imports nothing of ``classroom``: the judge, the probes and the lesson's public module are copied into the
  test as text, with the exercise's data (hashes and kinds: the hidden test holds no expected value either, so a
  learner's function that inspects the grader's frames finds nothing to copy);
- it reads no name of the notebook but the answer: Python's builtins are taken from a C function's module and kept
  only where they are C functions of that module (``exec`` replaced by a Python function is left out, and the
  test then fails), and the grader runs in a namespace of its own, importing its modules from the copied text;
- it fails unless the grader ran to its end and found the answer right (an AssertionError that nbgrader scores 0).

A student cell can still replace what Python and IPython themselves do (an input transformer that deletes later
cells, a custom exception handler): no grader inside the student's kernel can see past that, so INSTRUCTORS.md
says to run ``nbgrader autograde`` where a submission cannot reach the gradebook, and to read the flagged cells.

>>> code = hidden_test("0.1", "answer_0_1")
>>> code.splitlines()[0], code.splitlines()[-2], bool(compile(code, "<hidden test>", "exec"))
('### BEGIN HIDDEN TESTS', '_hidden_test(answer_0_1)', True)
"""

import pathlib

from classroom.checks import lesson_data, lesson_of

CLASSROOM = pathlib.Path(__file__).resolve().parent

# The loader runs inside the hidden test's own namespace, which holds only SOURCES, DATA, module_type and the
# checked builtins: it makes each copied module from its text, and serves `from classroom.x import y` from them.
LOADER = '''
modules = {}
module_builtins = dict(__builtins__)


def private_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name.split(".")[0] == "classroom":
        if not fromlist or name not in SOURCES:
            raise ImportError("the hidden test holds no " + name)
        return load(name)
    return __import__(name, globals, locals, fromlist, level)


module_builtins["__import__"] = private_import


def load(name):
    if name not in modules:
        module = module_type(name)
        module.__dict__["__builtins__"] = module_builtins
        modules[name] = module
        exec(compile(SOURCES[name], "<hidden test: " + name + ">", "exec"), module.__dict__)
    return modules[name]


def resolve(reference):
    module, name = reference.split(":")
    return getattr(load(module), name)


def grade(exercise, answer):
    status, problem = load("classroom.judge").verdict(exercise, DATA, answer, resolve)
    if status != "correct":
        raise AssertionError(exercise + (": not answered yet" if status == "unanswered" else
                                         ": not correct yet: " + problem))
'''

# The test itself: `found` is the builtins the notebook gives a new function (perhaps a fake); the real builtins
# module is the one its `exec` belongs to, and only that module's own C functions and the types written in C are
# kept, with the constants Ellipsis and NotImplemented made by syntax. No name of the notebook is looked up after
# that: `().__class__.__class__` is `type`, `"".join.__class__` the type of C functions, and `object.__eq__(0, 1)`
# is NotImplemented.
BOOTSTRAP = '''\
def _hidden_test(answer, exercise={exercise!r}, data={data!r}, sources={sources},
                 loader={loader}, found=(lambda: 0).__builtins__, c_function="".join.__class__):
    kind = ().__class__.__class__
    real = found["exec"].__self__
    builtins = {{name: thing for name, thing in real.__dict__.items()
                if (kind(thing) is c_function and thing.__self__ is real and thing.__name__ == name)
                or (kind(thing) is kind and not thing.__flags__ & 512)}}   # 512: a class written in Python
    builtins["Ellipsis"], builtins["NotImplemented"] = ..., kind.__base__.__eq__(0, 1)   # the constants, by syntax
    namespace = {{"__builtins__": builtins, "__name__": "hidden_test", "module_type": kind(real), "SOURCES": sources,
                 "DATA": data}}
    builtins["exec"](builtins["compile"](loader, "<hidden test>", "exec"), namespace)
    namespace["grade"](exercise, answer)


_hidden_test({answer})
'''


def text_literal(text):
    """``text`` as a triple-quoted Python literal that reads like the text itself."""
    escaped = text.replace("\\", "\\\\").replace("'''", "\\'\\'\\'")
    if escaped.endswith("'"):
        escaped = escaped[:-1] + "\\'"
    return "'''" + escaped + "'''"


def needed(exercise_id, found=None):
    """The data of ``exercise_id`` and of every exercise it builds on (its ``needs``), by id."""
    found = {} if found is None else found
    data = lesson_data(lesson_of(exercise_id))[exercise_id]
    found[exercise_id] = data
    for other in data.get("needs", {}):
        if other not in found:
            needed(other, found)
    return found


def module_sources(exercises):
    """The text of the judge, the probes and every public module the exercises' probes, cases and tests live in."""
    names = ["classroom.judge", "classroom.probes"]
    for data in exercises.values():
        for field in ("cases", "probe", "test"):
            if field in data and data[field].split(":")[0] not in names:
                names.append(data[field].split(":")[0])
    return {name: (CLASSROOM.parent / (name.replace(".", "/") + ".py")).read_text() for name in names}


def hidden_test(exercise_id, answer):
    """The hidden-test region of the graded cell of ``exercise_id``, whose answer is the expression ``answer``."""
    exercises = needed(exercise_id)
    sources = "{\n" + "".join(f"        {name!r}: {text_literal(text)},\n"
                               for name, text in module_sources(exercises).items()) + "    }"
    lead = (f"# The grade of {exercise_id}, from this cell alone: the grader below runs in a namespace of its own, "
            f"with Python's\n# builtins checked to be the real ones, and reads nothing of the notebook but "
            f"{answer} (classroom/grading.py).\n")
    code = BOOTSTRAP.format(exercise=exercise_id, data=exercises, sources=sources, loader=text_literal(LOADER),
                            answer=answer)
    return "### BEGIN HIDDEN TESTS\n" + lead + code + "### END HIDDEN TESTS"
