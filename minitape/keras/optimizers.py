"""``mt.keras.optimizers``: the update rules of Keras 3, step by step.

An optimizer changes Variables by their gradients::

    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

Each ``update_step`` below is the rule itself, written as Keras 3 computes
it (same operations in the same order, so the same float32 numbers); ``lr``
is the learning rate, ``g`` a gradient, ``w`` the Variable. The state an
optimizer keeps for each Variable (momentum, running averages) is made, as
zeros of its shape, the first time that Variable is updated.

>>> import minitape as mt
>>> w = mt.Variable(1.0)
>>> sgd = SGD(learning_rate=0.1)
>>> sgd.apply_gradients([(mt.constant(2.0), w)])  # w <- w - lr * g
<mt.Variable 'iteration:0' shape=() dtype=int64, numpy=1>
>>> w
<mt.Variable 'Variable:0' shape=() dtype=float32, numpy=0.8>

Every optimizer takes one of ``clipnorm`` (each gradient's norm limited to
it), ``global_clipnorm`` (the norm of all the gradients together limited to
it) or ``clipvalue`` (each entry clipped to ``[-clipvalue, clipvalue]``):
gradients are clipped before the update, as in Keras.

Keras 3's optimizers have no ``minimize``: the gradient comes from a tape,
as above (``minimize`` raises an error that says so).
"""

import warnings

import numpy as np

from ..ops import abs as _abs, cast, clip_by_norm, clip_by_value, maximum, minimum, sqrt, square
from ..ops import reduce_sum
from ..variable import Variable
from .backend import floatx
from .namespace import missing_names


class Optimizer:
    """What the optimizers share: the learning rate, the step counter, and ``apply_gradients``.

    A subclass makes its state in ``build`` and writes its rule in
    ``update_step(gradient, variable, learning_rate)``.
    """

    def __init__(self, learning_rate, name=None, clipnorm=None, clipvalue=None, global_clipnorm=None):
        if not isinstance(learning_rate, float):
            raise ValueError(f"Argument `learning_rate` should be float, as in learning_rate=0.01 (minitape's "
                             f"Keras takes no schedule). Received instead: learning_rate={learning_rate!r}")
        if sum(limit is not None for limit in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.name = name or type(self).__name__.lower()
        self._iterations = Variable(np.int64(0), trainable=False, name="iteration")
        self._learning_rate = Variable(learning_rate, trainable=False, name="learning_rate", dtype=floatx())
        self._variables = [self._iterations, self._learning_rate]
        self._index = {}  # a model Variable's id (never reused) -> its place in the lists of state (momentums, ...)
        self.built = False

    @property
    def iterations(self):
        """How many times the optimizer has applied gradients: an int64 Variable."""
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate: a float32 Variable, which can be set (``optimizer.learning_rate = 0.01``)."""
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self._learning_rate.assign(value)

    @property
    def variables(self):
        """The optimizer's own Variables: the step counter, the learning rate, then its state."""
        return list(self._variables)

    def build(self, variables):
        """Get ready to update ``variables``: subclasses then make their state with :meth:`add_state`."""
        for i, variable in enumerate(variables):
            self._index[variable.id] = i
        self.built = True

    def add_state(self, variables, name, initial_value=0.0):
        """One Variable per model Variable, of its shape and dtype, filled with ``initial_value``."""
        state = [Variable(np.full(v.shape, initial_value, v.dtype.as_numpy_dtype), trainable=False,
                          name=f"{v.name.split(':')[0]}_{name}") for v in variables]
        self._variables.extend(state)
        return state

    def _state_index(self, variable):
        return self._index[variable.id]

    def apply_gradients(self, grads_and_vars):
        """Update each Variable by its gradient, from pairs ``(gradient, variable)``; returns ``iterations``.

        The first call fixes the Variables this optimizer updates; a gradient
        of None (a Variable the loss does not use) is skipped, with a warning.
        """
        grads, variables = zip(*grads_and_vars)
        self.apply(grads, variables)
        return self._iterations

    def apply(self, grads, trainable_variables):
        """Update ``trainable_variables`` by ``grads`` (two lists in the same order)."""
        if len(grads) == 0:
            return
        trainable_variables = list(trainable_variables)
        if not self.built:
            self.build(trainable_variables)
        for v in trainable_variables:
            if v.id not in self._index:
                raise ValueError(f"Unknown variable: {v}. This optimizer can only be called for the variables it "
                                 f"was originally built with. When working with a new set of variables, you should "
                                 f"recreate a new optimizer instance.")
        pairs = [(g, v) for g, v in zip(grads, trainable_variables) if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable.")
        if len(pairs) < len(trainable_variables):
            missing = [v.name for g, v in zip(grads, trainable_variables) if g is None]
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the loss.", stacklevel=3)
        grads = self.clip_gradients([g for g, _ in pairs])
        learning_rate = self._learning_rate.read_value()
        self.start_step()
        for gradient, (_, variable) in zip(grads, pairs):
            self.update_step(gradient, variable, learning_rate)
        self._iterations.assign_add(np.int64(1))

    def clip_gradients(self, grads):
        """``grads`` clipped as ``clipnorm``, ``global_clipnorm`` or ``clipvalue`` says (unchanged if none is set).

        ``global_clipnorm`` scales every gradient by ``limit * min(1 / norm,
        1 / limit)``, with ``norm`` the Euclidean norm of all of them together:
        the whole step keeps its direction. ``clipnorm`` does that for each
        gradient on its own, so the direction may change.
        """
        if self.clipnorm and self.clipnorm > 0:
            return [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = sqrt(sum(reduce_sum(square(g)) for g in grads))
            scale = self.global_clipnorm * minimum(1.0 / norm, 1.0 / self.global_clipnorm)
            scale = scale + (norm - norm)  # NaN for an infinite or NaN norm, so that a broken gradient shows
            return [g * scale for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            return [clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def start_step(self):
        """What an optimizer updates once per step before the Variables (Nadam's product of momentums)."""

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError(f"{type(self).__name__} must define update_step(gradient, variable, "
                                  f"learning_rate)")

    def __getattr__(self, name):
        if name == "minimize":
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'minimize': Keras 3's optimizers "
                                 f"have none. Take the gradient with a tape and apply it: `grads = "
                                 f"tape.gradient(loss, var_list)`, then `optimizer.apply_gradients(zip(grads, "
                                 f"var_list))`")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute {name!r}")


class SGD(Optimizer):
    """Gradient descent, with momentum and Nesterov momentum if asked.

    Without momentum: ``w <- w - lr * g``. With momentum ``mu``, a velocity
    ``m`` (0 at first) remembers past steps::

        m <- mu * m - lr * g
        w <- w + m                        # nesterov=False
        w <- w + mu * m - lr * g          # nesterov=True: a step that looks ahead along m
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError(f"`momentum` must be a float between [0, 1]. Received: momentum={momentum!r}")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables):
        super().build(variables)
        self.momentums = self.add_state(variables, "momentum") if self.momentum != 0 else []

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        if self.momentum == 0:
            variable.assign_sub(g * lr)
            return
        m = self.momentums[self._state_index(variable)]
        momentum = cast(self.momentum, variable.dtype)
        m.assign(m * momentum - g * lr)
        if self.nesterov:
            variable.assign_add(m * momentum - g * lr)
        else:
            variable.assign_add(m)


class Adam(Optimizer):
    """Adam: a step along the running mean of the gradients, scaled by their running root mean square.

    With ``t`` the step number (1, 2, ...) and ``m``, ``v`` starting at 0::

        m <- m + (g - m) * (1 - beta_1)              # running mean of g
        v <- v + (g**2 - v) * (1 - beta_2)           # running mean of g**2
        alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)   # undoes the pull of the zeros m, v started at
        w <- w - m * alpha / (sqrt(v) + epsilon)

    With ``amsgrad=True``, ``v`` in the last line is the largest ``v`` so far.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name=None,
                 **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad

    def build(self, variables):
        super().build(variables)
        self._momentums = self.add_state(variables, "momentum")
        self._velocities = self.add_state(variables, "velocity")
        if self.amsgrad:
            self._velocity_hats = self.add_state(variables, "velocity_hat")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        t = cast(self._iterations + 1, variable.dtype)
        beta_1_power = cast(self.beta_1, variable.dtype) ** t
        beta_2_power = cast(self.beta_2, variable.dtype) ** t
        i = self._state_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        alpha = lr * sqrt(1 - beta_2_power) / (1 - beta_1_power)
        m.assign_add((g - m) * (1 - self.beta_1))
        v.assign_add((square(g) - v) * (1 - self.beta_2))
        if self.amsgrad:
            v_hat = self._velocity_hats[i]
            v = v_hat.assign(maximum(v_hat, v))
        variable.assign_sub(m * alpha / (sqrt(v) + self.epsilon))


class RMSprop(Optimizer):
    """RMSprop: each gradient divided by the running root mean square of the gradients.

    With ``v`` starting at 0 (and ``a`` at 0 when ``centered``)::

        v <- rho * v + (1 - rho) * g**2
        increment = lr * g / sqrt(v + epsilon)
        w <- w - increment

    ``centered=True`` divides by the running standard deviation instead:
    ``a <- rho * a + (1 - rho) * g`` and ``sqrt(v - a**2 + epsilon)``. With
    ``momentum`` ``mu``, the increments pile up: ``m <- mu * m + increment``
    and ``w <- w - m``.
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name=None,
                 **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered

    def build(self, variables):
        super().build(variables)
        self._velocities = self.add_state(variables, "velocity")
        self._momentums = self.add_state(variables, "momentum") if self.momentum > 0 else []
        self._average_gradients = self.add_state(variables, "average_gradient") if self.centered else []

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        i = self._state_index(variable)
        rho = self.rho
        v = self._velocities[i]
        v.assign(rho * v + (1 - rho) * square(g))
        if self.centered:
            a = self._average_gradients[i]
            a.assign(rho * a + (1 - rho) * g)
            denominator = v - square(a) + self.epsilon
        else:
            denominator = v + self.epsilon
        increment = lr * g / sqrt(denominator)
        if self.momentum > 0:
            m = self._momentums[i]
            m.assign(self.momentum * m + increment)
            variable.assign_sub(m)
        else:
            variable.assign_sub(increment)


class Adagrad(Optimizer):
    """Adagrad: each gradient divided by the root of the sum of all its squares so far.

    With the accumulator ``s`` starting at ``initial_accumulator_value``::

        s <- s + g**2
        w <- w - lr * g / sqrt(s + epsilon)

    Steps shrink as ``s`` grows, fastest for the Variables with the largest gradients.
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon

    def build(self, variables):
        super().build(variables)
        self._accumulators = self.add_state(variables, "accumulator", self.initial_accumulator_value)

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        s = self._accumulators[self._state_index(variable)]
        s.assign_add(square(g))
        variable.assign_sub(lr * g / sqrt(s + self.epsilon))


class Adadelta(Optimizer):
    """Adadelta: steps whose size is the running root mean square of past steps, so ``lr`` can stay at 1.

    With ``a`` (squared gradients) and ``d`` (squared steps) starting at 0,
    and ``rms(x) = sqrt(x + epsilon)``::

        a <- rho * a + (1 - rho) * g**2
        step = -rms(d) * g / rms(a)
        d <- rho * d + (1 - rho) * step**2
        w <- w + lr * step
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.rho, self.epsilon = rho, epsilon

    def build(self, variables):
        super().build(variables)
        self._accumulated_grads = self.add_state(variables, "accumulated_grad")
        self._accumulated_delta_vars = self.add_state(variables, "accumulated_delta_var")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        i = self._state_index(variable)
        a, d = self._accumulated_grads[i], self._accumulated_delta_vars[i]
        rho = self.rho
        a.assign(rho * a + (1 - rho) * square(g))
        step = -(sqrt(d + self.epsilon) * g / sqrt(a + self.epsilon))
        d.assign(rho * d + (1 - rho) * square(step))
        variable.assign_add(lr * step)


class Adamax(Optimizer):
    """Adamax: Adam with the running root mean square replaced by a running maximum of ``|g|``.

    With ``t`` the step number and ``m``, ``u`` starting at 0::

        m <- m + (g - m) * (1 - beta_1)
        u <- max(beta_2 * u, |g|)
        w <- w - lr * m / ((1 - beta_1**t) * (u + epsilon))
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, variables):
        super().build(variables)
        self._m = self.add_state(variables, "momentum")
        self._u = self.add_state(variables, "norm")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        t = cast(self._iterations + 1, variable.dtype)
        beta_1_power = cast(self.beta_1, variable.dtype) ** t
        i = self._state_index(variable)
        m, u = self._m[i], self._u[i]
        m.assign_add((g - m) * (1 - self.beta_1))
        u.assign(maximum(self.beta_2 * u, _abs(g)))
        variable.assign_sub(lr * m / ((1 - beta_1_power) * (u + self.epsilon)))


class Nadam(Optimizer):
    """Nadam: Adam with Nesterov momentum, whose momentum ``mu_t`` warms up over the first steps.

    With ``mu_t = beta_1 * (1 - 0.5 * 0.96**t)`` and ``P_t`` the product
    ``mu_1 ... mu_t`` (kept from step to step)::

        m <- m + (g - m) * (1 - beta_1)
        v <- v + (g**2 - v) * (1 - beta_2)
        m_hat = mu_{t+1} * m / (1 - P_t * mu_{t+1}) + (1 - mu_t) * g / (1 - P_t)
        v_hat = v / (1 - beta_2**t)
        w <- w - lr * m_hat / (sqrt(v_hat) + epsilon)
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def build(self, variables):
        super().build(variables)
        self._momentums = self.add_state(variables, "momentum")
        self._velocities = self.add_state(variables, "velocity")
        dtype = variables[0].dtype if variables else floatx()
        self._u_product = Variable(1.0, dtype=dtype, trainable=False, name="u_product")
        self._variables.append(self._u_product)

    def start_step(self):
        t = cast(self._iterations + 1, self._u_product.dtype)
        self._u_product.assign(self._u_product * self.beta_1 * (1.0 - 0.5 * 0.96 ** t))

    def update_step(self, gradient, variable, learning_rate):
        dtype = variable.dtype
        lr = cast(learning_rate, dtype)
        g = cast(gradient, dtype)
        t, next_t = cast(self._iterations + 1, dtype), cast(self._iterations + 2, dtype)
        decay, beta_1, beta_2 = cast(0.96, dtype), cast(self.beta_1, dtype), cast(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * decay ** t)
        u_t_1 = beta_1 * (1.0 - 0.5 * decay ** next_t)
        u_product_t = cast(self._u_product, dtype)
        u_product_t_1 = u_product_t * u_t_1
        i = self._state_index(variable)
        m, v = self._momentums[i], self._velocities[i]
        m.assign_add((g - m) * (1 - beta_1))
        v.assign_add((square(g) - v) * (1 - beta_2))
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * g / (1 - u_product_t)
        v_hat = v / (1 - beta_2 ** t)
        variable.assign_sub(m_hat * lr / (sqrt(v_hat) + self.epsilon))


class Ftrl(Optimizer):
    """FTRL-proximal (McMahan et al., 2013): per-coordinate steps, with L1 and L2 penalties that make zeros.

    With ``n`` (sum of squared gradients) starting at
    ``initial_accumulator_value``, ``z`` at 0, ``p = -learning_rate_power``
    (0.5: steps shrink as ``1 / sqrt(n)``), ``l2 = l2_regularization_strength
    + beta / (2 lr)``::

        n_new = n + g**2
        z <- z + g + 2 * l2_shrinkage * w - (n_new**p - n**p) / lr * w
        w <- (clip(z, -l1, l1) - z) / (n_new**p / lr + 2 * l2)
        n <- n_new

    A coordinate whose ``|z|`` stays below ``l1`` is exactly 0.
    """

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, name=None, **clipping):
        super().__init__(learning_rate, name, **clipping)
        for argument, value in [("initial_accumulator_value", initial_accumulator_value),
                                ("l1_regularization_strength", l1_regularization_strength),
                                ("l2_regularization_strength", l2_regularization_strength),
                                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength)]:
            if value < 0.0:
                raise ValueError(f"`{argument}` needs to be positive or zero. Received: {argument}={value}.")
        if learning_rate_power > 0.0:
            raise ValueError(f"`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, variables):
        super().build(variables)
        self._accumulators = self.add_state(variables, "accumulator", self.initial_accumulator_value)
        self._linears = self.add_state(variables, "linear")

    def update_step(self, gradient, variable, learning_rate):
        lr = cast(learning_rate, variable.dtype)
        g = cast(gradient, variable.dtype)
        i = self._state_index(variable)
        n, z = self._accumulators[i], self._linears[i]
        power = self.learning_rate_power
        l1 = self.l1_regularization_strength
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = g + 2 * self.l2_shrinkage_regularization_strength * variable
        n_new = n + square(g)
        z.assign_add(grad_to_use - (n_new ** -power - n ** -power) / lr * variable)
        quadratic = n_new ** -power / lr + 2 * l2
        variable.assign((clip_by_value(z, -l1, l1) - z) / quadratic)
        n.assign(n_new)


__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl"]
__getattr__ = missing_names("mt.keras.optimizers", __all__)
