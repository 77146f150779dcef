"""How an exercise's answer is declared, in the instructor's answers (``classroom/answers/lesson_NN.py``).

An answers module defines ``EXERCISES = {exercise id: spec}``. A spec names the learner's variable, holds the right
answer (a value, or a reference function or class that a public probe runs on public test cases), the typical
mistakes and the hints, nudge first. ``classroom.safe_data`` turns the specs into the data students receive,
which holds no answer: every kind of spec is judged by ``classroom.judge`` from hashes.

- ``value``: a number, list, array or tensor, within ``rtol``/``atol``; where the lesson gives each student their own
  numbers (``classroom.variants``), ``expected`` is a function of them, as is the wrong value of a mistake;
- ``choice``: an exact answer (a string, an int, a tuple such as a shape), maybe among public ``options``;
- ``function``: a function (or a class, ``answer="class"``; anything, ``answer="any"``), run by ``probe`` on each
  test case of ``cases``; what the probe observes of it is compared with what it observes of ``reference``;
- ``judged_by``: an answer judged by a public ``test`` alone (a property: a count of calls, a convergence).

The probe, the test cases and the test are public: they live in ``classroom/lessons/lesson_NN.py`` (or are
``classroom.probes.call_with``, the default probe), since the students' check runs them too. ``mistakes`` are
pairs (a wrong value, or a wrong reference, and the sentence that names that slip); ``needs`` maps exercise ids to
the learner's names they build on (``{"11.2": "record"}``): the check waits for those to pass first.

>>> spec = value("slope", expected=6.0, hints=["Power rule."])
>>> data = spec.data("9.9", lesson_module=None)
>>> sorted(data), data["expected"][0][0]["shape"]
(['answer', 'expected', 'hints', 'name'], [])
"""

import numpy as np

from classroom import judge, probes, variants
from classroom.probes import NotAnswered, Raised, ReturnedNone, Slot, Wrong


# A student's own numbers are self-checked only where the tolerance is this tight or tighter: at rtol 1e-5 a power
# of ten holds some 46,000 rounded values (judge.py), over half an hour of slow hashes; at 1e-3, 460: twenty seconds.
SELF_CHECKED_RTOL = 1e-5


class Spec:
    """One exercise: the learner's name, the right answer and how to observe it, the mistakes and the hints."""

    def __init__(self, name, answer, hints, *, expected=None, reference=None, cases=None, probe=None, test=None,
                 rtol=1e-6, atol=1e-12, exact=False, options=None, mistakes=(), needs=None, gradient=False):
        if isinstance(hints, str):
            raise TypeError(f"hints of {name!r} must be a list of sentences, nudge first; got one string")
        self.name, self.answer, self.hints = name, answer, list(hints)
        self.expected, self.reference, self.cases, self.probe, self.test = expected, reference, cases, probe, test
        self.rtol, self.atol, self.exact, self.options = rtol, atol, exact, options
        self.mistakes, self.needs, self.gradient = list(mistakes), dict(needs or {}), gradient

    def __repr__(self):
        return f"<exercise answer {self.name!r}>"

    def expected_for(self, numbers):
        """The right answer of a value exercise for an exercise's ``numbers`` (None where it has none)."""
        return self._for(self.expected, numbers)

    def _for(self, thing, numbers):
        """``thing``, or ``thing(numbers)`` for a value exercise whose answer depends on the student's numbers."""
        if self.reference is None and callable(thing) and not isinstance(thing, type):
            if numbers is None:
                raise ValueError(f"the answer of {self.name!r} is a function of the exercise's numbers, but its "
                                 f"lesson declares none (VARIANTS in classroom/lessons/)")
            return thing(numbers)
        return thing

    def observed(self, right, cases=None):
        """What the check observes of ``right`` (the answer or a mistake) on each test case: lists of Slots.

        ``cases`` replaces the exercise's public test cases (the grader's hidden ones).
        """
        if self.probe is None and self.reference is None:
            return [[Slot(right, exact=self.exact)]]
        probe = self.probe or probes.call_with
        observations = []
        for case in self.cases if cases is None else cases:
            try:
                seen = probe(right, *case)
            except (NotAnswered, Wrong, Raised, ReturnedNone) as error:
                observations.append(error)
                continue
            seen = seen if isinstance(seen, list) else [seen]
            observations.append([slot if isinstance(slot, Slot) else Slot(slot) for slot in seen])
        return observations

    def data(self, exercise_id, lesson_module, student=None):
        """What the students' check needs to judge this exercise: no value of the answer, only kinds and hashes.

        With a ``student``, for that student's own numbers: the hashes are then salted with the student and slow to
        compute (``judge.SLOW``), and no slip is recognised by trying factors (that would make the check an oracle).
        """
        numbers = variants.numbers(exercise_id, student)
        data = {"name": self.name, "answer": self.answer, "hints": self.hints}
        if self.gradient:
            data["gradient"] = True
        if self.needs:
            data["needs"] = self.needs
        if student is not None:
            data["student"] = variants.student_key(student)
            if self.rtol > SELF_CHECKED_RTOL:
                data["unchecked"] = "loose"  # trying values at this tolerance would find the answer in minutes
                return data
        for field, thing in (("cases", self.cases), ("probe", self.probe), ("test", self.test)):
            if thing is not None:
                data[field] = public_name(thing, lesson_module, f"the {field} of exercise {exercise_id}")
        if self.test is not None and self.reference is None and self.expected is None:
            return data
        right = self.observed(self.reference if self.reference is not None else self.expected_for(numbers))
        failed = [(case, seen) for case, seen in enumerate(right, 1) if isinstance(seen, Exception)]
        if failed:
            case, error = failed[0]
            raise ValueError(f"the probe of exercise {exercise_id} fails on its reference, test case {case}: "
                             f"{type(error).__name__}: {error}")
        salted = data.get("student")
        kdf = None if student is None else judge.SLOW
        data["expected"] = [[self._slot(slot, judge.salt_of(self.name, case, j, student=salted), _exact(slot), kdf)
                             for j, slot in enumerate(seen)] for case, seen in enumerate(right, 1)]
        if self.mistakes:
            data["mistakes"] = [self._mistake(exercise_id, m, self._for(wrong, numbers), says, right, salted, kdf)
                                for m, (wrong, says) in enumerate(self.mistakes)]
        return data

    def _slot(self, slot, salt, exact, kdf):
        if exact:
            return judge.exact_slot(slot.value, salt, self.options, kdf=kdf)
        return judge.numeric_slot(slot.value, self.rtol, self.atol, salt, kdf=kdf)

    def _mistake(self, exercise_id, m, wrong, says, right, student, kdf):
        expected = []
        for case, (wrong_slots, right_slots) in enumerate(zip(self.observed(wrong), right), 1):
            if isinstance(wrong_slots, Exception) or len(wrong_slots) != len(right_slots):
                expected.append(None)  # the slip fails or looks different on this case: it is recognised on others
                continue
            expected.append([self._slot(w, judge.salt_of(self.name, case, j, f"|mistake {m}", student=student),
                                        _exact(r), kdf)
                             for j, (w, r) in enumerate(zip(wrong_slots, right_slots))])
        if all(e is None for e in expected):
            raise ValueError(f"mistake {m} of exercise {exercise_id} ({says!r}) is observed on no test case")
        return {"says": says, "expected": expected}


def _exact(slot):
    """Whether a slot is compared exactly: as its probe says, else for a count, a string, a shape, a bool, None."""
    if slot.exact is not None:
        return slot.exact
    return slot.value is None or isinstance(slot.value, (str, bool, np.bool_, int, np.integer, tuple))


def public_name(thing, lesson_module, what):
    """``"module:name"`` of a public object: one of the lesson's public module, or of classroom.probes."""
    for module in (lesson_module, probes):
        for name, value in vars(module).items() if module is not None else ():
            if value is thing and not name.startswith("__"):
                return f"{module.__name__}:{name}"
    raise ValueError(f"{what} is not in the lesson's public module: define it in classroom/lessons/ (students' "
                     f"checks run it) and use it from there")


def value(name, expected, rtol=1e-6, atol=1e-12, mistakes=(), hints=(), gradient=False):
    """A number, list, array or tensor, compared within ``rtol``/``atol`` (``gradient``: the answer is one)."""
    return Spec(name, "value", hints, expected=expected, rtol=rtol, atol=atol, mistakes=mistakes, gradient=gradient,
                exact=isinstance(expected, (bool, np.bool_)))


def choice(name, expected, options=None, mistakes=(), hints=()):
    """An exact answer (a string, an int, a tuple such as a shape); ``options`` are listed when it is not one."""
    return Spec(name, "value", hints, expected=expected, options=options, mistakes=mistakes, exact=True)


def function(name, reference, cases, probe=None, rtol=1e-6, atol=1e-12, mistakes=(), hints=(), gradient=False,
             needs=None, test=None, answer="function"):
    """A function (or class) run by ``probe`` on each case of ``cases``, compared with ``reference``'s observations.

    ``test``, a public function of the answer, runs after the cases (a property: how many ops it records).
    """
    return Spec(name, answer, hints, reference=reference, cases=cases, probe=probe, test=test, rtol=rtol, atol=atol,
                mistakes=mistakes, needs=needs, gradient=gradient)


def judged_by(name, test, hints=(), needs=None, answer="function", gradient=False):
    """An answer judged by a public ``test(answer)`` alone: None if right, ``...`` if unanswered, else a sentence."""
    return Spec(name, answer, hints, test=test, needs=needs, gradient=gradient)
