"""The lessons' public test cases, probes and tests: what a check runs a learner's answer on (students have it).

Nothing here may hold an expected value or a reference: a probe says what to observe of an answer, and the
check compares that with hashes (``classroom.judge``).
"""
