"""The gradient of a function of one value, through a tape: what the closed-form tests compare with their formulas."""

import minitape as mt


def gradient(f, value, output_gradients=None):
    x = mt.constant(value)
    with mt.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    if output_gradients is not None:  # of the target's dtype, as TensorFlow requires
        output_gradients = mt.constant(output_gradients, dtype=y.dtype)
    return tape.gradient(y, x, output_gradients=output_gradients).numpy()
