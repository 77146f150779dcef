"""``python -m classroom.grader COURSE``: grade every submission in COURSE/submitted/ (``make grade``).

For each ``submitted/<student>/<assignment>/<notebook>.ipynb`` of a graded release, the notebook runs in the
sandbox, its harvest is judged here, the scores go into ``gradebook.db`` and the executed notebook, with a line of
feedback under each graded cell, into ``autograded/<student>/<assignment>/``. A table follows: student,
assignment, score of the maximum, seconds. A submission that is not the graded release (the student edition, or the
course's own lesson) is named in the table and its feedback, and scores nothing; the exit status is then 1.
"""

import argparse
import concurrent.futures
import pathlib
import sys

import nbformat

from classroom import editions
from classroom.checks import lesson_of
from classroom.grader import gradebook, sandbox, verdicts

RIGHT, WRONG = "✅", "❌"


def graded_parts(source):
    """``[(grade id, exercise id, points)]`` of the graded cells of an nbgrader source notebook.

    >>> meta = {"nbgrader": {"grade": True, "grade_id": "ex5_1-check", "points": 1.0}}
    >>> graded_parts(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('check("5.1", gradient_1)',
    ...                                                                         metadata=meta)]))
    [('ex5_1-check', '5.1', 1.0)]
    """
    parts = []
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade") and cell.cell_type == "code":
            (call,) = editions.check_calls(cell.source)
            parts.append((meta["grade_id"], call.exercise, meta["points"]))
    return parts


def not_the_release(nb, parts, assignment):
    """Why a submitted notebook is not the graded release of ``assignment`` (None if it is)."""
    ids = {grade_id for grade_id, _, _ in parts}
    if any(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") in ids for cell in nb.cells):
        return None
    lesson = assignment[:2]
    what = "the course's own lesson" if any("solution" in editions.tags(c) for c in nb.cells) else \
        "the student edition of lesson"
    return (f"this is {what} {lesson}, not the graded release: ask the student to fetch the release of "
            f"{assignment} and submit it (their answers can be copied into it)")


def feedback_lines(parts, said, points_of, seen_student, student):
    """``{grade id: line}``: the part's score and what is wrong in kind."""
    lines = {}
    for grade_id, exercise_id, points in parts:
        right, problem = said[exercise_id]
        lines[grade_id] = (f"{RIGHT if right else WRONG} {exercise_id}: {points_of[grade_id]:g} of {points:g} points"
                           + ("" if right else f": {problem}"))
    if seen_student != student:
        lines[None] = (f"The notebook ran as student {seen_student!r}, but it was submitted by {student!r}: it was "
                       f"graded for {student!r}'s own numbers.")
    return lines


def with_feedback(executed, parts, lines, problem=None):
    """The executed notebook with a summary cell first and each part's line under its graded cell."""
    nb = nbformat.from_dict(executed) if executed else nbformat.v4.new_notebook()
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in lines:
            cell.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=f"Grade: {lines[grade_id]}\n"))
    summary = ["**Grades of this submission** (the trusted grader: `make grade`)", ""]
    summary += [f"- {problem}"] if problem else []
    summary += [f"- {line}" for line in lines.values()]
    nb.cells.insert(0, nbformat.v4.new_markdown_cell("\n".join(summary)))
    return nb


def grade(course, student, assignment):
    """Grade one submission: ``(score, maximum, seconds, problem or None)``."""
    folder = course / "submitted" / student / assignment
    sources = sorted((course / "source" / assignment).glob("*.ipynb"))
    if not sources:
        return 0.0, 0.0, 0.0, f"no source notebook in source/{assignment}: run make nbgrader"
    score = maximum = seconds = 0.0
    problems = []
    for source_path in sources:
        parts = graded_parts(nbformat.read(source_path, as_version=4))
        maximum += sum(points for _, _, points in parts)
        submitted = folder / source_path.name
        if submitted.is_symlink() or not submitted.is_file():  # a link could bring any file of this machine along
            problems.append(f"the submission has no {source_path.name} (or it is a link, which is not graded)")
            continue
        try:
            nb = nbformat.read(submitted, as_version=4)
        except Exception as error:  # whatever a broken file raises, the other submissions are still graded
            problems.append(f"{source_path.name} is not a notebook nbformat can read ({type(error).__name__})")
            continue
        problem = not_the_release(nb, parts, assignment)
        lines = {}
        if problem is None:
            hidden = verdicts.hidden_text(lesson_of(parts[0][1])) if parts else ""
            ran = sandbox.run(submitted, student, {"parts": [e for _, e, _ in parts], "hidden": hidden})
            seconds += ran.seconds
            said = verdicts.verdicts([e for _, e, _ in parts], ran.harvested, student) if ran.harvested else \
                {e: (False, ran.problem or verdicts.MALFORMED) for _, e, _ in parts}
            points_of = {grade_id: points if said[e][0] else 0.0 for grade_id, e, points in parts}
            seen = ran.harvested.get("student") if isinstance(ran.harvested, dict) else student
            lines = feedback_lines(parts, said, points_of, seen, student)
            try:
                gradebook.record(course, assignment, source_path.stem, student, points_of,
                                 gradebook.submitted_at(folder))
            except RuntimeError as error:  # no such assignment in the gradebook: the table says what to run
                problems.append(str(error))
                continue
            score += sum(points_of.values())
            problem = ran.problem
            problems += [problem] if problem else []
            nb = ran.notebook
        else:
            problems.append(problem)
        out = course / "autograded" / student / assignment
        out.mkdir(parents=True, exist_ok=True)
        nbformat.write(with_feedback(nb, parts, lines, problem), out / source_path.name)
    return score, maximum, seconds, "; ".join(problems) or None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("course", type=pathlib.Path, help="the nbgrader course folder (build/nbgrader)")
    parser.add_argument("--assignment", help="grade only this assignment (05_reverse_mode)")
    parser.add_argument("--student", help="grade only this student")
    parser.add_argument("--jobs", type=int, default=1, help="sandboxes that run at once (default 1)")
    args = parser.parse_args(argv)
    submissions = sorted(path for path in (args.course / "submitted").glob("*/*") if path.is_dir()
                         and (args.student in (None, path.parent.name))
                         and (args.assignment in (None, path.name)))
    if not submissions:
        sys.exit(f"nothing to grade in {args.course / 'submitted'}: submissions go into "
                 f"submitted/<student>/<assignment>/ (nbgrader collect, or a copy)")
    try:
        sandbox.ready()
    except RuntimeError as error:
        sys.exit(f"grader: {error}")
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        graded = list(pool.map(lambda path: grade(args.course, path.parent.name, path.name), submissions))
    rows = [(path.parent.name, path.name, f"{score:g}/{maximum:g}", f"{seconds:.0f}", problem or "")
            for path, (score, maximum, seconds, problem) in zip(submissions, graded)]
    failed = any(problem is not None for *_, problem in graded)
    header = ("student", "assignment", "score", "seconds", "")
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(4)]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
