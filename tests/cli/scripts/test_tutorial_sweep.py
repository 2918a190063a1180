"""Issue #27's sweep of PyTorch's autograd tutorials run as written: what the sweep found missing. Writes at an
index of tensors, lists or a mask (`grad_h[h < 0] = 0`, PyTorch's index_put_ and IndexPutBackward0), numpy's
item assignment, torch.accelerator. The whole tutorials, against PyTorch's recorded output:
examples/tutorials/50_* on."""

from __future__ import annotations

from pathlib import Path

import pytest


def run(cli, tmp_path: Path, text: str):
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    return cli("run", str(path))


def test_mask_write_without_grad(cli, tmp_path):
    text = ("import torch\nh = torch.tensor([[1.0, -2.0], [-3.0, 4.0]])\ng = torch.ones(2, 2) * 5\n"
            "g[h < 0] = 0\nprint(g)\ng[[0]] = torch.tensor([7.0, 8.0])\nprint(g)\n"
            "g[:, torch.tensor([True, False])] = -1\nprint(g)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == ("tensor([[5., 0.],\n        [0., 5.]])\ntensor([[7., 8.],\n        [0., 5.]])\n"
                          "tensor([[-1.,  8.],\n        [-1.,  5.]])\n"), out.stderr


def test_index_put_is_recorded_as_pytorch_records_it(cli, tmp_path):
    text = ("import torch\na = torch.tensor([[1.0, -2.0], [-3.0, 4.0]], requires_grad=True)\nx = a * 2\n"
            "x[x < 0] = 0\nprint(x)\nprint(x.grad_fn.name(), x.grad_fn.next_functions[1])\n"
            "x.sum().backward()\nprint(a.grad)\n"
            "v = torch.tensor([1.0, 2.0], requires_grad=True)\ny = a * 1\ny[[0, 1]] = v\n"
            "(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()\nprint(v.grad)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == ("tensor([[2., 0.],\n        [0., 8.]], grad_fn=<IndexPutBackward0>)\n"
                          "IndexPutBackward0 (None, 0)\ntensor([[2., 0.],\n        [0., 2.]])\n"
                          "tensor([4., 6.])\n"), out.stderr


def test_custom_relu_writes_its_gradient_by_mask(cli, tmp_path):
    text = ("import torch\nclass MyReLU(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, input):\n"
            "        ctx.save_for_backward(input)\n        return input.clamp(min=0)\n    @staticmethod\n"
            "    def backward(ctx, grad_output):\n        input, = ctx.saved_tensors\n"
            "        grad_input = grad_output.clone()\n        grad_input[input < 0] = 0\n        return grad_input\n"
            "x = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)\nMyReLU.apply(x).sum().backward()\n"
            "print(x.grad)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "tensor([0., 1., 0.])\n", out.stderr


def test_numpy_item_assignment(cli, tmp_path):
    text = ("import numpy as np\nh = np.array([[1.0, -2.0], [-3.0, 4.0]])\ng = h.copy()\ng[h < 0] = 0\nprint(g)\n"
            "g[0, 1], g[1, 0] = 9, 8\nprint(g)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "[[1. 0.]\n [0. 4.]]\n[[1. 9.]\n [8. 4.]]\n", out.stderr


def test_accelerator_is_absent_as_on_a_cpu_machine(cli, tmp_path):
    text = ("import torch\ndevice = torch.accelerator.current_accelerator().type if torch.accelerator.is_available()"
            " else 'cpu'\nprint(device, torch.accelerator.device_count(), torch.accelerator.current_accelerator())\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "cpu 0 None\n", out.stderr


@pytest.mark.parametrize(("tail", "kind", "words"), [
    ("x = torch.zeros(2, 2)\nx[0, torch.tensor([True, False])] = 1\n", "value",
     "writing at an index of tensors, lists or a mask combined with integers, None or partial slices"),
    ("x = torch.zeros(2, 2)\nx[torch.tensor([True, False])] = torch.ones(3)\n", "shape",
     "shape mismatch: value tensor of shape (3,) cannot be broadcast to indexing result of shape (1, 2)"),
    ("a = torch.ones(2, 2, requires_grad=True)\ny = a * 1\nrow = y[0]\nrow[torch.tensor([True, False])] = 0\n",
     "value", "into a view that requires grad is not supported"),
    ("a = torch.ones(2, requires_grad=True)\na[torch.tensor([True, False])] = 0\n", "autograd",
     "a leaf Variable that requires grad is being used in an in-place operation"),
    ("a = torch.ones(2, requires_grad=True)\na.grad = 0.0\n", "value",
     "assigned grad expected to be a Tensor or None but got float"),
])
def test_write_mistakes_say_what(cli, tmp_path, tail, kind, words):
    out = run(cli, tmp_path, "import torch\n" + tail)
    assert out.code == 1 and out.stderr.startswith("Traceback") and words in out.stderr, out.stderr


def test_profiler_runs_its_block_and_says_timings_are_not_available(cli, tmp_path):
    text = ("import torch\nz = torch.ones(2)\nwith torch.autograd.profiler.profile(use_cuda=False) as prf:\n"
            "    for _ in range(3):\n        z = z * 2\nprint(z)\n"
            "print(prf.key_averages().table(sort_by='self_cpu_time_total'))\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "tensor([8., 8.])\n"
    assert out.code == 1 and "line 7" in out.stderr
    assert "RuntimeError: the profiler's timings are not available in autodiff" in out.stderr, out.stderr


def test_saved_tensor_hooks_say_what_to_use_instead(cli, tmp_path):
    text = ("import torch\nwith torch.autograd.graph.saved_tensors_hooks(print, print):\n    pass\n")
    out = run(cli, tmp_path, text)
    assert out.code == 1 and "RuntimeError: hooks on saved tensors are not part of autodiff" in out.stderr
    assert "tensor.register_hook(fn) runs fn on a gradient" in out.stderr, out.stderr


def test_functorch_is_torch_func_and_make_functional_calls_the_model(cli, tmp_path):
    text = ("import torch\nimport torch.nn as nn\nimport functorch as ft\ntorch.manual_seed(0)\n"
            "model = nn.Linear(2, 1)\n"
            "x = torch.ones(3, 2)\nfunc, params, buffers = ft.make_functional_with_buffers(model)\n"
            "print(len(params), buffers, torch.equal(func(params, buffers, x), model(x)))\n"
            "f2, p2 = ft.make_functional(model)\nprint(torch.equal(f2(p2, x), model(x)))\n"
            "out, t = ft.jvp(lambda a: a.sin(), (torch.zeros(2),), (torch.ones(2),))\nprint(out, t)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "2 () True\nTrue\ntensor([0., 0.]) tensor([1., 1.])\n", out.stderr


def test_empty_is_a_tensor_to_write_into(cli, tmp_path):
    text = ("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nw = nn.Parameter(torch.empty(2, 3))\n"
            "w.data.uniform_(-0.1, 0.1)\nprint(w)\nprint(torch.empty(2).shape, torch.empty_like(w).requires_grad)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == ("Parameter containing:\ntensor([[-0.0007,  0.0536, -0.0823],\n        [-0.0736, -0.0385,  "
                          "0.0268]], requires_grad=True)\ntorch.Size([2]) False\n"), out.stderr


@pytest.mark.parametrize(("text", "kind", "words"), [
    ("import torch\nz = torch.randn(2, dtype=torch.cfloat)\n", "name",
     "AttributeError: module 'torch' has no attribute 'cfloat': complex tensors are not available in autodiff"),
])
def test_out_of_scope_constructs_say_what_instead(cli, tmp_path, text, kind, words):
    out = run(cli, tmp_path, text)
    assert out.code == 1 and words in out.stderr, out.stderr


# A script and what PyTorch 2.13 printed for it: double backward, repeated indices, forward-mode tangents
INDEX_PUT_SCRIPT = """\
import torch
import torch.autograd.forward_ad as fwAD
a = torch.tensor([[1.0, -2.0, 3.0], [-3.0, 4.0, -1.0]], requires_grad=True)
v = torch.tensor([5.0, 6.0], requires_grad=True)
x = a * a
x[x > 5] = v.sum()
print(x)
g, = torch.autograd.grad(x.sum(), a, create_graph=True)
print(g)
gg, = torch.autograd.grad((g * g).sum(), a)
print(gg)
y = a * 1
y[[0, 0]] = torch.tensor([[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]])
print(y)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = a * 1
z[:, [0, 2]] = w[:2]
(z * z).sum().backward()
print(w.grad, a.grad)
with fwAD.dual_level():
    p = fwAD.make_dual(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([1.0, 1.0, 1.0]))
    q = p * 2
    q[q < 0] = 0
    print(fwAD.unpack_dual(q).tangent)
    r = torch.zeros(3)
    r[torch.tensor([True, False, True])] = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
    print(fwAD.unpack_dual(r).tangent)
"""
INDEX_PUT_PYTORCH = """\
tensor([[ 1.,  4., 11.],
        [11., 11.,  1.]], grad_fn=<IndexPutBackward0>)
tensor([[ 2., -4.,  0.],
        [-0.,  0., -2.]], grad_fn=<AddBackward0>)
tensor([[  8., -16.,   0.],
        [ -0.,   0.,  -8.]])
tensor([[ 1.,  2.,  3.],
        [-3.,  4., -1.]], grad_fn=<IndexPutBackward0>)
tensor([4., 8., 0.]) tensor([[ 0., -4.,  0.],
        [ 0.,  8.,  0.]])
tensor([2., 0., 2.])
tensor([3., 0., 4.])
"""


def test_index_put_twice_differentiated_repeated_and_in_forward_mode_as_pytorch(cli, tmp_path):
    out = run(cli, tmp_path, INDEX_PUT_SCRIPT)
    assert out.stdout == INDEX_PUT_PYTORCH, out.stderr
