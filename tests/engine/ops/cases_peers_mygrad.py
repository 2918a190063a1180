"""MyGrad's op tests (tests/math/, tests/tensor_ops/, tests/linalg/, tests/nnet/, tests/test_tensor_manip.py), ported:
see cases_peers.py.

MyGrad's `backprop_test_factory` draws float64 arrays with Hypothesis (shapes up to 3 dims of side 3 unless a
test says otherwise, elements in the test's bounds) and keyword arguments from strategies (an axis, keepdims,
ddof, ...), and compares MyGrad's gradient with numerical differences. Here each such test is a few fixed
draws: a shape and the keyword values its strategies produce (several axes, keepdims both ways), values from
the test's bounds, in float64, with PyTorch as the reference. MyGrad's functions that PyTorch lacks (csc, sec,
cot, their hyperbolic and inverse forms; autodiff has them) are compared with PyTorch running the test's own
definition (`reference`): values and gradients, not the graph.
A row: (MyGrad's test, the program, one input per name x, y, z: a shape or the values, options).
"""

from __future__ import annotations

from typing import Any

B10 = {"low": -10.0, "high": 10.0}
PI = 3.141592653589793
# PyTorch's var(dim=()) reduces every element but its backward treats dim=() as no reduction (a gradient N times
# too large; var_mean's is inf): autodiff's gradient is the derivative of the value, so they differ
VAR_EMPTY_DIM = "disagreement: PyTorch's own var(dim=()) gradient is N times the derivative of its value"
# README: iterating over a tensor gives SelectBackward0 rows (PyTorch: UnbindBackward0); values and grads agree


def _missing(name: str, reference: str, low: float, high: float) -> dict:
    """A MyGrad function that neither PyTorch nor autodiff has."""
    return {"reference": reference, "low": low, "high": high, "expect": f"missing op: {name}"}


def _ref(program: str, **bounds: float) -> dict:
    return {"reference": program, **bounds}


UNARY = [  # tests/math/unary/
    ("test_abs_backward", "torch.abs(x)", (3, 3), B10),
    ("test_absolute_backward", "torch.absolute(x)", (2, 3), {"low": -100.0, "high": 100.0}),
    ("test_cbrt_backward", "torch.cbrt(x)", (3, 2), {"low": -100.0, "high": 100.0,
                                                     "reference": "torch.sign(x) * torch.abs(x) ** (1 / 3)"}),
    ("test_csch_backward", "csch(x)", (3,), _missing("csch", "1 / torch.sinh(x)", 0.001, 10.0)),
    ("test_sech_backward", "sech(x)", (3,), _missing("sech", "1 / torch.cosh(x)", 0.001, 10.0)),
    ("test_coth_backward", "coth(x)", (3,), _missing("coth", "1 / torch.tanh(x)", 0.001, 10.0)),
    ("test_arcsinh_backward", "torch.arcsinh(x)", (2, 3)),
    ("test_arccosh_backward", "torch.arccosh(x)", (2, 3), {"low": 1.001, "high": 10.0}),
    ("test_arctanh_backward", "torch.arctanh(x)", (2, 3), {"low": -0.5, "high": 0.5}),
    ("test_arccsch_backward", "arccsch(x)", (3,), _missing("arccsch", "torch.arcsinh(1 / x)", 1.0, 10.0)),
    ("test_arccoth_backward", "arccoth(x)", (3,), _missing("arccoth", "torch.arctanh(1 / x)", 5.0, 10.0)),
    ("test_arccsc_backward", "arccsc(x)", (3,), _ref("torch.arcsin(1 / x)", low=1.1, high=100.0)),
    ("test_arcsec_backward", "arcsec(x)", (3,), _ref("torch.arccos(1 / x)", low=1.1, high=100.0)),
    ("test_arccot_backward", "arccot(x)", (3,), _ref("torch.arctan(1 / x)", low=0.1, high=10.0)),
    ("test_sinc_backward", "torch.sinc(x)", (3, 2)),
    ("test_csc_backward", "csc(x)", (2, 3), _ref("1 / torch.sin(x)", low=1e-5, high=PI - 1e-5)),
    ("test_sec_backward", "sec(x)", (2, 3), _ref("1 / torch.cos(x)", low=-PI / 2 + 1e-5, high=PI / 2 - 1e-5)),
    ("test_cot_backward", "cot(x)", (2, 3), _ref("1 / torch.tan(x)", low=1e-5, high=PI - 1e-5)),
    ("test_maximum_bkwd", "torch.maximum(x, y)", (3, 1), (1, 3)),
    ("test_minimum_bkwd", "torch.minimum(x, y)", (2, 3), (3,)),
    ("test_clip_bkwd", "torch.clip(x, -1.0, 1.5)", (3, 3)),
    ("test_clip_bkwd", "torch.clip(x, min=y)", (3, 3), (3,)),
    ("test_clip_bkwd", "torch.clip(x, max=y)", (3, 3), (3, 1)),
]

BINARY = [  # tests/math/binary/test_binary_funcs.py: each operator with both inputs varying (broadcast)
    ("test_add_bkwd", "x + y", (2, 3), (3,)),
    ("test_sub_bkwd", "x - y", (3, 1), (1, 3)),
    ("test_mul_bkwd", "x * y", (2, 3), (2, 1)),
    ("test_div_bkwd", "x / y", (2, 3), (3,), {"low": 1.0, "high": 10.0}),
    ("test_pow_bkwd", "x ** y", (2, 3), (3,), {"low": 1.0, "high": 3.0}),
    ("test_logaddexp_bkwd", "torch.logaddexp(x, y)", (2, 3), (2, 3)),
    ("test_logaddexp2_bkwd", "torch.logaddexp2(x, y)", (3,), (2, 3)),
    ("test_arctan2_bkwd", "torch.arctan2(x, y)", (2, 3), (3,)),
]

SEQUENCE = [  # tests/math/sequence/test_sequential_funcs.py
    ("test_max_bkwd", "torch.amax(x)", (3, 3)),
    ("test_max_bkwd", "torch.amax(x, dim=1)", (2, 3, 3)),
    ("test_max_bkwd", "torch.amax(x, dim=(0, 2), keepdim=True)", (2, 3, 3)),
    ("test_min_bkwd", "torch.amin(x, dim=-1)", (3, 2)),
    ("test_min_bkwd", "torch.amin(x, dim=(0, 1), keepdim=True)", (3, 2)),
    ("test_sum_bkwd", "torch.sum(x)", (2, 3)),
    ("test_sum_bkwd", "torch.sum(x, dim=(0, 2), keepdim=True)", (2, 3, 2)),
    ("test_sum_bkwd", "torch.sum(x, dim=())", (2, 3)),
    ("test_mean_bkwd", "torch.mean(x, dim=1)", (2, 3, 2), B10),
    ("test_mean_bkwd", "torch.mean(x, dim=(-1, 0), keepdim=True)", (2, 3, 2), B10),
    ("test_var_bkwd_without_keepdims", "torch.var(x, dim=1, correction=0)", (3, 3), B10),
    ("test_var_bkwd_without_keepdims", "torch.var(x, dim=(0, 1), correction=1)", (2, 3, 2), B10),
    ("test_var_bkwd_with_keepdims", "torch.var(x, dim=0, correction=2, keepdim=True)", (3, 3), B10),
    ("test_var_no_axis_bkwrd", "torch.var(x, dim=(), correction=0)", (3,), {"expect": VAR_EMPTY_DIM}),
    ("test_std_bkwd", "torch.std(x, correction=0)", (2, 3), B10),
    ("test_std_bkwd", "torch.std(x, dim=1, correction=1, keepdim=True)", (2, 3), B10),
    ("test_prod_bkwd", "torch.prod(x)", (2, 3)),
    ("test_prod_bkwd", "torch.prod(x, dim=1, keepdim=True)", (2, 3, 2)),
    ("test_multi_zero_prod_bkwd", "torch.prod(x, dim=0)", [[0.0, 2.0, 0.0], [0.0, 0.0, 3.0], [1.5, 0.0, 2.0]]),
    ("test_multi_zero_prod_bkwd", "torch.prod(x)", [[0.0, 2.0], [0.0, 1.5]]),
    ("test_cumprod_bkwd", "torch.cumprod(x, 0)", (3, 2)),
    ("test_cumprod_bkwd", "torch.cumprod(x.flatten(), 0)", (2, 3)),
    ("test_cumprod_bkwd2", "torch.cumprod(x, 1)", [[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]),
    ("test_cumsum_bkwd", "torch.cumsum(x, -1)", (2, 3, 2)),
    ("test_cumsum_bkwd", "torch.cumsum(x.flatten(), 0)", (2, 3)),
]

MANIP = [  # tests/test_tensor_manip.py
    ("test_transpose_property_bkwd", "x.T", (2, 3)),
    ("test_transpose_bkwd", "x.permute(2, 0, 1)", (2, 3, 2)),
    ("test_transpose_bkwd", "torch.permute(x, (1, 0))", (3, 2)),
    ("test_squeeze_bkwd", "torch.squeeze(x)", (1, 3, 1)),
    ("test_squeeze_bkwd", "torch.squeeze(x, 2)", (2, 3, 1)),
    ("test_expand_dims_bkwd", "torch.unsqueeze(x, -1)", (2, 3)),
    ("test_expand_dims_bkwd", "torch.unsqueeze(x, 0)", ()),
    ("test_moveaxis_bkwd", "torch.moveaxis(x, 0, -1)", (2, 3, 4)),
    ("test_moveaxis_bkwd", "torch.movedim(x, (0, 1), (2, 0))", (2, 3, 4)),
    ("test_swapaxes_bkwd", "torch.swapaxes(x, 0, 2)", (2, 3, 2)),
    ("test_swapaxes_bkwd", "x.transpose(1, 0)", (2, 3)),
    ("test_flatten_bkwd", "x.flatten()", (2, 3, 2)),
    ("test_ravel_bkwd", "torch.ravel(x)", (3, 2)),
    ("test_broadcast_to_bkwd", "torch.broadcast_to(x, (2, 3, 3))", (3, 1)),
    ("test_broadcast_to_bkwd", "x.expand(2, 3)", (3,)),
    ("test_roll_bkwd", "torch.roll(x, (1, -2), (0, 1))", (3, 3)),
    ("test_roll_bkwd", "torch.roll(x, 4)", (2, 3)),
    ("test_repeat_int_repeats_only_bkwd", "torch.repeat_interleave(x, 2)", (2, 3)),
    ("test_repeat_tuple_repeats_only_bkwd", "x.repeat(2, 1, 3)", (3, 2)),
    ("test_atleast_1d_only_bkwd", "torch.atleast_1d(x)", ()),
    ("test_atleast_2d_only_bkwd", "torch.atleast_2d(x)", (3,)),
    ("test_atleast_3d_only_bkwd", "torch.atleast_3d(x)", (2, 3)),
    ("test_reshape_bkwd", "x.reshape(3, -1)", (2, 3, 2)),
    ("test_reshape_bkwd", "torch.reshape(x, (6,))", (2, 3)),
]

GETITEM = [  # tests/tensor_ops/test_getitem.py: basic, integer-array, boolean and mixed indices
    ("test_getitem_basicindex_bkwdprop", "x[1:, ::2]", (4, 5)),
    ("test_getitem_basicindex_bkwdprop", "x[..., None, -1]", (2, 3, 4)),
    ("test_getitem_basicindex_bkwdprop", "x[0, 1:3]", (3, 4)),
    ("test_getitem_basicindex_bkwdprop", "x[:0]", (3, 4)),
    ("test_getitem_advindex_int_bkwdprop", "x[[0, 2, 0]]", (3, 4)),
    ("test_getitem_advindex_int_bkwdprop", "x[[[0, 1], [1, 1]], [[2, 0], [0, 3]]]", (3, 4)),
    ("test_getitem_advindex_int_bkwdprop", "x[[-1, 0], :, [1, 1]]", (2, 3, 4)),
    ("test_getitem_advindex_bool_bkwdprop", "x[x > 0]", (3, 4)),
    ("test_getitem_advindex_bool_bkwdprop", "x[torch.tensor([True, False, True])]", (3, 4)),
    ("test_getitem_broadcast_index_bkwdprop", "x[[[0], [1]], [1, 2, 0]]", (2, 3)),
    ("test_getitem_bool_int_fancy_index", "x[[1, 0], [True, False, True]]", (2, 3)),
    ("test_getitem_bool_axes_index", "x[:, [False, True, True], 1:]", (2, 3, 4)),
    ("test_getitem_arange_index", "x[torch.arange(2), torch.tensor([2, 0])]", (2, 3)),
    ("test_setitem_sanity_check", "y = x * 1; y[0, 1] = 5.0; y[1:] = y[1:] * x[1:]; y", (3, 3)),
    ("test_iter_bkwd", "sum([row * i for i, row in enumerate(x)])", (3, 4)),
]

NNET = [  # tests/nnet/activations/
    ("test_elu_bkwd", "F.elu(x, alpha=0.75)", (2, 3), B10),
    ("test_glu_bkwd", "F.glu(x, dim=1)", (2, 4)),
    ("test_hard_tanh_bkwd", "F.hardtanh(x, -0.5, 1.25)", (3, 3)),
    ("test_leaky_relu_bkwd", "F.leaky_relu(x, 0.3)", (3, 3)),
    ("test_relu_bkwd", "F.relu(x)", (3, 3)),
    ("test_selu_bkwd", "F.selu(x)", (3, 3)),
    ("test_sigmoid_bkwd", "torch.sigmoid(x)", (3, 3), B10),
    ("test_soft_sign_bkwd", "F.softsign(x)", (3, 3)),
    ("test_softmax_bkwd", "F.softmax(x, dim=0)", (3, 3)),
    ("test_softmax_bkwd", "torch.softmax(x, -1)", (2, 3, 2)),
    ("test_logsoftmax_bkwd", "F.log_softmax(x, dim=1)", (2, 3, 2), B10),
]

LOSSES = [  # tests/nnet/losses/
    ("test_nll_bkwd", "F.nll_loss(F.log_softmax(x, dim=1), torch.tensor([0, 2, 1]))", (3, 4)),
    ("test_softmax_crossentropy_bkwd", "F.cross_entropy(x, torch.tensor([3, 0, 1]))", (3, 4)),
    ("test_margin_ranking_bkwd", "F.margin_ranking_loss(x, y, torch.tensor([1.0, -1.0, 1.0]), margin=0.5)",
     (3,), (3,)),
    ("test_multiclass_hinge_bkwd", "F.multi_margin_loss(x, torch.tensor([1, 0]))", (2, 3),
     {"expect": "missing op: multi_margin_loss"}),
]

LINALG = [  # tests/linalg/
    ("test_matmul_bkwd", "x @ y", (3,), (3,)),
    ("test_matmul_bkwd", "x @ y", (2, 3), (3,)),
    ("test_matmul_bkwd", "x @ y", (3,), (3, 2)),
    ("test_matmul_bkwd", "x @ y", (2, 3), (3, 4)),
    ("test_multi_matmul_bkwd", "torch.linalg.multi_dot([x, y, z])", (2, 3), (3, 4), (4, 2)),
    ("test_multi_matmul_bkwd", "x @ y @ z", (2, 3), (3, 4), (4,)),
    ("test_norm_bkwd_ord_2", "torch.linalg.norm(x, ord=2, dim=1)", (3, 3)),
    ("test_norm_bkwd_ord_2", "torch.linalg.vector_norm(x, 2, dim=(0, 1), keepdim=True)", (2, 3)),
    ("test_norm_bkwd", "torch.linalg.vector_norm(x, 1, dim=0)", (3, 2)),
    ("test_norm_bkwd", "torch.linalg.vector_norm(x, 3.5, dim=-1)", (2, 3)),
    ("test_norm_bkwd", "torch.linalg.vector_norm(x, float('inf'), dim=1)", (2, 3)),
    ("test_norm_bkwd", "torch.linalg.vector_norm(x, -1.5)", (4,)),
    ("test_einsum_bkwd", "torch.einsum('ij,jk->ik', x, y)", (2, 3), (3, 2)),
    ("test_einsum_bkwd", "torch.einsum('ii->i', x)", (3, 3)),
    ("test_einsum_bkwd", "torch.einsum('i,i,i->', x, y, z)", (3,), (3,), (3,)),
    ("test_einsum_bkwd", "torch.einsum('...j,j->...', x, y)", (2, 2, 3), (3,)),
]


def table(P: Any) -> Any:
    t = P.Table("mygrad", "")
    for prefix, rows in (("tests/math/unary", UNARY), ("tests/math/binary/test_binary_funcs.py", BINARY),
                         ("tests/math/sequence/test_sequential_funcs.py", SEQUENCE),
                         ("tests/test_tensor_manip.py", MANIP), ("tests/tensor_ops/test_getitem.py", GETITEM),
                         ("tests/nnet/activations", NNET), ("tests/nnet/losses", LOSSES), ("tests/linalg", LINALG)):
        t.cases.extend(P.table_of("mygrad", prefix, rows, dtype=P.F64).cases)
    return t
