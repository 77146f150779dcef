"""Lesson 03's public test cases (the chain rule)."""

STAGES_CASES = [(1.0, 1), (1.0, 5), (2.5, 3), (0.3, 30)]
