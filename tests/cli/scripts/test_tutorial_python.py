"""The rest of the Python and torch.autograd that tutorials use (issue #27): modules, from-import, classes and
custom autograd Functions, decorators and arguments, dictionaries and formatting, devices and numpy,
torch.autograd.functional, gradcheck and saved tensors. What they print is checked against PyTorch by the
examples (examples/tutorials/32_* to 35_*); here, what each prints in small cases and what its mistakes say."""

from __future__ import annotations

from pathlib import Path

import pytest


def run(cli, tmp_path: Path, text: str, *options: str):
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    return cli("run", *options, str(path))


@pytest.mark.parametrize(("text", "stdout"), [
    ("import math\nprint(math.pi, math.e, math.tau, math.inf, math.sqrt(2), math.floor(2.5), math.factorial(5))\n",
     "3.141592653589793 2.718281828459045 6.283185307179586 inf 1.4142135623730951 2 120\n"),
    ("import torch\nimport math\nprint(math.exp(torch.tensor(0.0)))\n", "1.0\n"),
    ("from math import pi, sqrt as root\nprint(pi, root(4))\n", "3.141592653589793 2.0\n"),
    ("from __future__ import annotations\nfrom torch.autograd import (grad,\n    Function)\nprint(grad.__name__)\n",
     "grad\n"),
    ("import itertools\nfor i in itertools.count(3, 2):\n    if i > 7:\n        break\n    print(i)\n", "3\n5\n7\n"),
    ("d = {'a': 1, 'b': 2}\nprint(d, len(d), d.get('z', 0), "
     "{k: v * 2 for k, v in d.items()}, list(d.keys()))\n", "{'a': 1, 'b': 2} 2 0 {'a': 2, 'b': 4} ['a', 'b']\n"),
    ("print('%.2f|%5d|%s|%r' % (3.14159, 42, 'x', 'y'), '{} {:.1f} {n}'.format(1, 2.25, n='k'))\n",
     "3.14|   42|x|'y' 1 2.2 k\n"),
    ("import torch\nprint('%.3f' % torch.tensor(2.0), '{:.2f}'.format(torch.tensor(1.5)))\n", "2.000 1.50\n"),
    ("def f(a, b=2, *args, c=3, **kw):\n    return a, b, args, c, kw\nprint(f(1), f(1, 5, 6, 7, c=0, z=9))\n",
     "(1, 2, (), 3, {}) (1, 5, (6, 7), 0, {'z': 9})\n"),
    ("def f(a, b):\n    return a - b\nargs = [5, 2]\nprint(f(*args), f(**{'b': 1, 'a': 3}))\n", "3 2\n"),
    ("import torch\nx = torch.ones(2)\nprint(isinstance(x, torch.Tensor), isinstance(1.5, (int, float)), type(x), "
     "type(2) == int, type(2))\n", "True True <class 'torch.Tensor'> True <class 'int'>\n"),
    ("class A:\n    n = 1\n    def __init__(self, v):\n        self.v = v\n    def get(self):\n        return self.v"
     " + self.n\nclass B(A):\n    def __init__(self, v):\n        super().__init__(v * 10)\n    def __call__(self, w):"
     "\n        return self.get() + w\nb = B(2)\nprint(b(1), b.v, B.n, isinstance(b, A))\n", "22 20 1 True\n"),
    ("class C:\n    @staticmethod\n    def s(x):\n        return x + 1\n    @classmethod\n    def k(cls):\n"
     "        return cls.s(1)\nprint(C.s(1), C().s(2), C.k())\n", "2 3 2\n"),
    ("import torch\n@torch.no_grad()\ndef f(x):\n    return x * 2\nx = torch.ones(1, requires_grad=True)\n"
     "print(f(x), torch.is_grad_enabled())\n", "tensor([2.]) True\n"),
    ("import torch\nprint(torch.device('cpu'), repr(torch.device('cuda:0')), torch.cuda.is_available(), "
     "torch.ones(2, device='cpu').device)\n", "cpu device(type='cuda', index=0) False cpu\n"),
    ("import numpy as np\nimport torch\nnp.random.seed(0)\na = np.array([1.0, 2.0]) * 2\nprint(a, a.sum(), "
     "torch.from_numpy(a), np.random.rand())\n",
     "[2. 4.] 6.0 tensor([2., 4.], dtype=torch.float64) 0.5488135039273248\n"),
])
def test_constructs_print_what_python_prints(cli, tmp_path, text, stdout):
    out = run(cli, tmp_path, text)
    assert (out.code, out.stderr, out.stdout) == (0, "", stdout)


EXP = ("import torch\nclass Exp(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
       "        result = torch.exp(x)\n        ctx.save_for_backward(result)\n        return result\n"
       "    @staticmethod\n    def backward(ctx, grad_out):\n        result, = ctx.saved_tensors\n"
       "        return result * grad_out\n")


def test_custom_function_is_recorded_as_pytorch_names_it_and_differentiates_twice(cli, tmp_path):
    text = EXP + ("x = torch.tensor(0.0, requires_grad=True)\ny = Exp.apply(x)\nprint(y, y.grad_fn.name())\n"
                  "g, = torch.autograd.grad(y, x, create_graph=True)\ngg, = torch.autograd.grad(g, x)\nprint(g, gg)\n"
                  "print(Exp.apply(torch.ones(1)))\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == ("tensor(1., grad_fn=<ExpBackward>) ExpBackward\ntensor(1., grad_fn=<MulBackward0>) "
                          "tensor(1.)\ntensor([2.7183])\n"), out.stderr


@pytest.mark.parametrize(("tail", "kind", "words"), [
    ("y = Exp.apply(x)\ny.backward()\ny.backward()\n", "autograd", "backward through the graph a second time"),
    ("class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return g, g\nBad.apply(x).backward()\n", "autograd",
     "returned an incorrect number of gradients (expected 1, got 2)"),
    ("class Bad(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return torch.ones(3)\n"
     "Bad.apply(torch.ones(2, requires_grad=True)).sum().backward()\n", "autograd",
     "returned an invalid gradient at index 0 - got [3] but expected shape compatible with [2]"),
    ("from torch.autograd.function import once_differentiable\nclass Once(torch.autograd.Function):\n"
     "    @staticmethod\n    def forward(ctx, x):\n        ctx.save_for_backward(x)\n        return x ** 2\n"
     "    @staticmethod\n    @once_differentiable\n    def backward(ctx, g):\n        x, = ctx.saved_tensors\n"
     "        return 2 * x * g\ng, = torch.autograd.grad(Once.apply(x), x, torch.tensor(1.0, requires_grad=True), "
     "create_graph=True)\ng.backward()\n",
     "autograd", "trying to differentiate twice a function that was marked with @once_differentiable"),
    ("from torch.autograd import gradx\n", "name", "cannot import name 'gradx' from 'torch.autograd'"),
    ("x.cuda()\n", "value", "CUDA is not available: autodiff runs everything on the CPU"),
    ("torch.ones(2, device=torch.device('cuda'))\n", "value", "CUDA is not available"),
    ("x.numpy()\n", "autograd", "Can't call numpy() on Tensor that requires grad"),
    ("class Wrong(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return g * 3\n"
     "torch.autograd.gradcheck(Wrong.apply, torch.tensor([0.5], dtype=torch.float64, requires_grad=True))\n",
     "autograd", "Jacobian mismatch for output 0 with respect to input 0"),
    ("y = x * 2\nprint(y.grad_fn._saved_nothing)\n", "name", "'MulBackward0' object has no attribute "
     "'_saved_nothing'"),
])
def test_mistakes_say_what_and_where(cli, tmp_path, tail, kind, words):
    out = run(cli, tmp_path, EXP + "x = torch.tensor(1.0, requires_grad=True)\n" + tail)
    assert out.code == 1 and out.stderr.startswith("Traceback") and words in out.stderr, out.stderr


def test_saved_tensor_properties(cli, tmp_path):
    text = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x.pow(2)\n"
            "print(y.grad_fn._saved_self is x, y.grad_fn._saved_exponent)\nz = x.exp()\n"
            "print(z.grad_fn._saved_result, z.grad_fn._saved_result is z)\nz.sum().backward()\n"
            "print(z.grad_fn._saved_result)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "True 2\ntensor([2.7183, 7.3891], grad_fn=<ExpBackward0>) False\n"
    assert "backward through the graph a second time" in out.stderr


def test_functional_jacobian_hessian_and_gradcheck(cli, tmp_path):
    text = ("import torch\nfrom torch.autograd.functional import jacobian, hessian\n"
            "x = torch.tensor([1.0, 2.0])\nprint(jacobian(lambda t: t ** 2, x))\n"
            "print(hessian(lambda t: (t ** 3).sum(), x))\n"
            "print(torch.autograd.gradcheck(torch.sin, torch.tensor([0.5], dtype=torch.float64, requires_grad=True)))"
            "\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == ("tensor([[2., 0.],\n        [0., 4.]])\ntensor([[ 6.,  0.],\n        [ 0., 12.]])\nTrue\n")


def test_in_place_unary_methods_and_expand_as(cli, tmp_path):
    text = ("import torch\nx = torch.tensor([0.0, 1.0], requires_grad=True)\ny = x * 1\ny.exp_()\n"
            "print(y, y.expand_as(torch.ones(2, 2)).shape)\n")
    out = run(cli, tmp_path, text)
    assert out.stdout == "tensor([1.0000, 2.7183], grad_fn=<ExpBackward0>) torch.Size([2, 2])\n", out.stderr


def test_a_float32_training_loop_prints_pytorchs_numbers(cli, tmp_path):
    script = ("import torch\nimport math\ntorch.manual_seed(0)\nx = torch.linspace(-math.pi, math.pi, 5)\n"
              "y = torch.sin(x)\na = torch.randn((), requires_grad=True)\nb = torch.randn((), requires_grad=True)\n"
              "for t in range(3):\n    loss = (a + b * x - y).pow(2).sum()\n    loss.backward()\n"
              "    with torch.no_grad():\n        a -= 1e-3 * a.grad\n        b -= 1e-3 * b.grad\n"
              "        a.grad = None\n        b.grad = None\nprint(a.item(), b.item())\n")
    out = run(cli, tmp_path, script)
    assert (out.code, out.stdout) == (0, "1.4952269792556763 -0.23416222631931305\n")  # PyTorch 2.13's output


@pytest.mark.parametrize(("text", "stdout"), [
    ("d = {'a': 1, 'b': 2}\ndel d['a']\nx = [1, 2, 3, 4]\ndel x[0], x[-1]\ny = 5\ndel y\nprint(d, x)\n",
     "{'b': 2} [2, 3]\n"),
    ("x = [1, 2, 3, 4]\ndel x[1:3]\nprint(x)\n", "[1, 4]\n"),
    ("class A:\n    pass\na = A()\nsetattr(a, 'v', 3)\n"
     "print(getattr(a, 'v'), getattr(a, 'w', 'none'), hasattr(a, 'v'))\ndelattr(a, 'v')\nprint(hasattr(a, 'v'))\n",
     "3 none True\nFalse\n"),
    ("import torch\nimport torch.nn as nn\nm = nn.Linear(2, 1)\ndel m.bias\n"
     "print([n for n, _ in m.named_parameters()])\n",
     "['weight']\n"),
])
def test_del_and_the_attribute_builtins(cli, tmp_path, text, stdout):
    out = run(cli, tmp_path, text)
    assert (out.code, out.stdout) == (0, stdout)


def test_a_linear_layer_runs_on_dual_parameters_and_gradcheck_checks_forward_mode(cli, tmp_path):
    """The forward-mode AD tutorial's modules and custom Function sections (examples/tutorials/42 has PyTorch's
    output)."""
    example = Path(__file__).resolve().parents[3] / "examples" / "tutorials" / "42_forward_ad_modules.py"
    text, expected = example.read_text(), example.with_suffix(".expected").read_text()
    out = run(cli, tmp_path, text)
    assert (out.code, out.stdout) == (0, expected)


CLOSURES = '''\
def outer(a):
    def middle(b):
        def inner(c):
            return a + b + c
        return inner(3)
    return middle(2)
print(outer(1))
def mk(f):
    def middle(x):
        return lambda y: f(y, x)
    return middle
print(mk(lambda p, q: p * q)(4)(5))
fs = [lambda: i for i in range(3)]
print([f() for f in fs], [g() for g in [lambda i=i: i for i in range(3)]])
def counter():
    count = [0]
    def inc():
        count[0] += 1
        return count[0]
    return inc
c = counter()
c()
print(c())
def fact_maker():
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return fact
print(fact_maker()(5))
x = 10
def f():
    return x
def g():
    x = 20
    return f()
h = lambda: x
def k():
    x = 30
    return h()
print(g(), k())
class A:
    y = 5
    def m(self):
        return 7
print(A().m())
def late():
    v = 1
    def show():
        return v
    v = 2
    return show()
print(late())
def in_function():
    k = 4
    class A:
        v = k + 1
        def m(self):
            return k * 10 + self.v
    return A().m()
print(in_function())
'''


def test_closures_read_the_enclosing_functions_names_as_python(cli, tmp_path):
    """A nested function or lambda reads the names of the functions it was defined in (late-bound, as Python's
    closures; torch.func tutorials build functions this way), never its caller's; `count[0] += 1` on a list."""
    out = run(cli, tmp_path, CLOSURES)
    assert out.code == 0, out.stderr
    assert out.stdout == "6\n20\n[2, 2, 2] [0, 1, 2]\n2\n120\n10 10\n7\n2\n45\n"
