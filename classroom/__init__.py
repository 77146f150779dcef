"""The course's classroom machinery: self-checking exercises, the student edition and nbgrader grading.

A lesson's learner cell sets the names an exercise asks for to ``...``; its check cell calls
``check("5.1", gradient_1)``, which prints ⏳ (not answered yet), ✅ (correct), or ❌ (not correct yet) with
what is wrong in kind and a hint, never the expected value. A reference solution runs inside
``with reference_solution("5.1"):``, which checks it and then gives the learner's own names back.

What a student receives (the student edition, the nbgrader release) holds only the public part of this package:
``checks``, ``judge``, ``probes``, ``variants`` (each student's own numbers), ``plots`` (the lessons' plots, with
their text alternative), ``widgets`` (the step-through slider), ``lessons/`` (public test cases, probes and the
numbers' declarations) and ``data/`` (hashes and kinds).
The instructor's part: ``answers/`` (the answers, in plain Python), ``spec`` (how an answer is declared),
``safe_data`` (writes ``data/`` from the answers), ``editions`` (the student and nbgrader editions), ``hidden/``
(the grader's hidden test cases) and ``grader`` (the trusted grader, which runs a submission in a sandbox and
judges what it computed). ``minitape`` itself holds none of this.
"""

from classroom.checks import check, passed, reference_solution
from classroom.tapes import your_parts_or_reference
from classroom.variants import your_numbers

__all__ = ["check", "passed", "reference_solution", "your_numbers", "your_parts_or_reference"]
