"""The lessons' answers, in plain Python: the instructor's copy only (never in the student edition or a release).

``lesson_NN.py`` defines ``EXERCISES = {exercise id: spec}`` (``classroom.spec``); ``python -m classroom.safe_data``
turns it into ``classroom/data/lesson_NN.json``, which holds no answer.
"""
