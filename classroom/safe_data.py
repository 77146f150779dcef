"""Write what students may receive of the answers: ``classroom/data/lesson_NN.json`` from ``answers/lesson_NN.py``.

    python -m classroom.safe_data              # every lesson
    python -m classroom.safe_data 05 11        # some lessons
    python -m classroom.safe_data --check      # exit 1, naming them, if a data file is not what its answers give

The data holds, per exercise, the learner's name, the hints, the public names of its probe, test cases and test,
and for every observed value its kind and a hash of it rounded at the tolerance (``classroom.judge``): no expected
value. It is committed beside the answers (the lessons in the repository run the same checks as the student
edition), and a test keeps it current: after changing an answer, run this (``make notebooks`` does).
"""

import argparse
import importlib
import json
import pathlib
import sys

CLASSROOM = pathlib.Path(__file__).resolve().parent
ANSWERS, DATA, LESSONS = CLASSROOM / "answers", CLASSROOM / "data", CLASSROOM / "lessons"


def lessons():
    """The lesson numbers that have an answers module."""
    return sorted(int(path.stem.removeprefix("lesson_")) for path in ANSWERS.glob("lesson_*.py"))


def lesson_json(lesson):
    """The data file's text for ``lesson``, computed from its answers module."""
    answers = importlib.import_module(f"classroom.answers.lesson_{lesson:02d}")
    public = f"classroom.lessons.lesson_{lesson:02d}"
    module = importlib.import_module(public) if (LESSONS / f"lesson_{lesson:02d}.py").exists() else None
    data = {}
    for exercise_id, spec in answers.EXERCISES.items():
        if not exercise_id.startswith(f"{lesson}."):
            raise ValueError(f"lesson {lesson:02d}'s answers declare {exercise_id}, an id of another lesson")
        data[exercise_id] = spec.data(exercise_id, module)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def path(lesson):
    return DATA / f"lesson_{lesson:02d}.json"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", type=int, help="lesson numbers (default: every lesson)")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a data file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for lesson in args.lessons or lessons():
        text = lesson_json(lesson)
        if path(lesson).exists() and path(lesson).read_text() == text:
            continue
        stale.append(path(lesson).name)
        if not args.check:
            path(lesson).write_text(text)
    if args.check and stale:
        sys.exit(f"out of date: {', '.join(stale)}; write them with python -m classroom.safe_data")


if __name__ == "__main__":
    main()
