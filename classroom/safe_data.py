"""Write what students may receive of the answers: ``classroom/data/lesson_NN.json`` from ``answers/lesson_NN.py``.

    python -m classroom.safe_data              # every lesson
    python -m classroom.safe_data 05 11        # some lessons
    python -m classroom.safe_data --check      # exit 1, naming them, if a data file is not what its answers give
    python -m classroom.safe_data --students ada bob --out build/data   # each student's own data (below)

The data holds, per exercise, the learner's name, the hints, the public names of its probe, test cases and test,
and for every observed value its kind and a hash of it rounded at the tolerance (``classroom.judge``): no expected
value. It is committed beside the answers (the lessons in the repository run the same checks as the student
edition), and a test keeps it current: after changing an answer, run this (``make notebooks`` does).

Exercises whose lesson gives each student their own numbers (``classroom.variants``) also get, per student, the
same data for that student's numbers (``students/lesson_NN/<key>.json``, the key a hash of the student's id),
hashed slowly and salted with the student: ``make nbgrader`` writes it into the graded release for its roster.
"""

import argparse
import importlib
import json
import pathlib
import sys

from classroom import variants

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


def student_json(lesson, student):
    """The text of ``student``'s own data for ``lesson``: its exercises with numbers of their own, or None."""
    answers = importlib.import_module(f"classroom.answers.lesson_{lesson:02d}")
    module = importlib.import_module(f"classroom.lessons.lesson_{lesson:02d}") if variants.lesson_variants(lesson) \
        else None
    data = {exercise_id: spec.data(exercise_id, module, student=student)
            for exercise_id, spec in answers.EXERCISES.items() if variants.variant_of(exercise_id) is not None}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n" if data else None


def write_student_data(data_dir, lessons_, students):
    """Write each student's own data for ``lessons_`` into ``data_dir/students/``; returns the files written."""
    written = []
    for lesson in lessons_:
        for student in students:
            text = student_json(lesson, student)
            if text is None:
                break  # the lesson has no numbers of a student's own
            folder = pathlib.Path(data_dir) / "students" / f"lesson_{lesson:02d}"
            target = folder / f"{variants.student_key(student)}.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            written.append(target)
    return written


def path(lesson):
    return DATA / f"lesson_{lesson:02d}.json"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", type=int, help="lesson numbers (default: every lesson)")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a data file is out of date")
    parser.add_argument("--students", nargs="+", help="write these students' own data (into --out) instead")
    parser.add_argument("--out", type=pathlib.Path, default=DATA, help="where --students writes (default: data/)")
    args = parser.parse_args(argv)
    if args.students:
        for written in write_student_data(args.out, args.lessons or lessons(), args.students):
            print(written)
        return
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
