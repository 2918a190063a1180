"""torch.func.vmap, functional_call and stack_module_state in scripts (issue #27): what they print, as PyTorch
2.13 printed it for the same scripts (recorded once; the values of a vmapped result are PyTorch's, its grad_fn is
StackBackward0), and their mistakes as PyTorch words them, as value errors."""

from __future__ import annotations

from pathlib import Path

import pytest


def run(cli, tmp_path: Path, text: str):
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    return cli("run", str(path))


SCRIPTS = {
    'basic': ('import torch\n'
        'from torch.func import vmap, grad, jacrev, functional_call\n'
        'x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n'
        'y = vmap(torch.sin)(x)\n'
        'y.sum().backward()\n'
        'print(x.grad)\n'
        'def f(a, b):\n'
        '    return (a * b).sum(), a - b\n'
        'print(vmap(f, in_dims=(0, None))(x.detach(), torch.tensor([1., 0., -1.])))\n'
        'print(vmap(f, in_dims=(1, None), out_dims=(0, 1))(x.detach(), torch.tensor([1., 0.])))\n'
        'print(vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))\n'
        'print(torch.vmap(lambda t, k: t * k, in_dims=(0, None))(torch.arange(3.), 2))\n'
        'print(vmap(jacrev(torch.sin))(torch.tensor([[0., 1.], [2., 3.]])))\n'
        "print(vmap(lambda d: d['a'] + d['b'], in_dims=({'a': 0, 'b': None},))"
        "({'a': torch.ones(2, 2), 'b': torch.ones(2)}))\n"
        'print(vmap(lambda t: (t, t.sum()), out_dims=(1, 0))(torch.arange(6.).view(2, 3)))\n',
        'tensor([[ 0.5403, -0.4161, -0.9900],\n'
            '        [-0.6536,  0.2837,  0.9602]])\n'
            '(tensor([-2., -2.]), tensor([[0., 2., 4.],\n'
            '        [3., 5., 7.]]))\n'
            '(tensor([1., 2., 3.]), tensor([[0., 1., 2.],\n'
            '        [4., 5., 6.]]))\n'
            'tensor([[4., 4., 4.],\n'
            '        [4., 4., 4.]])\n'
            'tensor([0., 2., 4.])\n'
            'tensor([[[ 1.0000,  0.0000],\n'
            '         [ 0.0000,  0.5403]],\n'
            '\n'
            '        [[-0.4161, -0.0000],\n'
            '         [-0.0000, -0.9900]]])\n'
            'tensor([[2., 2.],\n'
            '        [2., 2.]])\n'
            '(tensor([[0., 3.],\n'
            '        [1., 4.],\n'
            '        [2., 5.]]), tensor([ 3., 12.]))\n'),
    'per_sample': ('import torch\n'
        'from torch.func import vmap, grad, functional_call\n'
        'torch.manual_seed(0)\n'
        'model = torch.nn.Linear(3, 2)\n'
        'params = {k: v.detach() for k, v in model.named_parameters()}\n'
        'def loss(p, xi, yi):\n'
        '    out = functional_call(model, p, (xi.unsqueeze(0),))\n'
        '    return torch.nn.functional.mse_loss(out, yi.unsqueeze(0))\n'
        'x = torch.randn(4, 3)\n'
        'y = torch.randn(4, 2)\n'
        'g = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)\n'
        "print(g['weight'].shape, g['bias'])\n"
        'print(model.weight.grad, model(x).sum())\n',
        'torch.Size([4, 2, 3]) tensor([[-0.0653,  0.9189],\n'
            '        [ 0.8458,  1.7083],\n'
            '        [ 0.0842, -0.9183],\n'
            '        [-1.3461, -0.5275]])\n'
            'None tensor(1.6473, grad_fn=<SumBackward0>)\n'),
    'randomness': ('import torch\n'
        'from torch.func import vmap\n'
        'torch.manual_seed(0)\n'
        "print(vmap(lambda t: torch.randn(2) + t, randomness='same')(torch.zeros(3)))\n"
        'print(torch.randn(1))\n',
        'tensor([[ 1.5410, -0.2934],\n        [ 1.5410, -0.2934],\n        [ 1.5410, -0.2934]])\ntensor([-2.1788])\n'),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_script_prints_what_pytorch_printed(cli, tmp_path, name):
    text, expected = SCRIPTS[name]
    out = run(cli, tmp_path, text)
    assert (out.code, out.stdout) == (0, expected), out.stderr


ERRORS = [
    ('import torch\nfrom torch.func import vmap\nvmap(torch.add)(torch.ones(2), torch.ones(3))\n',
     'vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [2, 3] for the '
         'mapped dimension'),
    ('import torch\nfrom torch.func import vmap\nvmap(torch.sin, in_dims=1)(torch.ones(2))\n',
     'vmap(sin, in_dims=1, ...)(<inputs>): Got in_dim=1 for some input, but that input is a Tensor of '
         'dimensionality 1 so expected in_dim to satisfy -1 <= in_dim < 1.'),
    ('import torch\nfrom torch.func import vmap\nvmap(torch.add, in_dims=(0,))(torch.ones(2), torch.ones(2))\n',
     'vmap(add, in_dims=(0,), ...)(<inputs>): in_dims is not compatible with the structure of `inputs`.'),
    ('import torch\nfrom torch.func import vmap\nvmap(torch.add, in_dims=(0, 0))(torch.ones(2), 1.0)\n',
     'vmap(add, in_dims=(0, 0), ...)(<inputs>): Got in_dim=0 for an input but the input is of type <class '
         "'float'>. We cannot vmap over non-Tensor arguments, please use None as the respective in_dim"),
    ('import torch\nfrom torch.func import vmap\nvmap(torch.add, in_dims=None)(torch.ones(2), 1.0)\n',
     'vmap(add, in_dims=None, ...)(<inputs>): expected `in_dims` to be int or a (potentially nested) '
         "tuple matching the structure of inputs, got: <class 'NoneType'>."),
    ('import torch\nfrom torch.func import vmap\nvmap(lambda t: torch.randn(2))(torch.ones(2))\n',
     "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
         "'different' randomness flags on vmap or perform the randomness operation out of vmap"),
    ('import torch\nfrom torch.func import vmap\nvmap(lambda t: 1.0)(torch.ones(2))\n',
     "vmap(<lambda>, ...): `<lambda>` must only return Tensors, got type <class 'float'>. Did you mean to "
         'set out_dims= to None for output?'),
    ("import torch\nfrom torch.func import vmap\nvmap(torch.sin, randomness='x')\n",
     "Only allowed values for randomness are 'error', 'different', or 'same'. Got x"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_mistakes_are_runtime_errors_worded_as_pytorch(cli, tmp_path, text, message):
    out = run(cli, tmp_path, text)
    assert out.code == 1 and out.stderr.splitlines()[-1].startswith("RuntimeError: "), out.stderr
    assert message in out.stderr


def test_a_stack_of_many_tensors_that_require_grad_records_at_once(cli, tmp_path):
    """vmap over 64 samples stacks 64 results that require grad (Op.saved_for enumerated 2**64 combinations)."""
    text = ("import torch\nfrom torch.func import vmap, jacrev\nx = torch.ones(64, 3, requires_grad=True)\n"
            "y = vmap(lambda t: (t * t).sum())(x)\ny.sum().backward()\nprint(y.shape, x.grad.sum())\n"
            "print(jacrev(torch.sin)(torch.zeros(40)).sum())\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "torch.Size([64]) tensor(384.)\ntensor(40.)\n", out.stderr


def test_functools_partial_and_a_dict_of_parameters_in_vjp_and_jvp(cli, tmp_path):
    text = ("import torch\nfrom functools import partial\nfrom torch.func import vjp, jvp\n"
            "def f(p, x):\n    return (p['w'] * x).sum()\np = {'w': torch.tensor([1., 2.])}\n"
            "x = torch.tensor([3., 4.])\n"
            "out, fn = vjp(partial(f, x=x), p)\nprint(out, fn(torch.tensor(1.)))\n"
            "print(jvp(lambda q: f(q, x), (p,), ({'w': torch.tensor([1., 0.])},)))\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "tensor(11.) ({'w': tensor([3., 4.])},)\n(tensor(11.), tensor(3.))\n", out.stderr


def test_copy_deepcopy_of_a_model_copies_its_parameters(cli, tmp_path):
    out = run(cli, tmp_path, "import copy, torch\nm = torch.nn.Linear(2, 1)\nc = copy.deepcopy(m)\n"
                             "with torch.no_grad():\n    c.weight.fill_(3.0)\n"
                             "print(c.weight, c.weight.requires_grad, bool((m.weight == 3).any()))\n")
    assert (out.code, out.stdout) == (0, "Parameter containing:\ntensor([[3., 3.]], requires_grad=True) True False\n")
