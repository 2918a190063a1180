"""The engine loads in two steps (engine/lazy.py): a program that needs only the first step never loads the
second, and nothing can tell the difference otherwise: every name, method and listing is whole. Each check
runs in a fresh process (this test process has long loaded everything)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SECOND = ("convolution", "optim", "modules", "decompositions", "custom", "forward", "gradcheck", "nnlayers")


def fresh(code: str) -> list[str]:
    """Run code in a fresh interpreter; its printed lines."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip().split("\n")


@pytest.mark.parametrize("args", [
    ["eval", "(2*x)**3", "x=1.5", "--format", "json"],
    ["eval", "c = a + b; e = c * d", "a=2", "b=3", "d=4", "--trace", "--format", "plain"],
    ["check", "x**2*sin(x)", "x=1.5", "--expect", "2x sin(x) + x^2 cos(x)"],
    ["table", "sin(x)", "x=0:1"],
    ["graph", "x*y", "x=1", "y=2", "--format", "json"],
    ["jacobian", "sin(x)*y", "x=1", "y=2"],
])
def test_the_commands_of_a_formula_load_only_the_first_step(args):
    """A command on a formula loads none of the engine's second step (nn, optim, decompositions, ...): a
    variable's name is known not to be a built-in without loading it (engine/names.py)."""
    out = fresh(f"""
import contextlib, io, sys
from autodiff.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as text:
    try:
        main({args!r})
    except SystemExit as done:
        print("exit", done.code)
from autodiff.engine import lazy
print(lazy.is_loaded(), [m for m in {SECOND!r} if "autodiff.engine." + m in sys.modules])
print(len(text.getvalue()) > 0)
""")
    assert out == ["False []", "True"]


@pytest.mark.parametrize(("code", "expected"), [
    # a built-in of the second step, by every way of reaching it
    ("from autodiff import engine\nprint(engine.softplus(engine.tensor(0.0)))", "tensor(0.6931)"),
    ("from autodiff.engine import BUILTINS\nprint('softplus' in BUILTINS, BUILTINS['cumsum'].name)", "True cumsum"),
    ("from autodiff.engine import BUILTINS\nprint(BUILTINS.get('logsumexp').name)", "logsumexp"),
    ("from autodiff import engine\nx = engine.tensor([1.0, 2.0])\nprint(x.cumsum(0))", "tensor([1., 3.])"),
    ("from autodiff.engine import OPS\nprint(OPS['cumsum'].node)", "CumsumBackward0"),
    # a class or function of the second step; engine.gradcheck and engine.einsum are functions, not modules
    ("from autodiff.engine import Module, Parameter\nprint(Module.__name__, Parameter.__name__)", "Module Parameter"),
    ("from autodiff import engine\nfrom autodiff.engine import lazy\nlazy.load_all()\n"
     "print(callable(engine.gradcheck), callable(engine.einsum), engine.func.__name__)",
     "True True autodiff.engine.func"),
    # a Tensor attribute that exists nowhere is still an AttributeError
    ("from autodiff import engine\ntry:\n    engine.tensor(1.0).no_such_method\nexcept AttributeError as e:\n"
     "    print(e)", "'Tensor' object has no attribute 'no_such_method'"),
])
def test_the_second_step_loads_on_first_need(code, expected):
    assert fresh(code) == [expected]


def test_listings_are_whole_before_and_after_loading():
    out = fresh("""
from autodiff import engine
from autodiff.engine import BUILTINS, OPS, TENSOR_METHODS, lazy
first = (len(BUILTINS), len(OPS), len(TENSOR_METHODS), 'cumsum' in TENSOR_METHODS)
print(lazy.is_loaded(), first == (len(BUILTINS), len(OPS), len(TENSOR_METHODS), True))
""")
    assert out == ["True True"]
    from autodiff.engine import BUILTINS, OPS, TENSOR_METHODS

    assert fresh("from autodiff.engine import BUILTINS, OPS, TENSOR_METHODS\n"
                 "print(len(BUILTINS), len(OPS), len(TENSOR_METHODS))") == [
        f"{len(BUILTINS)} {len(OPS)} {len(TENSOR_METHODS)}"]


def test_a_name_of_no_module_of_the_second_step_is_refused():
    from autodiff.engine import lazy

    with pytest.raises(ValueError, match="not a module of the engine's second step"):
        lazy.late("os", "system")


def test_the_index_of_names_is_the_whole_engines():
    """engine/names.py lists exactly the loaded engine's names (regenerate: python tests/make_engine_names.py)."""
    import importlib.util
    from pathlib import Path

    maker_file = Path(__file__).parents[1] / "make_engine_names.py"
    spec = importlib.util.spec_from_file_location("make_engine_names", maker_file)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    from autodiff.engine import names

    assert Path(names.__file__).read_text(encoding="utf-8") == maker.names_source()


@pytest.mark.parametrize(("code", "expected"), [
    ("from autodiff.engine import BUILTINS\nprint('x' in BUILTINS, BUILTINS.get('x'))", "False None"),
    ("from autodiff import engine\nprint(hasattr(engine.tensor(1.0), 'foo'), hasattr(engine, 'foo'))", "False False"),
    ("from autodiff.engine import TENSOR_METHODS\nprint('foo' in TENSOR_METHODS, 'sum' in TENSOR_METHODS)",
     "False True"),
])
def test_a_name_the_engine_never_has_loads_nothing(code, expected):
    assert fresh(code + "\nfrom autodiff.engine import lazy\nprint(lazy.is_loaded())") == [expected, "False"]


# The first step's array operations (lazy.OPERATIONS) load at the first use of one of their names or operators,
# without the second step; everything else about them is as if they had been loaded at import.
OPERATIONS_PROBE = """
import sys
from autodiff import engine
from autodiff.engine import lazy
x = engine.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
before = lazy.operations_loaded()
{code}
print(before, lazy.operations_loaded(), lazy.is_loaded())
"""


@pytest.mark.parametrize(("code", "expected"), [
    ("print(x[0])", "tensor([ 1., -2.], grad_fn=<SelectBackward0>)"),
    ("y = x.detach().clone()\ny[0, 1] = 5.0\nprint(y)", "tensor([[1., 5.],\n        [3., 4.]])"),
    ("print(x @ x)", "tensor([[ -5., -10.],\n        [ 15.,  10.]], grad_fn=<MmBackward0>)"),
    ("print([[1.0, 0.0], [0.0, 1.0]] @ x)", "tensor([[ 1., -2.],\n        [ 3.,  4.]], grad_fn=<MmBackward0>)"),
    ("print(x > 0)", "tensor([[ True, False],\n        [ True,  True]])"),
    ("print(~(x > 0) | (x < 0) & (x <= 1) & (x >= -2))", "tensor([[False,  True],\n        [False, False]])"),
    ("print(engine.cat([x, x]).shape)", "torch.Size([4, 2])"),
    ("print(x.gather(1, [[0], [1]]).grad_fn.name())", "GatherBackward0"),
    ("print(engine.BUILTINS['where'].name, 'stack' in engine.OPS)", "where True"),
    ("print(engine.getitem(x, 1), engine.TensorMath.__name__)",
     "tensor([3., 4.], grad_fn=<SelectBackward0>) TensorMath"),
    ("(g,) = engine.grad((x ** 3).sum(), [x], create_graph=True)\nprint(g.grad_fn.name())", "MulBackward0"),
])
def test_the_array_operations_load_on_first_use_without_the_second_step(code, expected):
    out = fresh(OPERATIONS_PROBE.format(code=code))
    assert out == [*expected.split("\n"), "False True False"]


def test_a_formula_of_scalars_loads_no_array_operation():
    out = fresh(OPERATIONS_PROBE.format(code="y = engine.tensor(1.5, requires_grad=True)\n((2 * y) ** 3).backward()\n"
                                             "print(y.grad, -y, abs(y), 'sum' in engine.BUILTINS, x.sum())"))
    assert out == ["tensor(54.) tensor(-1.5000, grad_fn=<NegBackward0>) tensor(1.5000, grad_fn=<AbsBackward0>) "
                   "True tensor(6., grad_fn=<SumBackward0>)", "False False False"]


def test_the_second_step_loads_the_array_operations_first():
    out = fresh(OPERATIONS_PROBE.format(code="print(engine.softplus(engine.tensor(0.0)), x[1, 1])"))
    assert out == ["tensor(0.6931) tensor(4., grad_fn=<SelectBackward0>)", "False True True"]


def test_a_name_of_no_array_operation_is_refused():
    from autodiff.engine import lazy

    with pytest.raises(ValueError, match="not a module of the engine's array operations"):
        lazy.operation("os", "system")
