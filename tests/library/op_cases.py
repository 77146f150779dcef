"""Every differentiable op, with the inputs on which its derivatives are checked.

Each case says how to draw inputs with hypothesis: shapes (one, broadcasting
pairs, matmul pairs, or fixed), the interval of values, and a condition that
keeps inputs away from kinks (|x| = 0 for abs, ties for maximum, ...), where
finite differences and derivatives legitimately disagree.
"""

import dataclasses
from collections.abc import Callable

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np

import minitape as mt


TINY = 1e-100


@dataclasses.dataclass
class OpCase:
    name: str
    fn: Callable  # takes float64 tensors, returns a tensor
    shapes: st.SearchStrategy  # draws a list of input shapes
    low: float = -2.0
    high: float = 2.0
    valid: Callable = lambda *xs: True  # keeps inputs away from kinks
    delta: float = 1e-6  # finite-difference step
    rtol: float = 1e-5
    jvp_rtol: float = 1e-12  # forward vs reverse mode: the same math in another order
    order: int = 2  # the highest derivative checked
    with_zeros: bool = False  # draw exact zeros often: where a rule that divides by x would go wrong
    # What ``valid`` demands of every element, asked of each element as it is drawn: an element too close to 0
    # (or drawn twice) is drawn again at once. ``valid`` still decides; without these, most inputs of a dozen
    # elements would fail it, and hypothesis would draw hundreds to keep twelve.
    min_abs: float = 0.0  # each element's |x| is larger than this
    unique: bool = False  # no element drawn twice

    def inputs(self):
        # Magnitudes below 1e-100 are drawn as 0: their squares underflow, and a second derivative that divides
        # by such a value twice overflows float64 (a limit of the number format, not of a rule).
        elements = st.floats(self.low, self.high).map(lambda v: 0.0 if abs(v) < TINY else v)
        if self.with_zeros:
            elements = st.one_of(st.just(0.0), elements)
        if self.min_abs:
            elements = elements.filter(lambda v: abs(v) > self.min_abs)

        def arrays_for(shapes):
            return st.tuples(*[hnp.arrays(np.float64, s, elements=elements, unique=self.unique) for s in shapes])
        return self.shapes.flatmap(arrays_for).filter(lambda xs: self.valid(*xs))


ONE = hnp.array_shapes(min_dims=0, max_dims=3, max_side=3).map(lambda s: [s])
ONE_NONSCALAR = hnp.array_shapes(min_dims=1, max_dims=3, max_side=3).map(lambda s: [s])
PAIR = hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3).map(lambda b: list(b.input_shapes))
TRIPLE = hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=2, max_side=3).map(lambda b: list(b.input_shapes))
SAME_PAIR = hnp.array_shapes(min_dims=1, max_dims=2, max_side=3).map(lambda s: [s, s])
MATMUL = st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.sampled_from([(), (2,)])).map(
    lambda d: [d[3] + (d[0], d[1]), (d[1], d[2])])


def fixed(*shapes):
    return st.just(list(shapes))


def apart(*xs, gap=0.05):
    """No two broadcast elements closer than ``gap`` (no ties for max/min/clip)."""
    b = np.broadcast_arrays(*xs)
    return all(np.all(np.abs(p - q) > gap) for i, p in enumerate(b) for q in b[i + 1:])


def distinct(x, gap=0.02):
    v = np.sort(np.ravel(x))
    return v.size < 2 or np.min(np.diff(v)) > gap


def away_from_zero(x, gap=0.05):
    return np.all(np.abs(x) > gap)


def away_from_steps(x, y, gap=0.05):
    """No quotient x / y near an integer, where floor(x / y) steps (and floormod jumps)."""
    q = np.broadcast_arrays(x, y)[0] / np.broadcast_arrays(x, y)[1]
    return np.all(np.abs(q - np.round(q)) > gap)


def sums_apart(x, axis, gap=0.05):
    """The sums of |x| along ``axis`` differ by more than ``gap`` (no tie for the largest)."""
    return distinct(np.sum(np.abs(x), axis=axis), gap)


def singular_gap(x, gap=0.1):
    """The two largest singular values are ``gap`` apart: the top singular vectors are well defined."""
    s = np.linalg.svd(x, compute_uv=False)
    return s[0] - s[1] > gap


CASES = [
    OpCase("negative", mt.negative, ONE),
    OpCase("square", mt.square, ONE),
    OpCase("sqrt", mt.sqrt, ONE, 0.1, 3.0),
    OpCase("exp", mt.exp, ONE),
    OpCase("reciprocal", mt.math.reciprocal, ONE, valid=lambda x: away_from_zero(x, 0.3)),
    OpCase("log", mt.math.log, ONE, 0.1, 3.0),
    OpCase("log1p", mt.math.log1p, ONE, -0.9, 3.0),
    OpCase("sin", mt.sin, ONE),
    OpCase("cos", mt.cos, ONE),
    OpCase("tan", mt.tan, ONE, -1.2, 1.2),
    OpCase("atan", mt.math.atan, ONE, -3.0, 3.0),
    OpCase("tanh", mt.tanh, ONE),
    OpCase("sigmoid", mt.sigmoid, ONE, -6.0, 6.0),
    OpCase("abs", mt.abs, ONE, valid=away_from_zero),
    OpCase("sign", mt.sign, ONE, valid=away_from_zero),
    OpCase("relu", mt.nn.relu, ONE, valid=away_from_zero),
    OpCase("identity", mt.identity, ONE),
    OpCase("add", mt.add, PAIR),
    OpCase("subtract", mt.subtract, PAIR),
    OpCase("multiply", mt.multiply, PAIR),
    OpCase("divide", mt.divide, PAIR, valid=lambda x, y: away_from_zero(y, 0.3)),
    OpCase("multiply_no_nan", mt.math.multiply_no_nan, PAIR),
    OpCase("divide_no_nan", mt.math.divide_no_nan, PAIR, valid=lambda x, y: away_from_zero(y, 0.3)),
    OpCase("pow", mt.pow, PAIR, 0.2, 2.0),
    OpCase("maximum", mt.maximum, PAIR, valid=apart),
    OpCase("minimum", mt.minimum, PAIR, valid=apart),
    OpCase("squared_difference", mt.math.squared_difference, PAIR),
    OpCase("floormod", mt.math.floormod, PAIR, valid=lambda x, y: away_from_zero(y, 0.3) and away_from_steps(x, y)),
    OpCase("where", lambda x, y: mt.where(mt.constant(np.arange(6).reshape(2, 3) % 2 == 0), x, y),
           fixed((2, 3), (3,))),
    OpCase("clip_by_value", mt.clip_by_value, TRIPLE,
           valid=lambda x, lo, hi: apart(x, lo, hi) and np.all(np.broadcast_arrays(lo, hi)[0] < hi)),
    OpCase("clip_by_norm", lambda x: mt.clip_by_norm(x, 1.0), ONE_NONSCALAR,
           valid=lambda x: abs(np.linalg.norm(x) - 1.0) > 0.05),
    OpCase("clip_by_norm_axes", lambda x: mt.clip_by_norm(x, 1.0, axes=[1]), fixed((3, 2)),
           valid=lambda x: np.all(np.abs(np.linalg.norm(x, axis=1) - 1.0) > 0.05)),
    OpCase("norm", lambda x: mt.norm(x, axis=-1), ONE_NONSCALAR, valid=lambda x: np.all(np.abs(x) > 0.05)),
    OpCase("norm_p3", lambda x: mt.norm(x, ord=3), ONE_NONSCALAR, valid=away_from_zero),
    OpCase("norm_frobenius", lambda x: mt.norm(x, ord="fro", axis=[0, 1]), fixed((3, 2)),
           valid=lambda x: np.linalg.norm(x) > 0.1),
    OpCase("norm_matrix_1", lambda x: mt.norm(x, ord=1, axis=[0, 1]), fixed((3, 2)),
           valid=lambda x: away_from_zero(x) and sums_apart(x, 0)),
    OpCase("norm_matrix_inf", lambda x: mt.norm(x, ord=np.inf, axis=[-1, -2]), fixed((2, 3, 2)),
           valid=lambda x: away_from_zero(x) and sums_apart(x[0], 1) and sums_apart(x[1], 1), min_abs=0.05),
    OpCase("norm_spectral", lambda x: mt.norm(x, ord=2, axis=[1, 0]), fixed((3, 2)), valid=singular_gap),
    OpCase("fill", lambda x: mt.fill([2, 3], x), fixed(())),
    OpCase("linspace", lambda a, b: mt.linspace(a, b, 4, axis=1), fixed((2,), (2,))),
    OpCase("autopacking", lambda x, y: mt.reduce_sum([x, y * y], axis=0), SAME_PAIR),
    # float32 in the middle holds ~7 digits: a 1e-6 step would be mostly round-off
    OpCase("cast_f32_roundtrip", lambda x: mt.cast(mt.cast(x, mt.float32), mt.float64) * 1.0, ONE,
           delta=1e-2, rtol=1e-4, jvp_rtol=1e-6),
    OpCase("reduce_sum", lambda x: mt.reduce_sum(x, axis=-1), ONE_NONSCALAR),
    OpCase("reduce_sum_all", mt.reduce_sum, ONE),
    OpCase("reduce_sum_keepdims", lambda x: mt.reduce_sum(x, axis=0, keepdims=True), ONE_NONSCALAR),
    OpCase("reduce_mean", lambda x: mt.reduce_mean(x, axis=sorted({0, x.ndim - 1})), ONE_NONSCALAR),
    OpCase("reduce_max", lambda x: mt.reduce_max(x, axis=0), ONE_NONSCALAR, valid=distinct),
    OpCase("reduce_min", lambda x: mt.reduce_min(x, keepdims=True), ONE_NONSCALAR, valid=distinct),
    OpCase("reduce_prod", lambda x: mt.reduce_prod(x, axis=-1), ONE_NONSCALAR, 0.3, 1.5),
    OpCase("reduce_prod_all", mt.reduce_prod, ONE, -1.5, 1.5, with_zeros=True),
    OpCase("cumsum", lambda x: mt.cumsum(x, axis=-1), ONE_NONSCALAR),
    OpCase("cumsum_exclusive_reverse", lambda x: mt.cumsum(x, axis=0, exclusive=True, reverse=True), ONE_NONSCALAR),
    OpCase("cumprod", lambda x: mt.cumprod(x, axis=-1), ONE_NONSCALAR, 0.3, 1.5),
    OpCase("cumprod_exclusive_reverse", lambda x: mt.cumprod(x, axis=0, exclusive=True, reverse=True),
           ONE_NONSCALAR, 0.3, 1.5),
    OpCase("matmul", mt.matmul, MATMUL),
    OpCase("matmul_transposed", lambda a, b: mt.matmul(a, b, transpose_a=True, transpose_b=True),
           fixed((3, 2), (4, 3))),
    OpCase("matmul_transpose_a", lambda a, b: mt.matmul(a, b, transpose_a=True), fixed((2, 3, 2), (3, 4))),
    OpCase("matmul_transpose_b", lambda a, b: mt.matmul(a, b, transpose_b=True), fixed((2, 3), (2, 4, 3))),
    OpCase("transpose", mt.transpose, ONE),
    OpCase("transpose_perm", lambda x: mt.transpose(x, [1, 2, 0]), fixed((2, 3, 1))),
    OpCase("reshape", lambda x: mt.reshape(x, (-1,)), ONE),
    OpCase("squeeze", mt.squeeze, fixed((1, 3, 1))),
    OpCase("expand_dims", lambda x: mt.expand_dims(x, -1), ONE),
    OpCase("concat", lambda x, y: mt.concat([x, y, x], axis=1), fixed((2, 1), (2, 3))),
    OpCase("stack", lambda x, y: mt.stack([x, y], axis=1), SAME_PAIR),
    OpCase("tile", lambda x: mt.tile(x, [2, 1, 3]), fixed((1, 2, 2))),
    OpCase("broadcast_to", lambda x: mt.broadcast_to(x, (2, 3, 3)), fixed((3, 1))),
    OpCase("getitem_slice", lambda x: x[1:, ::2], fixed((3, 4))),
    OpCase("getitem_int_and_newaxis", lambda x: x[..., 1, None], fixed((2, 3))),
    OpCase("getitem_mask", lambda x: x[x.numpy() > 0], fixed((5,)), valid=away_from_zero),
    OpCase("softmax", lambda x: mt.nn.softmax(x), ONE_NONSCALAR),
    OpCase("softmax_axis0", lambda x: mt.nn.softmax(x, axis=0), fixed((3, 2))),
    OpCase("log_softmax", lambda x: mt.nn.log_softmax(x), ONE_NONSCALAR),
    OpCase("sigmoid_cross_entropy", lambda z, x: mt.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
           SAME_PAIR, -3.0, 3.0),
    OpCase("softmax_cross_entropy", lambda z, x: mt.nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
           SAME_PAIR, -3.0, 3.0),
]


# -- indexing, linear algebra, activations, control flow -----------------------------------------
def _shifted(a, c):
    """``a + c I`` (per matrix of a batch): a shift of 7 makes a 3 x 3 matrix of entries in [-2, 2] diagonally
    dominant, so that it is invertible and well conditioned; -7 gives it a negative determinant."""
    return a + c * np.eye(a.shape[-1])


def _spd(x):
    """A symmetric positive-definite matrix made from any square ``x``: ``x xᵀ + 2 I``."""
    return _shifted(mt.matmul(x, x, transpose_b=True), 2.0)


def _well_conditioned(*xs):
    """Condition number under 20 and no singular value under 0.1: diag(1e-3, 6.1e-5), which hypothesis drew, has a
    condition number of 16, yet its inverse bends so sharply that central differences lose the digits asked for."""
    return all(np.all(np.linalg.cond(x) < 20) and np.all(np.linalg.svd(x, compute_uv=False) > 0.1) for x in xs)


def _scaled_pieces(x):
    """Each piece of a split scaled differently, then joined: every piece's gradient must reach its own place."""
    pieces = mt.split(x, [1, -1, 1], axis=1)
    return mt.concat([p * float(k + 1) for k, p in enumerate(pieces)], axis=1)


_FREE_VARIABLE = mt.Variable(np.array([0.5, -1.5, 2.0]), dtype=mt.float64)

CASES += [
    OpCase("gather", lambda x: mt.gather(x, [2, 0, 2, 1]), fixed((3, 2))),
    OpCase("gather_axis", lambda x: mt.gather(x, [[3, 0], [1, 1]], axis=-1), fixed((2, 4))),
    OpCase("gather_batch_dims", lambda x: mt.gather(x, [[3, 1], [0, 0]], axis=2, batch_dims=1), fixed((2, 3, 4))),
    OpCase("gather_scalar_index", lambda x: mt.gather(x, 1, axis=1), fixed((2, 3))),
    OpCase("gather_nd", lambda x: mt.gather_nd(x, [[0, 1], [2, 0], [0, 1]]), fixed((3, 2))),
    OpCase("gather_nd_rows", lambda x: mt.gather_nd(x, [[[1], [0]], [[1], [1]]]), fixed((2, 3))),
    OpCase("gather_nd_batch_dims", lambda x: mt.gather_nd(x, [[[2]], [[0]]], batch_dims=1), fixed((2, 3, 2))),
    OpCase("slice", lambda x: mt.slice(x, [1, 0, 1], [-1, 2, 1]), fixed((3, 2, 3))),
    OpCase("split", _scaled_pieces, fixed((2, 4))),
    OpCase("split_equal", lambda x: mt.split(x, 3, axis=0)[1] * mt.split(x, 3, axis=0)[2], fixed((6, 2))),
    OpCase("pad_constant", lambda x: mt.pad(x, [[1, 0], [2, 1]], constant_values=0.5), fixed((2, 3))),
    OpCase("pad_reflect", lambda x: mt.pad(x, [[2, 1], [1, 2]], mode="REFLECT"), fixed((3, 3))),
    OpCase("pad_symmetric", lambda x: mt.pad(x, [[2, 1], [0, 3]], mode="symmetric"), fixed((2, 3))),
    OpCase("einsum_matmul", lambda a, b: mt.einsum("ij,jk->ik", a, b), MATMUL.filter(lambda s: len(s[0]) == 2)),
    OpCase("einsum_batch_matmul", lambda a, b: mt.einsum("bij,bjk->bik", a, b), fixed((2, 2, 3), (2, 3, 2))),
    OpCase("einsum_implicit", lambda a, b: mt.einsum("ij,jk", a, b), fixed((2, 3), (3, 2))),
    OpCase("einsum_trace", lambda a: mt.einsum("ii", a), fixed((3, 3))),
    OpCase("einsum_diagonal", lambda a: mt.einsum("ii->i", a), fixed((3, 3))),
    OpCase("einsum_repeated_and_summed", lambda a: mt.einsum("iij->j", a), fixed((2, 2, 3))),
    OpCase("einsum_sum", lambda a: mt.einsum("ij->", a), fixed((2, 3))),
    OpCase("einsum_outer", lambda a, b: mt.einsum("i,j->ij", a, b), fixed((2,), (3,))),
    OpCase("einsum_ellipsis_broadcast", lambda a, b: mt.einsum("...ij,...jk->...ik", a, b),
           fixed((2, 2, 3), (1, 3, 2))),
    OpCase("einsum_three", lambda a, b, c: mt.einsum("ij,jk,kl->il", a, b, c), fixed((2, 3), (3, 2), (2, 2))),
    OpCase("einsum_attention_scores", lambda q, k: mt.einsum("bhqd,bhkd->bhqk", q, k),
           fixed((1, 2, 2, 3), (1, 2, 3, 3))),
    OpCase("matmul_adjoint", lambda a, b: mt.matmul(a, b, adjoint_a=True, adjoint_b=True), fixed((3, 2), (4, 3))),
    OpCase("inv", lambda a: mt.linalg.inv(_shifted(a, 7.0)), fixed((3, 3))),
    OpCase("inv_adjoint_batch", lambda a: mt.linalg.inv(a, adjoint=True), fixed((2, 2, 2)), valid=_well_conditioned),
    OpCase("solve", lambda a, b: mt.linalg.solve(_shifted(a, 7.0), b), fixed((3, 3), (3, 2))),
    OpCase("solve_adjoint_batch", lambda a, b: mt.linalg.solve(a, b, adjoint=True), fixed((2, 2, 2), (2, 2, 1)),
           valid=lambda a, b: _well_conditioned(a)),
    OpCase("det", mt.linalg.det, fixed((3, 3)), valid=_well_conditioned),
    OpCase("det_batch", lambda a: mt.linalg.det(_shifted(a, -7.0)), fixed((2, 2, 2))),
    OpCase("slogdet", lambda a: mt.linalg.slogdet(a).log_abs_determinant, fixed((3, 3)), valid=_well_conditioned),
    OpCase("slogdet_sign_times_det", lambda a: mt.linalg.slogdet(_shifted(a, -7.0))[0] * mt.exp(
        mt.linalg.slogdet(_shifted(a, -7.0))[1]), fixed((3, 3))),
    OpCase("cholesky", lambda x: mt.linalg.cholesky(_spd(x)), fixed((3, 3))),
    OpCase("cholesky_batch", lambda x: mt.linalg.cholesky(_spd(x)), fixed((2, 2, 2))),
    OpCase("logdet", lambda x: mt.linalg.logdet(_spd(x)), fixed((3, 3))),
    OpCase("diag_part", lambda x: mt.linalg.diag_part(x, k=1), fixed((2, 3, 4))),
    OpCase("diag", lambda x: mt.linalg.diag(x, k=-1), fixed((2, 3))),
    OpCase("trace", mt.linalg.trace, fixed((2, 3))),
    OpCase("tensor_diag", mt.linalg.tensor_diag, fixed((2, 2))),
    OpCase("tensor_diag_part", mt.linalg.tensor_diag_part, fixed((2, 3, 2, 3))),
    OpCase("softplus", mt.nn.softplus, ONE, -6.0, 6.0),
    OpCase("reduce_logsumexp", lambda x: mt.reduce_logsumexp(x, axis=-1), ONE_NONSCALAR),
    OpCase("reduce_logsumexp_all_keepdims", lambda x: mt.reduce_logsumexp(x, keepdims=True), ONE),
    OpCase("add_n", lambda x, y: mt.add_n([x, y, x]), SAME_PAIR),
    OpCase("elu", mt.nn.elu, ONE, valid=away_from_zero),
    OpCase("swish", mt.nn.swish, ONE, -4.0, 4.0),
    OpCase("swish_beta", lambda x, beta: mt.nn.swish(x, beta=beta), fixed((3,), ())),
    OpCase("embedding_lookup", lambda t: mt.nn.embedding_lookup(t, [[3, 1], [1, 0]]), fixed((4, 2))),
    OpCase("embedding_lookup_max_norm", lambda t: mt.nn.embedding_lookup(t, [2, 0], max_norm=1.0), fixed((3, 2)),
           valid=lambda t: np.all(np.abs(np.linalg.norm(t, axis=1) - 1.0) > 0.05)),
    OpCase("cond", lambda x: mt.cond(mt.reduce_sum(x) > 0, lambda: x * x, lambda: mt.sin(x)), ONE,
           valid=lambda x: abs(np.sum(x)) > 0.05),  # the branch must not switch within a finite difference
    OpCase("while_loop", lambda x: mt.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, mt.sin(y) * x), [0, x])[1],
           ONE),
    OpCase("map_fn", lambda x: mt.map_fn(lambda row: mt.reduce_sum(row * row) * row, x), fixed((3, 2))),
    OpCase("function", mt.function(lambda x, y: mt.tanh(x) * y), PAIR),
    OpCase("recompute_grad", mt.recompute_grad(lambda x, y: mt.reduce_sum(mt.sin(x) * y, axis=-1)),
           fixed((2, 3), (3,))),
    OpCase("recompute_grad_reading_a_variable",
           mt.recompute_grad(lambda x: mt.reduce_sum(mt.sin(x * _FREE_VARIABLE))), fixed((3,))),
]


# -- shapes, ordering, scatters and small linear algebra (issue 31) ------------------------------------
def _rows_apart(x, gap=0.05):
    """No two elements of a row (last axis) closer than ``gap``: no tie for sort or top_k to break."""
    return all(distinct(row, gap) for row in np.reshape(x, (-1, x.shape[-1])))


def _neighbours_apart(images, gap=0.05):
    """No two neighbouring pixels within ``gap``: where they are equal, |difference| has a kink."""
    return away_from_zero(np.diff(images, axis=-3), gap) and away_from_zero(np.diff(images, axis=-2), gap)


def _norm_apart(*xs, limit, gap=0.05):
    """The global norm of ``xs`` is ``gap`` away from ``limit`` (where clipping starts)."""
    return abs(np.sqrt(sum(np.sum(x * x) for x in xs)) - limit) > gap


def _clipped_and_joined(x, y):
    clipped, _ = mt.clip_by_global_norm([x, None, y], 1.5)
    return mt.concat([mt.reshape(clipped[0], [-1]), clipped[2]], 0)


CASES += [
    OpCase("sort", lambda x: mt.sort(x, axis=0), ONE_NONSCALAR, valid=distinct),
    OpCase("sort_descending", lambda x: mt.sort(x, direction="DESCENDING"), fixed((2, 3)), valid=_rows_apart),
    OpCase("top_k", lambda x: mt.math.top_k(x, 2).values, fixed((2, 3)), valid=_rows_apart),
    OpCase("reverse", lambda x: mt.reverse(x, [0, -1]), fixed((2, 3))),
    OpCase("roll", lambda x: mt.roll(x, [1, -1, 2], [0, 1, 1]), fixed((2, 3))),
    OpCase("repeat", lambda x: mt.repeat(x, [2, 0, 1], axis=1), fixed((2, 3))),
    OpCase("repeat_flattened", lambda x: mt.repeat(x, 2), ONE),
    OpCase("unstack", lambda x: mt.unstack(x, axis=1)[0] * mt.unstack(x, axis=1)[2], fixed((2, 3))),
    OpCase("meshgrid", lambda x, y: mt.stack(mt.meshgrid(x, y)), fixed((2,), (3,))),
    OpCase("meshgrid_ij", lambda x, y, z: mt.stack(mt.meshgrid(x, y, z, indexing="ij")), fixed((2,), (3,), (1,))),
    OpCase("boolean_mask", lambda x: mt.boolean_mask(x, [[True, False, True], [False, True, True]]),
           fixed((2, 3, 2))),
    OpCase("boolean_mask_axis", lambda x: mt.boolean_mask(x, [True, False, True], axis=1), fixed((2, 3))),
    OpCase("scatter_nd", lambda u: mt.scatter_nd([[1], [3], [1]], u, [5, 2]), fixed((3, 2))),
    OpCase("tensor_scatter_nd_add", lambda x, u: mt.tensor_scatter_nd_add(x, [[0, 2], [1, 0], [0, 2]], u),
           fixed((2, 3), (3,))),
    # An index given twice keeps its last update but sends the gradient to both, as TensorFlow does (a fixture
    # checks it); finite differences see only the last, so the indices here are distinct.
    OpCase("tensor_scatter_nd_update", lambda x, u: mt.tensor_scatter_nd_update(x, [[2], [0]], u),
           fixed((3, 2), (2, 2))),
    OpCase("segment_sum", lambda x: mt.math.segment_sum(x, [0, 0, 2]), fixed((3, 2))),
    OpCase("unsorted_segment_sum", lambda x: mt.math.unsorted_segment_sum(x, [[2, -1], [0, 2]], 3),
           fixed((2, 2, 3))),
    OpCase("tensordot", lambda a, b: mt.tensordot(a, b, [[0, 2], [1, 0]]), fixed((2, 3, 2), (2, 2))),
    OpCase("tensordot_outer", lambda a, b: mt.tensordot(a, b, 0), fixed((2,), (3,))),
    OpCase("matvec", lambda a, b: mt.linalg.matvec(a, b, transpose_a=True), fixed((2, 3, 2), (3,))),
    OpCase("cross", mt.linalg.cross, fixed((2, 3), (2, 3))),
    OpCase("band_part", lambda x: mt.linalg.band_part(x, 1, 0), fixed((2, 3, 3))),
    OpCase("set_diag", lambda x, d: mt.linalg.set_diag(x, d, k=1), fixed((2, 3), (2,))),
    OpCase("adjoint", mt.linalg.adjoint, fixed((2, 3, 2))),
    OpCase("global_norm", lambda x, y: mt.linalg.global_norm([x, None, y]), fixed((2, 3), (2,)),
           valid=lambda x, y: _norm_apart(x, y, limit=0.0, gap=0.1)),
    OpCase("clip_by_global_norm", _clipped_and_joined, fixed((2, 3), (2,)),
           valid=lambda x, y: _norm_apart(x, y, limit=1.5) and _norm_apart(x, y, limit=0.0, gap=0.1)),
    OpCase("normalize", lambda x: mt.linalg.normalize(x, axis=-1)[0], fixed((2, 3)),
           valid=lambda x: np.all(np.linalg.norm(x, axis=-1) > 0.1)),
    OpCase("vectorized_map", lambda x: mt.vectorized_map(lambda r: r * mt.reduce_sum(r * r), x), fixed((3, 2))),
    OpCase("total_variation", mt.image.total_variation, fixed((2, 2, 3, 1)), valid=_neighbours_apart),
]


# -- issue 31: elementwise math, reductions, activations and losses ----------------------------------------------
def _off_the_branch_cut(y, x, gap=0.1):
    """Away from the origin and from the negative x axis, where atan2 jumps from pi to -pi."""
    y, x = np.broadcast_arrays(y, x)
    return np.all(np.hypot(x, y) > gap) and np.all((x > 0) | (np.abs(y) > gap))


CASES += [
    OpCase("sinh", mt.sinh, ONE),
    OpCase("cosh", mt.cosh, ONE),
    OpCase("asin", mt.asin, ONE, -0.9, 0.9),
    OpCase("acos", mt.acos, ONE, -0.9, 0.9),
    OpCase("asinh", mt.asinh, ONE, -3.0, 3.0),
    OpCase("acosh", mt.acosh, ONE, 1.1, 3.0),
    OpCase("atanh", mt.atanh, ONE, -0.9, 0.9),
    OpCase("atan2", mt.atan2, PAIR, valid=_off_the_branch_cut),
    OpCase("erf", mt.math.erf, ONE),
    OpCase("erfc", mt.math.erfc, ONE),
    OpCase("lgamma", mt.math.lgamma, ONE, 0.2, 4.0),
    OpCase("lgamma_negative", mt.math.lgamma, ONE, -0.9, -0.1),
    OpCase("digamma", mt.math.digamma, ONE, 0.3, 12.0),
    OpCase("digamma_negative", mt.math.digamma, ONE, -1.8, -1.2),
    OpCase("expm1", mt.math.expm1, ONE),
    OpCase("xlogy", mt.math.xlogy, PAIR, 0.2, 2.0),
    OpCase("log_sigmoid", mt.math.log_sigmoid, ONE, -6.0, 6.0),
    OpCase("scalar_mul", mt.math.scalar_mul, fixed((), (2, 3))),
    OpCase("reduce_variance", lambda x: mt.math.reduce_variance(x, axis=-1), ONE_NONSCALAR),
    OpCase("reduce_std", lambda x: mt.math.reduce_std(x, axis=0, keepdims=True), fixed((3, 2)),
           valid=lambda x: np.all(np.std(x, axis=0) > 0.1)),
    OpCase("reduce_euclidean_norm", lambda x: mt.math.reduce_euclidean_norm(x, axis=[0, -1]), fixed((2, 2, 3)),
           valid=lambda x: np.all(np.linalg.norm(x, axis=(0, 2)) > 0.1)),
    OpCase("moments", lambda x: mt.stack(mt.nn.moments(x, axes=[0])), fixed((4, 2))),
    OpCase("gelu", mt.nn.gelu, ONE, -4.0, 4.0),
    OpCase("gelu_approximate", lambda x: mt.nn.gelu(x, approximate=True), ONE, -4.0, 4.0),
    OpCase("leaky_relu", lambda x: mt.nn.leaky_relu(x, alpha=0.3), ONE, valid=away_from_zero),
    OpCase("selu", mt.nn.selu, ONE, valid=away_from_zero),
    OpCase("relu6", mt.nn.relu6, ONE, -2.0, 8.0, valid=lambda x: away_from_zero(x) and away_from_zero(x - 6.0)),
    OpCase("softsign", mt.nn.softsign, ONE, valid=away_from_zero),
    OpCase("l2_normalize", lambda x: mt.nn.l2_normalize(x, axis=-1), fixed((2, 3)),
           valid=lambda x: np.all(np.linalg.norm(x, axis=-1) > 0.1)),
    OpCase("sparse_softmax_cross_entropy",
           lambda x: mt.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x), fixed((2, 3))),
    OpCase("batch_normalization", lambda x, m, v, o, s: mt.nn.batch_normalization(x, m, v * v + 0.5, o, s, 1e-3),
           fixed((2, 3), (3,), (3,), (3,), (3,))),
    OpCase("batch_normalization_without_offset_and_scale",
           lambda x, m, v: mt.nn.batch_normalization(x, m, v * v + 0.5, None, None, 1e-3), fixed((2, 3), (3,), ())),
]


# -- issue 31: decompositions and the solvers built on them (linalg2) -----------------------------------------
def _apart(values, gap=0.1):
    """No two of the last axis's values closer than ``gap`` (where eigenvectors and singular vectors turn)."""
    v = np.sort(values, axis=-1)
    return v.shape[-1] < 2 or np.min(np.diff(v, axis=-1)) > gap


def _eigenvalues_apart(x):
    lower = np.tril(x)
    return _apart(np.linalg.eigvalsh(lower + np.swapaxes(np.tril(x, -1), -1, -2)))


def _singular_values_apart(x):
    s = np.linalg.svd(x, compute_uv=False)
    return _apart(s) and np.all(s > 0.1)


def _pairs(u, v):
    """``u_j v_jᵀ`` for every column ``j``: free of the sign each column pair of a decomposition may take."""
    return mt.einsum("...ij,...kj->...ikj", u, v)


def _qr_with_a_positive_diagonal(x, part):
    """``Q`` and ``R`` with ``R``'s diagonal made positive: the QR decomposition that is unique (and smooth)."""
    q, r = mt.linalg.qr(x)
    signs = mt.sign(mt.linalg.diag_part(r[..., :, :r.shape[-2]]))
    return q * mt.expand_dims(signs, -2) if part == 0 else r * mt.expand_dims(signs, -1)


CASES += [
    OpCase("eigvalsh", mt.linalg.eigvalsh, fixed((3, 3)), valid=_eigenvalues_apart),
    OpCase("eigh_eigenvectors", lambda x: _pairs(*[mt.linalg.eigh(x)[1]] * 2), fixed((3, 3)), valid=_eigenvalues_apart),
    OpCase("eigh_batch", lambda x: _pairs(mt.linalg.eigh(x)[1], mt.linalg.eigh(x)[1] * mt.expand_dims(
        mt.linalg.eigh(x)[0], -2)), fixed((2, 2, 2)), valid=_eigenvalues_apart),
    OpCase("svd_singular_values", lambda x: mt.linalg.svd(x, compute_uv=False), fixed((3, 2)),
           valid=_singular_values_apart),
    OpCase("svd_tall", lambda x: _pairs(*mt.linalg.svd(x)[1:]), fixed((3, 2)), valid=_singular_values_apart),
    OpCase("svd_wide", lambda x: _pairs(*mt.linalg.svd(x)[1:]), fixed((2, 3)), valid=_singular_values_apart),
    OpCase("svd_left_vectors_batch", lambda x: _pairs(*[mt.linalg.svd(x, full_matrices=True)[1]] * 2),
           fixed((2, 2, 2)), valid=_singular_values_apart),
    OpCase("svd_right_vectors", lambda x: _pairs(*[mt.linalg.svd(x)[2]] * 2), fixed((2, 3)),
           valid=_singular_values_apart),
    OpCase("svd_full_matrices_tall", lambda x: _pairs(*[mt.linalg.svd(x, full_matrices=True)[1]] * 2), fixed((3, 2)),
           valid=_singular_values_apart),
    OpCase("svd_full_matrices_wide", lambda x: _pairs(*[mt.linalg.svd(x, full_matrices=True)[2]] * 2), fixed((2, 3)),
           valid=_singular_values_apart),
    OpCase("qr_q", lambda x: _qr_with_a_positive_diagonal(x, 0), fixed((3, 2)), valid=_singular_values_apart),
    OpCase("qr_r", lambda x: _qr_with_a_positive_diagonal(x, 1), fixed((3, 2)), valid=_singular_values_apart),
    OpCase("qr_wide", lambda x: _qr_with_a_positive_diagonal(x, 1), fixed((2, 3)),
           valid=lambda x: _singular_values_apart(x[..., :2])),
    OpCase("qr_square_batch", lambda x: _qr_with_a_positive_diagonal(x, 0), fixed((2, 2, 2)),
           valid=_singular_values_apart),
    OpCase("triangular_solve", lambda a, b: mt.linalg.triangular_solve(_shifted(a, 5.0), b), fixed((3, 3), (3, 2))),
    OpCase("triangular_solve_upper_adjoint_broadcast",
           lambda a, b: mt.linalg.triangular_solve(_shifted(a, 5.0), b, lower=False, adjoint=True),
           fixed((3, 3), (2, 3, 1))),
    OpCase("cholesky_solve", lambda x, b: mt.linalg.cholesky_solve(mt.linalg.cholesky(_spd(x)), b),
           fixed((2, 2, 2), (2, 2, 1))),
    OpCase("pinv", mt.linalg.pinv, fixed((3, 2)), valid=_singular_values_apart),
    OpCase("lstsq", lambda a, b: mt.linalg.lstsq(a, b, l2_regularizer=0.1), fixed((3, 2), (3, 2)),
           valid=lambda a, b: _singular_values_apart(a)),
    OpCase("lstsq_least_norm", lambda a, b: mt.linalg.lstsq(a, b), fixed((2, 3), (2, 1)),
           valid=lambda a, b: _singular_values_apart(a)),
]


# -- issue 31: convolutions, pooling and dropout ---------------------------------------------------------------
CASES += [
    OpCase("conv1d", lambda x, w: mt.nn.conv1d(x, w, stride=2, padding="SAME"), fixed((2, 5, 2), (3, 2, 2))),
    OpCase("conv2d", lambda x, w: mt.nn.conv2d(x, w, strides=[1, 2], padding="SAME"),
           fixed((1, 3, 4, 2), (2, 3, 2, 2))),
    OpCase("conv2d_dilated", lambda x, w: mt.nn.conv2d(x, w, 1, "VALID", dilations=[2, 1]),
           fixed((1, 4, 3, 1), (2, 2, 1, 2))),
    OpCase("conv2d_explicit_padding", lambda x, w: mt.nn.conv2d(x, w, 2, [[0, 0], [1, 0], [0, 2], [0, 0]]),
           fixed((2, 3, 3, 1), (2, 2, 1, 1))),
    OpCase("conv2d_with_two_batch_axes", lambda x, w: mt.nn.conv2d(x, w, 1, "VALID"),
           fixed((2, 1, 2, 3, 1), (2, 2, 1, 1))),
    OpCase("conv2d_grouped_channels_first", lambda x, w: mt.nn.conv2d(x, w, 1, "SAME", data_format="NCHW"),
           fixed((1, 4, 2, 3), (2, 2, 2, 2))),
    OpCase("conv2d_transpose", lambda g, w: mt.nn.conv2d_transpose(g, w, [1, 5, 4, 1], 2, "SAME"),
           fixed((1, 3, 2, 2), (3, 2, 1, 2))),
    # finite differences (steps of 1e-6) cannot step across a tie within a window: the elements are drawn 1e-4
    # apart (a wider gap throws away most of the inputs hypothesis draws for these 14 and 18 elements)
    OpCase("max_pool2d", lambda x: mt.nn.max_pool2d(x, 2, 1, "SAME"), fixed((1, 3, 3, 2)),
           valid=lambda x: distinct(x, 1e-4), unique=True),
    OpCase("max_pool1d_overlapping", lambda x: mt.nn.max_pool1d(x, 3, 2, "VALID"), fixed((2, 7, 1)),
           valid=lambda x: distinct(x, 1e-4), unique=True),
    OpCase("avg_pool2d", lambda x: mt.nn.avg_pool2d(x, [2, 3], 2, "SAME"), fixed((1, 3, 5, 2))),
    OpCase("avg_pool1d", lambda x: mt.nn.avg_pool1d(x, 2, 1, "VALID"), fixed((2, 4, 3))),
    OpCase("dropout", lambda x: mt.nn.dropout(x, 0.4, seed=7), ONE_NONSCALAR),  # a seed: the same mask every call
    OpCase("dropout_tensor_rate", lambda x, r: mt.nn.dropout(x, r, seed=7), fixed((3, 4), ()), 0.1, 0.8),
]
