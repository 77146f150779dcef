"""Answers of lesson 15 (AD as function transformations)."""
import minitape as mt
from classroom.lessons.lesson_15 import JVP_CASES, VALUE_AND_GRAD_CASES, jvp_probe, same_ops_at_any_size, \
    value_and_grad_probe
from classroom.spec import choice, function


# --- 15.1: value_and_grad with argnums, that composes ---------------------------------------------------------
def value_and_grad(f, argnums=0):
    def value_and_gradient_of_f(*args):
        args = [mt.convert_to_tensor(a, dtype_hint=mt.float64) for a in args]
        chosen = [args[n] for n in (argnums if isinstance(argnums, tuple) else (argnums,))]
        with mt.GradientTape() as tape:
            tape.watch(chosen)
            y = f(*args)
        gradients = tape.gradient(y, chosen)
        return y, tuple(gradients) if isinstance(argnums, tuple) else gradients[0]
    return value_and_gradient_of_f


def value_and_grad_in_sorted_order(f, argnums=0):
    """A slip: the gradients in the arguments' order, not in the order argnums names them."""
    if isinstance(argnums, tuple):
        return value_and_grad(f, tuple(sorted(argnums)))
    return value_and_grad(f, argnums)


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
                     probe=value_and_grad_probe, rtol=1e-12, mistakes=[
        (value_and_grad_in_sorted_order, "the gradients come in the arguments' order: JAX, and this exercise, "
                                         "return them in the order argnums names them")], hints=[
        "Start from the lesson's grad: which arguments must the tape watch, and what does tape.gradient return "
        "when its sources are a list?",
        "Convert every argument with mt.convert_to_tensor (a tensor comes back unchanged, so the caller's own "
        "tensors reach f), watch the ones argnums names, in that order, and ask tape.gradient for the list of "
        "them. Return the value with a tuple of the gradients, or with the only one when argnums is a number."]),
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
