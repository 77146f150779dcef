"""The trusted grader: points from plain data, judged by a process that never runs a student's code.

    python -m classroom.grader build/nbgrader                      # every submission in submitted/
    python -m classroom.grader build/nbgrader --assignment 05_reverse_mode --student ada

Each submission's notebook, and only it, runs in a sandbox (``sandbox``): bubblewrap with no network, read-only
Python and minitape, the public part of ``classroom``, and an empty working directory. After the notebook ran, one
more cell (``harvest``) exports what each graded answer is or does on the grader's hidden test cases
(``classroom/hidden/``), as JSON. Outside, the trusted process (``verdicts``) observes the instructor's reference
on the same cases for the student's own numbers (``classroom.variants``), compares, and writes each graded part's
score into nbgrader's gradebook (``gradebook``), with the executed notebook and a feedback line per part in
``autograded/``. Nothing the student wrote is trusted: the harvest's data is only compared, never run.

This package is the instructor's: no edition a student receives holds it (``classroom.editions.PUBLIC``); the
sandbox holds ``harvest`` alone of it, since that module runs there.
"""
