"""`autodiff diff`: formulas in the language, derived by the op table's rules; checked by evaluating each
formula with `autodiff eval` against autograd (and PyTorch, when installed) at random points."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest

from autodiff.engine import OPS


def _diff(cli, *args: str) -> dict:
    out = cli("diff", *args, "--format", "json")
    assert out.code == 0, out.stderr
    return json.loads(out.stdout)


def test_the_readme_example(cli):
    out = cli("diff", "(2*x)**3", "--format", "plain")
    assert out.code == 0 and out.stdout == "d/dx (2*x)**3 = 24*x**2\n"


@pytest.mark.parametrize(("program", "wrt", "expected"), [
    ("(2*x)**3", "x", "24*x**2"),
    ("x*y**2", "y", "2*x*y"),
    ("log(x)", "x", "1/x"),
    ("asin(x)", "x", "1/sqrt(1 - x**2)"),
    ("e**x", "x", "exp(x)"),
    ("erf(x)", "x", "2*exp(-x**2)/sqrt(pi)"),
    ("where(x > 0, x**2, -x)", "x", "where(x > 0, 2*x, -1)"),
    ("abs(x)", "x", "sign(x)"),
])
def test_formulas_are_written_in_the_language(cli, program, wrt, expected):
    (derivative,) = _diff(cli, program, "--wrt", wrt)["derivatives"]
    assert derivative["expr"] == expected and derivative["order"] == 1


def test_value_beside_autograd(cli):
    (derivative,) = _diff(cli, "x**3 * sin(x)", "x=1.2")["derivatives"]
    expected = 3 * 1.2**2 * math.sin(1.2) + 1.2**3 * math.cos(1.2)
    assert derivative["value"] == pytest.approx(expected, rel=1e-12)
    assert derivative["autograd"] == pytest.approx(expected, rel=1e-12)


def test_higher_order_and_several_variables(cli):
    *_, third = _diff(cli, "sin(x)", "--order", "3")["derivatives"]  # f', f'' and f''' (issue 43)
    assert third["expr"] == "-cos(x)" and third["order"] == 3
    names = [d["wrt"] for d in _diff(cli, "x*y**2 + z")["derivatives"]]
    assert names == ["x", "y", "z"]


def test_steps_follow_the_backward_pass(cli):
    document = _diff(cli, "(2*x)**3", "--steps", "backward")
    assert [s["node"] for s in document["steps"]] == ["PowBackward0", "MulBackward0"]
    assert document["steps"][0]["rule"] == "grad * exponent * self**(exponent - 1)"
    assert document["steps"][1]["grads_out"] == [None, "24*x**2"]


@pytest.mark.parametrize(("program", "words"), [
    ("x.sum()", "sum() has no symbolic form"),
    ("x @ x", "'@' (matrices) is not a scalar operation"),
    ("y[0] = x", "index writes make a tensor-valued program"),
    ("stack([x, x]).sum()", "at line 1, column 7: diff: a list is not a scalar formula"),
    ("x[0]", "diff: indexing is not a scalar formula"),
    ("x % 2", "diff: '%' is not derived"),
])
def test_what_diff_does_not_derive(cli, program, words):
    out = cli("diff", program)
    assert out.code == 1 and "value error" in out.stderr and words in out.stderr
    assert "Error" not in out.stderr and "expressions" not in out.stderr  # no Python class names


def test_an_unknown_function_is_a_name_error_as_in_eval(cli):
    out = cli("diff", "rrelu(x)")
    assert out.code == 2
    assert out.stderr.startswith("autodiff: name error at line 1, column 1: unknown function 'rrelu'; did you "
                                 "mean 'relu'?")


@pytest.mark.parametrize(("program", "formula"), [
    ("clamp(x, 0, 1)", "where((x >= 0) & (x <= 1), 1, 0)"),
    ("clamp(x, min=0)", "where(x >= 0, 1, 0)"),
    ("clamp(x*x, max=4)", "where((x >= -2) & (x <= 2), 2*x, 0)"),
    ("clamp_max(x, 0.5)", "where(x <= 1/2, 1, 0)"),
    ("relu(x)", "where(x <= 0, 0, 1)"),  # relu's result max(0, x) <= 0 read as x <= 0
    ("relu(x*x - 1)", "where((x >= -1) & (x <= 1), 0, 2*x)"),
])
def test_clamp_and_relu_have_plain_formulas(cli, program, formula):
    assert _diff(cli, program)["derivatives"][0]["expr"] == formula


@pytest.mark.parametrize("x", [-0.5, 0.0, 0.5, 1.0, 2.0])
def test_minimum_of_two_expressions_evaluates_to_autograds_gradient(cli, x):
    # PyTorch's rule for min/max: the whole gradient to the smaller input, half to each on a tie
    derivative = _diff(cli, "minimum(x, x*x)")["derivatives"][0]["expr"]
    formula = json.loads(cli("eval", derivative, "--const", f"x={x}", "--format", "json",
                             "--dtype", "float64").stdout)["root"]["value"]
    autograd = json.loads(cli("eval", "minimum(x, x*x)", f"x={x}", "--format", "json",
                              "--dtype", "float64").stdout)["grads"]["x"]
    assert formula == autograd


# Elementwise built-ins and textbook functions: the formula, evaluated by `autodiff eval`, equals autograd
# (and PyTorch's gradient when torch is installed) at random points inside each function's domain.
TEXTBOOK = [
    ("x**3 * sin(x)", 0.2, 2.0), ("sin(x) / x", 0.2, 3.0), ("exp(-x**2) * cos(3*x)", -2.0, 2.0),
    ("x**x", 0.2, 2.0), ("log(x**2 + 1) / (x + 2)", 0.0, 3.0), ("sqrt(1 + x**2) * atan(x)", -2.0, 2.0),
    ("tan(x)**2", -1.0, 1.0), ("where(x > 1, x**2, 2*x - 1)", -1.0, 3.0), ("sigmoid(2*x) * tanh(x)", -2.0, 2.0),
    ("cbrt(x) + sec(x)", 0.2, 1.2), ("asin(x) + acos(x / 2)", -0.9, 0.9), ("2**x + log2(x) + log10(x)", 0.5, 3.0),
    ("clamp_max(x*x, 2) + clamp_min(x, 0.5)", -2.0, 2.0), ("clamp_max(sin(x), 0.25)", -2.0, 2.0),
]
UNARY = sorted(name for name, op in OPS.items() if op.group == "Elementwise functions" and len(op.inputs) == 1
               and name not in ("clamp", "clamp_min", "clamp_max", "where"))  # (they take a bound: in TEXTBOOK)
DOMAIN = {"acosh": (1.2, 3.0), "log": (0.2, 3.0), "log2": (0.2, 3.0), "log10": (0.2, 3.0), "sqrt": (0.2, 3.0),
          "rsqrt": (0.2, 3.0), "asin": (-0.9, 0.9), "acos": (-0.9, 0.9), "atanh": (-0.9, 0.9), "log1p": (-0.5, 3.0),
          "tan": (-1.2, 1.2), "erfinv": (-0.9, 0.9), "special_entr": (0.2, 3.0), "special_ndtri": (0.1, 0.9)}


@pytest.mark.parametrize(("program", "low", "high"),
                         TEXTBOOK + [(f"{name}(x)", *DOMAIN.get(name, (-2.0, 2.0))) for name in UNARY])
def test_the_formula_evaluates_to_autograds_gradient(cli, program, low, high):
    derivative = _diff(cli, program)["derivatives"][0]["expr"]
    rng = random.Random(program)
    for _ in range(3):
        x = round(rng.uniform(low, high), 3)
        if abs(x - round(x)) < 1e-3:  # keep away from floor/ceil/round's jumps
            x += 0.37
        formula = json.loads(cli("eval", derivative, "--const", f"x={x}", "--format", "json",
                                 "--dtype", "float64").stdout)["root"]["value"]
        autograd = json.loads(cli("eval", program, f"x={x}", "--format", "json", "--dtype", "float64").stdout)
        assert formula == pytest.approx(autograd["grads"]["x"], rel=1e-9, abs=1e-12), (program, x, derivative)


def test_the_formula_equals_torchs_gradient():
    torch = pytest.importorskip("torch")
    from autodiff.app.symbolic.diff import derive, value_at

    for program, low, high in TEXTBOOK[:6]:
        expr = derive(program, ["x"], 1).derivatives[0].expr
        x = torch.tensor((low + high) / 2 + 0.123, dtype=torch.float64, requires_grad=True)
        namespace = {"x": x, "sin": torch.sin, "cos": torch.cos, "exp": torch.exp, "log": torch.log,
                     "sqrt": torch.sqrt, "atan": torch.atan}
        y = _torch_program(program, namespace)
        y.backward()
        assert value_at(expr, {"x": float(x)}) == pytest.approx(float(x.grad), rel=1e-10), program


def _torch_program(program: str, namespace: dict):
    # the textbook programs are products and quotients of torch functions: build them with torch's operators
    x, t = namespace["x"], namespace
    return {
        "x**3 * sin(x)": lambda: x**3 * t["sin"](x), "sin(x) / x": lambda: t["sin"](x) / x,
        "exp(-x**2) * cos(3*x)": lambda: t["exp"](-x**2) * t["cos"](3 * x), "x**x": lambda: x**x,
        "log(x**2 + 1) / (x + 2)": lambda: t["log"](x**2 + 1) / (x + 2),
        "sqrt(1 + x**2) * atan(x)": lambda: t["sqrt"](1 + x**2) * t["atan"](x),
    }[program]()


def test_eval_does_not_import_sympy():
    code = ("import sys\nfrom autodiff.cli.main import main\nsys.argv = ['autodiff', 'eval', 'x**2', 'x=1']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nprint('sympy' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_the_formula_is_about_as_short_as_sympys_own():
    import sympy

    from autodiff.app.symbolic.diff import derive
    from autodiff.app.symbolic.program import program_expression

    for program, _, _ in TEXTBOOK:
        ours = derive(program, ["x"], 1).derivatives[0].expr
        root, _ = program_expression(program)
        theirs = sympy.simplify(sympy.diff(root, sympy.Symbol("x", real=True)))
        assert sympy.count_ops(ours) <= 2 * sympy.count_ops(theirs) + 4, (program, ours, theirs)


def test_a_simplification_that_breaks_real_arithmetic_is_not_used(cli):
    # SymPy writes abs(x)**(2/3) as abs(x**(2/3)), which is nan in real arithmetic at negative x
    (derivative,) = _diff(cli, "cbrt(x)", "x=-8")["derivatives"]
    formula = json.loads(cli("eval", derivative["expr"], "--const", "x=-8", "--dtype", "float64", "--format",
                             "json").stdout)["root"]["value"]
    assert formula == pytest.approx(1 / 12, rel=1e-12) == derivative["autograd"]


# Node kinds a formula may hold (diff runs them); every other kind of the syntax tree is refused by name. Return,
# Break, Continue, NoneIndex and EllipsisIndex only occur inside constructs that are refused themselves.
FORMULA_NODES = {"Program", "ExprStmt", "Assign", "Import", "ImportFrom", "Number", "Name", "Attribute", "Call",
                 "BinOp", "UnaryOp", "Return", "Break", "Continue", "NoneIndex", "EllipsisIndex"}


def test_every_kind_of_node_is_a_formula_or_refused_by_name():
    from autodiff.app.symbolic.program import FORMULA
    from autodiff.grammar.syntax import tree

    kinds, stack = set(), [tree.Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            kinds.add(sub.__name__)
            stack.append(sub)
    assert kinds - FORMULA_NODES - set(FORMULA.refused) == set()
    assert FORMULA_NODES & set(FORMULA.refused) == set()


@pytest.mark.parametrize(("program", "what"), [
    ("[x, 2]", "a list"),
    ("y = x if x > 0 else -x\ny", "a conditional expression (A if C else B)"),
    ("[i * x for i in range(3)]", "a comprehension"),
])
def test_diff_names_the_construct_it_refuses(cli, program, what):
    out = cli("diff", program, "--format", "json")
    assert out.code == 1
    assert json.loads(out.stdout)["error"]["message"].startswith(f"diff: {what} is not a scalar formula")
