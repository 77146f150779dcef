"""Answers of lesson 15 (AD as function transformations)."""
import minitape as mt
from classroom.lessons.lesson_15 import JVP_CASES, VALUE_AND_GRAD_CASES, jvp_probe, same_ops_at_any_size, \
    value_and_grad_probe
from classroom.spec import choice, function


# --- 15.1: a value_and_grad that composes ---------------------------------------------------------------------
def value_and_grad(f):
    def value_and_gradient_of_f(x):
        x = mt.convert_to_tensor(x, dtype_hint=mt.float64)
        with mt.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return y, tape.gradient(y, x)
    return value_and_gradient_of_f


# --- 15.2: a JVP from two VJPs ----------------------------------------------------------------------------------
def jvp_by_reverse(f, x, v):
    x, v = mt.constant(x), mt.constant(v)
    u = mt.zeros_like(f(x))
    with mt.GradientTape() as outer:
        outer.watch(u)
        with mt.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        w = inner.gradient(y, x, output_gradients=u)
    return outer.gradient(w, u, output_gradients=v)


def vjp_along_v(f, x, v):
    """A slip: vᵀJ where J v was asked for (one backward pass seeded with v: the shapes fit only when J is square)."""
    x, v = mt.constant(x), mt.constant(v)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, output_gradients=v)


EXERCISES = {
    "15.1": function("value_and_grad", reference=value_and_grad, cases=VALUE_AND_GRAD_CASES,
                     probe=value_and_grad_probe, rtol=1e-12, hints=[
        "Put the colleague's version beside the lesson's grad: which two lines differ in what they hand on?",
        "A new tensor made from x's numbers has no history: the outer tape watches x, not the copy. And a NumPy "
        "array or a float returned is invisible to any tape. Convert x only if it is not a tensor yet, and "
        "return the tensors the tape gives you."]),
    "15.2": function("jvp_by_reverse", reference=jvp_by_reverse, cases=JVP_CASES, probe=jvp_probe, rtol=1e-10,
                     test=same_ops_at_any_size, mistakes=[
        (vjp_along_v, "that is vᵀJ, one backward pass seeded with v: reverse mode gives rows of J, and J v is a "
                      "column")], hints=[
        "A backward pass seeded with u gives w = Jᵀu. For a fixed x, w is a linear function of u: its Jacobian "
        "with respect to u is Jᵀ.",
        "So the VJP of u ↦ Jᵀu along v is (Jᵀ)ᵀv = J v. Record the inner backward pass on an outer tape that "
        "watches u (any u, zeros will do), then ask the outer tape for the gradient of w with respect to u, "
        "seeded with v."]),
    "15.3": choice("raises", expected=(False, False, True), mistakes=[
        ((False, True, True), "(b) is wrong: jax.grad evaluates f at this very x, so its stand-ins carry the "
                              "number and the if can be decided"),
        ((True, True, True), "(a) is wrong: minitape runs the Python as it is, on real numbers, and bool() of a "
                             "tensor of one number is its truth value"),
        ((False, False, False), "(c) is wrong: under jit the stand-ins carry a shape and a dtype only")], hints=[
        "For each call, ask: when the Python line `if x > 0` runs, does x hold a number, or only a shape and a "
        "dtype?",
        "minitape runs eagerly on numbers; jax.grad must compute f at the given x, so it knows the number; jit "
        "compiles one program for every input of the shape."]),
}
