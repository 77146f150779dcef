"""The lessons' answers: one file per lesson, stored so that skimming it reveals nothing.

``answers/NN.answers`` holds base64 of zlib of a Python source that defines ``EXERCISES``, a dict from
exercise id (``"5.1"``) to a spec (see ``spec.py``). A lesson's file is read the first time one of its
ids is checked. Authors use the command line (plaintext sources are never committed)::

    python -m minitape.exercises.answers show 05           # print the source
    python -m minitape.exercises.answers write 05 src.py   # store a source
    python -m minitape.exercises.answers edit 05           # edit it in $EDITOR

>>> decode(encode("EXERCISES = {}\\n"))
'EXERCISES = {}\\n'
"""

import base64
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile
import zlib

FOLDER = pathlib.Path(__file__).resolve().parent / "answers"

_lessons = {}  # lesson number -> the namespace of its answers source, filled on first use


def encode(source):
    """The stored form of an answers source: base64 lines of its zlib compression."""
    return base64.encodebytes(zlib.compress(source.encode("utf-8"), 9)).decode("ascii")


def decode(stored):
    """The source back from its stored form."""
    return zlib.decompress(base64.b64decode(stored)).decode("utf-8")


def path(lesson):
    """The answers file of a lesson number (5 or "05")."""
    return FOLDER / f"{int(lesson):02d}.answers"


def lesson_of(exercise_id):
    """The lesson number of an exercise id: "5.3a" -> 5."""
    match = re.fullmatch(r"(\d+)\.\d+[a-z]?", exercise_id) if isinstance(exercise_id, str) else None
    if not match:
        raise ValueError(f"{exercise_id!r} is not an exercise id: write it as lesson.number, e.g. '5.3' or '5.3a'")
    return int(match.group(1))


def load(lesson):
    """The namespace of a lesson's answers source (its ``EXERCISES`` and reference objects), read on first use."""
    lesson = int(lesson)
    if lesson not in _lessons:
        if not path(lesson).exists():
            raise FileNotFoundError(f"lesson {lesson} has no answers file {path(lesson).name}: "
                                    f"create it with python -m minitape.exercises.answers write {lesson:02d} SOURCE")
        namespace = {"__name__": f"minitape.exercises.answers_{lesson:02d}"}
        exec(compile(decode(path(lesson).read_text()), f"<answers of lesson {lesson:02d}>", "exec"), namespace)
        _lessons[lesson] = namespace
    return _lessons[lesson]


def exercises(lesson):
    """The ``EXERCISES`` dict of a lesson: exercise id -> spec."""
    return load(lesson)["EXERCISES"]


def spec(exercise_id):
    """The spec of one exercise id."""
    specs = exercises(lesson_of(exercise_id))
    if exercise_id not in specs:
        raise KeyError(f"exercise {exercise_id!r} is not in the answers of lesson {lesson_of(exercise_id)}; "
                       f"it has {', '.join(specs)}")
    return specs[exercise_id]


def write(lesson, source):
    """Store ``source`` as the answers of ``lesson`` after checking that it defines EXERCISES."""
    namespace = {}
    exec(compile(source, "<answers source>", "exec"), namespace)
    if not isinstance(namespace.get("EXERCISES"), dict):
        raise ValueError("an answers source must define EXERCISES = {exercise id: spec, ...}")
    FOLDER.mkdir(parents=True, exist_ok=True)
    path(lesson).write_text(encode(source))
    _lessons.pop(int(lesson), None)


def main(argv):
    usage = "usage: python -m minitape.exercises.answers show NN | write NN SOURCE | edit NN"
    if len(argv) < 2 or argv[0] not in ("show", "write", "edit") or (argv[0] == "write") != (len(argv) == 3):
        sys.exit(usage)
    command, lesson = argv[0], argv[1]
    if command == "show":
        print(decode(path(lesson).read_text()), end="")
    elif command == "write":
        write(lesson, pathlib.Path(argv[2]).read_text())
    else:
        old = decode(path(lesson).read_text()) if path(lesson).exists() else "EXERCISES = {}\n"
        with tempfile.TemporaryDirectory() as folder:
            draft = pathlib.Path(folder) / f"answers_{int(lesson):02d}.py"
            draft.write_text(old)
            subprocess.run([*shlex.split(os.environ.get("EDITOR", "vi")), str(draft)], check=True)
            write(lesson, draft.read_text())


if __name__ == "__main__":
    main(sys.argv[1:])
