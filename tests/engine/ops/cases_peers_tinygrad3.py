"""tinygrad's op tests (test/backend/test_ops.py, class TestOps) that loop over parameters, ported, part 3: see
cases_peers.py and cases_peers_tinygrad.py (the same inputs: float32, uniform in [-2, 2), large shapes scaled
down). Each loop of tinygrad's test is unrolled here into one row per parameter value."""

from __future__ import annotations

from typing import Any

# the value of `x` tinygrad's convolution and pooling tests use: (batch, channels, height, width), scaled down
IMAGE = (2, 2, 7, 9)
# tinygrad's fancy-indexing tests index a (2, 5, 6, 5, 3, 4) tensor with random index tensors a..e drawn in fixed
# ranges and shapes (_get_index_randoms); here a smaller tensor and fixed draws in those ranges, with the shapes'
# long sides halved, bound by the program's first statements (ints in PyTorch, whole floats in autodiff)
FANCY = (2, 3, 4, 4, 3, 2)
INDICES = ("a = torch.tensor([0, -1]).reshape(2, 1, 1, 1, 1, 1); "
           "b = torch.tensor([0, 0]).reshape(1, 2, 1, 1, 1, 1); "
           "c = torch.tensor([-3, 2]).reshape(1, 1, 2, 1, 1, 1); "
           "d = torch.tensor([1, 2, 0, 2]).reshape(2, 1, 1, 2, 1, 1); "
           "e = torch.tensor([0, 0]).reshape(1, 1, 1, 1, 2, 1); ")
FANCY_INDICES = {
    "test_slice_fancy_indexing_no_dim_collapse": ["a, b, c, d, e", ":, b, c, d, :", "a, b, ...", "a, ..., e",
                                                  "..., c, :, e"],
    "test_slice_fancy_indexing_dim_collapse_int": ["1, b, c, d, e", "a, b, 3, d, e", "1, b, 2, d, 2", "a, 2, 2, 2, e",
                                                   "1, :, 3:11:2, d, 0:2"],
    "test_slice_fancy_indexing_dim_inject_none": ["None, b, c, d, e", "a, b, c, d, None", "a, b, None, d, e",
                                                  "None, b, c, d, None", "a, :, None, d, e",
                                                  "None, None, None, None, None", "None, None, b, c, d, e",
                                                  "None, None, b, c, None, None", "a, None, None, c, d, e",
                                                  "a, None, None, c, None, None", "None, None, b, None, d, e"],
    "test_slice_fancy_indexing_dim_inject_and_collapse": ["1, b, None, d, 1", "None, b, 2, d, None", "..., 1, d, None"],
    "test_slice_fancy_indexing_list_indices": ["(0,), b, c, d, :", "[[[0]]], b, c, d, [[1]]", "(1, 0, -1), b, c, d, :",
                                               "a, b, c, (1, 2, 3), ...", "a, b, c, [[1], [2], [3]], ...",
                                               "a, (2, 1, 0), c, (-2, 1, 0), e"],
    "test_slice_fancy_indexing_tuple_indices": ["(((0,),),)", "(1, 0), b, c, d, :",
                                                "a, ((2,), (1,), (0,)), c, (2, 1, 0)",
                                                "1, (2, 1, 0), None, c, (2, 1, 0), e"],
    "test_slice_fancy_indexing_list_with_tensors": ["(a,)", "(a, 1)", "(a, (1, 1))", "(a, b, c, d, e)"],
}


def _rows() -> list[tuple]:
    rows: list[tuple] = []
    rows += [("test_celu", f"F.celu(x, {val})", shape) for val in range(1, 5) for shape in ((5, 7), ())]
    rows += [("test_hardtanh", f"F.hardtanh(x, -{val / 10}, {val / 10})", shape)
             for val in range(10, 30, 5) for shape in ((5, 7), ())]  # tinygrad's bounds are 10..25: x/10 here
    for op in ("torch.add", "torch.sub", "torch.mul", "torch.div", "torch.pow"):
        bounds = {"low": 0.0, "high": 3.0} if op == "torch.pow" else {}
        for shapes in (((5, 3, 4, 2), (5, 1, 4, 1)), ((1, 3, 1, 3, 1), (2, 1, 2, 1, 4))):
            rows.append(("test_broadcast_full", f"{op}(x, y)", *shapes, bounds))
        for shapes in (((1, 4, 3, 3), (1, 4, 1, 1)), ((2, 3, 2, 2, 2), (1, 3, 2, 1, 1)), ((4, 1), (4, 5)),
                       ((1, 4), (5, 4))):
            rows.append(("test_broadcast_partial", f"{op}(x, y)", *shapes, bounds))
    for value in (0.0, 3.456):
        for shape, program in (((1,), "F.pad(x, (1, 0), value={v})[0]"), ((4,), "F.pad(x, (3, 0), value={v})[0:1]"),
                               ((4,), "F.pad(x, (0, 3), value={v})[6]"), ((4,), "F.pad(x, (0, 3), value={v})[4:6]"),
                               ((5, 5), "F.pad(x, (0, 0, 1, 0), value={v})[0]"),
                               ((2, 2), "F.pad(x, (0, 1, 0, 0), value={v})[0, 2]"),
                               ((4, 4), "F.pad(x, (0, 0, 0, 2), value={v})[3:5]"),
                               ((4, 4), "F.pad(x, (3, 0, 0, 0), value={v})[1, 0:4]"),
                               ((4, 4), "F.pad(x, (3, 4, 1, 2), value={v})[:, 4]"),
                               ((3, 3), "F.pad(x, (0, 1, 3, 2), value={v})[0:2, :]"),
                               ((3, 3, 3), "F.pad(x, (1, 1, 0, 1, 3, 2), value={v})[2:4, :, :]")):
            rows.append(("test_pad_slice", program.format(v=value), shape))
    rows += [("test_stack_slice", "torch.stack([x for i in range(3)])[0, :]", (4,)),
             ("test_stack_slice", "torch.stack([x for i in range(3)])[0, 0]", (5,)),
             ("test_stack_slice", "torch.stack([x for i in range(4)])[3]", (4, 4))]
    rows += [("test_flatten", f"x.flatten(start_dim={axis})", (4, 3, 2, 2)) for axis in range(3)]
    rows += [("test_flatten", f"x.flatten(end_dim={axis})", (4, 3, 2, 2)) for axis in range(3)]
    rows += [("test_flatten", "x.flatten(start_dim=1, end_dim=3)", (4, 3, 2, 2)), ("test_flatten", "x.flatten()", ()),
             ("test_flatten", "x.flatten()", (1,))]
    rows += [("test_cat", f"torch.cat((x, y, z), {dim})", (3, 4, 2), (3, 4, 2), (3, 4, 2)) for dim in range(-2, 3)]
    rows += [("test_multicat", f"torch.cat((x, y, z), {dim})", (3, 4), (3, 4), (3, 4)) for dim in range(-1, 2)]
    rows += [("test_stack", f"torch.stack((x, y, z), {dim})", (3, 2, 3), (3, 2, 3), (3, 2, 3)) for dim in range(-1, 3)]
    rows += [("test_cat", "torch.cat((x, x))", 3.14, {"grad": (False,)})]  # tinygrad checks the IndexError
    for reps in ([], [4], [2, 1], [3, 2, 2]):
        repeats = ", ".join(str(r) for r in [2, 4, 3, *reps])
        rows += [("test_repeat", f"x.repeat({repeats})", (2, 3, 2) if len(reps) < 2 else (1, 2, 1)),
                 ("test_repeat", f"x.repeat({repeats})", ())]
    rows += [("test_simple_repeat", "x.repeat(3, 3, 4)", (3, 3))]
    rows += [("test_softmax", "torch.nn.Softmax(dim=1)(x)", (5, 7)),
             ("test_softmax", "torch.nn.Softmax(dim=0)(x)", (45,)),
             ("test_softmax", "torch.nn.Softmax(dim=0)(x)", ()), ("test_softmax", "torch.nn.Softmax(dim=-1)(x)", ()),
             ("test_log_softmax", "torch.nn.LogSoftmax(dim=1)(x)", (5, 7)),
             ("test_log_softmax", "torch.nn.LogSoftmax(dim=0)(x)", (45,)),
             ("test_log_softmax", "torch.nn.LogSoftmax(dim=-1)(x)", ()),
             ("test_softmin", "torch.nn.Softmin(dim=1)(x)", (5, 7))]
    rows += [(test, f"{INDICES}x[{index}]", FANCY) for test, indices in FANCY_INDICES.items() for index in indices]
    gather = "b = torch.remainder(torch.arange(60) * 7, 3).reshape(3, 4, 5); "  # tinygrad: randint(3, size=[3,4,5])
    rows += [("test_gather", f"{gather}x.gather(dim={dim}, index=b)", shape)
             for dim, shape in ((0, (4, 5, 6)), (1, (4, 5, 6)), (2, (4, 5, 6)), (0, (3, 4, 5)), (-1, (4, 5, 6)),
                                (-2, (4, 5, 6)), (-3, (4, 5, 6)))]
    return rows + _image_rows()


def _image_rows() -> list[tuple]:
    """Convolutions and pooling."""
    rows = [("test_simple_conv2d", "F.conv2d(x, y)", (1, 4, 5, 5), (4, 4, 3, 3)),
            ("test_simple_conv2d_bias", "F.conv2d(x, y, z)", (1, 4, 5, 5), (4, 4, 3, 3), (4,))]
    for ksz in ("2", "(3, 3)", "(3, 2)", "(5, 5)", "(5, 1)"):
        rows += [("test_max_pool2d", f"F.max_pool2d(x, kernel_size={ksz})", IMAGE),
                 ("test_avg_pool2d", f"F.avg_pool2d(x, kernel_size={ksz})", IMAGE)]
    rows += [("test_avg_pool2d", "F.avg_pool2d(x, kernel_size=(1, 2), padding=(0, 1), stride=(5, 1))", (1, 1, 8, 8))]
    for ksz in ("(3, 3)", "2", "(3, 2)"):
        for p in ("1", "(1, 0)", "(0, 1)"):
            rows.append(("test_max_pool2d_padding", f"F.max_pool2d(x, kernel_size={ksz}, padding={p})", IMAGE))
    return rows


def table(P: Any) -> Any:
    return P.table_of("tinygrad", "test/backend/test_ops.py::TestOps", _rows(), dtype=P.F32)
