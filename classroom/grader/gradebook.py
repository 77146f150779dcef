"""The grades where the teacher reads them: nbgrader's gradebook, written with nbgrader's own API.

A graded part's score is the ``auto_score`` of its graded cell, as ``nbgrader autograde`` would set it, so that
formgrader, ``nbgrader export`` and a teacher's manual score (which stays, and is then shown for review) work as
they do for nbgrader's own grades.
"""

import threading
import warnings

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.utils import parse_utc
from sqlalchemy.exc import SAWarning

COURSE = "minitape"  # the course_id of the nbgrader_config.py that make nbgrader writes
WRITING = threading.Lock()  # sandboxes run side by side; the gradebook (SQLite) takes one writer at a time


def record(course, assignment, notebook, student, scores, timestamp=None):
    """Write ``scores`` ({grade id: points}) as the auto scores of ``student``'s submission of ``assignment``."""
    if not (course / "gradebook.db").exists():
        raise RuntimeError(f"{course} has no gradebook.db: run nbgrader generate_assignment {assignment} there first "
                           f"(it makes the gradebook and records the graded cells)")
    # nbgrader's add_submission reads relations of rows not added yet, which SQLAlchemy 2 warns of on every
    # submission; the rows are added all the same (nbgrader's own autograde does the same steps).
    with WRITING, warnings.catch_warnings(), Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE) as book:
        warnings.simplefilter("ignore", SAWarning)
        try:
            book.find_assignment(assignment)
        except MissingEntry:
            raise RuntimeError(f"the gradebook has no assignment {assignment}: run nbgrader generate_assignment "
                               f"{assignment} in {course} first (it records the graded cells)") from None
        book.update_or_create_student(student)
        book.update_or_create_submission(assignment, student,
                                         **({"timestamp": timestamp} if timestamp else {}))
        for grade_id, score in scores.items():
            grade = book.find_grade(grade_id, notebook, assignment, student)
            grade.auto_score = score
            grade.needs_manual_grade = grade.manual_score is not None
        book.db.commit()


def submitted_at(folder):
    """The time nbgrader's collect wrote into ``timestamp.txt``, or None (a submission copied by hand)."""
    path = folder / "timestamp.txt"
    text = path.read_text().strip() if path.exists() else ""
    if not text:
        return None
    try:
        return parse_utc(text)
    except ValueError:
        return None
