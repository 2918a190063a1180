"""Issue 43, item 1: never a wrong answer. Each case a student met (APEX Calculus), judged against SymPy built
here from the mathematics (not from our reader) and against the book's own answer."""

from __future__ import annotations

import math

import pytest
import sympy


# ---------------------------------------------------------------------------- no verdict where nothing is defined
def test_check_at_nan_is_not_a_verdict(cli):
    out = cli("check", "x**2", "--expect", "x=3*x", "x=nan")
    assert out.code == 1
    assert "not defined at x = nan" in out.stderr and "right" not in out.stdout + out.stderr


def test_check_skips_a_point_outside_the_domain(cli):
    """log(x) at x = -1: that point is not checked (said so); the points around it that are in the domain are."""
    out = cli("check", "log(x)", "--expect", "x=1/x", "x=-1", "--format", "json", "--seed", "1")
    assert out.code == 0
    document = out.json()
    assert "not checked at x = -1: the program is not defined there" in document["notes"]
    assert all(p["x"] > 0 for p in document["points"])


def test_check_wrong_answer_is_still_wrong_beside_an_undefined_point(cli):
    out = cli("check", "log(x)", "--expect", "x=2/x", "x=-1", "--format", "json", "--seed", "1")
    assert out.code == 1 and out.json()["ok"] is False


@pytest.mark.parametrize(("program", "point", "words"), [
    ("x**2", "x=nan", "not defined at the point (x = nan"),
    ("log(x)", "x=-1", "not defined at the point (x = -1"),
    ("x/0", "x=1", "not defined at the point (x = 1"),
    ("sqrt(x)", "x=0", "not defined on both sides of the point"),
])
def test_gradcheck_where_the_program_is_not_defined(cli, program, point, words):
    out = cli("gradcheck", program, point)
    assert out.code == 1 and "passed" not in out.stdout and "WRONG" not in out.stdout
    assert words in out.stderr


def test_gradcheck_inside_the_domain_still_passes(cli):
    assert cli("gradcheck", "sqrt(x)", "x=1").code == 0


# ---------------------------------------------------------------------------- x^(p/q), q odd: the real root
X = sympy.Symbol("x", real=True)
root = sympy.real_root  # the book's x**(p/q), q odd: the real root


def test_critical_cube_root_times_linear(cli):
    """APEX: f(x) = x^(1/3)(x+4): critical points -1 (a minimum, f = -3) and 0 (not an extremum)."""
    out = cli("critical", "x^(1/3)(x+4)", "--format", "json")
    assert out.code == 0
    points = {p["x"]: p for p in out.json()["points"]}
    assert set(points) == {-1.0, 0.0}
    assert (points[-1.0]["kind"], points[-1.0]["exact_value"]) == ("minimum", "-3")
    assert points[0.0]["kind"] == "neither" and points[0.0]["type"] == "f' not defined"
    f = root(X, 3) * (X + 4)
    assert sympy.diff(f, X).subs(X, -1) == 0 and f.subs(X, -1) == -3


@pytest.mark.parametrize(("program", "expected", "where"), [
    ("(x-2)^(2/3)", root((X - 2)**2, 3), {2.0: "minimum"}),
    ("x^(2/3)", root(X**2, 3), {0.0: "minimum"}),
    ("x^(5/3) - 5x^(2/3)", root(X**5, 3) - 5 * root(X**2, 3), {0.0: "maximum", 2.0: "minimum"}),
])
def test_critical_odd_roots_are_real(cli, program, expected, where):
    out = cli("critical", program, "x=-10:10", "--format", "json")
    assert out.code == 0, out.stderr
    document = out.json()
    found = {p["x"]: p["kind"] for p in document["points"]}
    assert found == where
    assert not any("not defined" in n for n in document["notes"])
    for p in document["points"]:
        assert p["value"] == pytest.approx(float(expected.subs(X, p["x"])), abs=1e-12)


def test_diff_tangent_limit_table_at_a_negative_base(cli):
    slope = float(sympy.diff(root(X**2, 3), X).subs(X, -8))  # -1/3
    out = cli("diff", "x^(2/3)", "x=-8", "--format", "json")
    assert out.code == 0
    value = out.json()["derivatives"][0]
    assert value["value"] == pytest.approx(slope) and value["autograd"] == pytest.approx(slope)
    tangent = cli("tangent", "x^(2/3)", "x=-8", "--format", "json").json()
    assert [d["value"] for d in tangent["derivatives"]] == pytest.approx([4.0, slope])
    assert tangent["exact"] == "4/3 - x/3"
    limit = cli("limit", "(x^(1/3)+2)/(x+8)", "x=-8", "--format", "json").json()
    assert limit["exists"] is True and limit["exact"] == "1/12"
    table = cli("table", "x^(1/3)", "x=-8:-1:7", "--format", "json").json()
    assert table["rows"][0]["value"] == pytest.approx(-2.0)


def test_check_a_real_root_derivative(cli):
    right = cli("check", "x^(1/3)", "--expect", "x=1/(3x^(2/3))", "x=-1", "--format", "json")
    assert right.code == 0 and right.json()["points"][0] == {"x": -1.0}
    wrong = cli("check", "x^(1/3)", "--expect", "x=1/(3x^(1/3))", "x=-1", "--format", "json")
    assert wrong.code == 1


def test_eval_keeps_pytorch_powers(cli):
    """eval mirrors PyTorch: (-8)**(1/3) is nan there."""
    out = cli("eval", "x**(1/3)", "x=-8", "--format", "json")
    assert out.json()["root"]["value"] == "nan"


# ------------------------------------------------------------ a function without brackets takes one factor
@pytest.mark.parametrize(("written", "read_as"), [
    ("cos x cos y e^z", "cos(x)*cos(y)*e**z"), ("cos y e^z", "cos(y)*e**z"), ("sin x e^x", "sin(x)*e**x"),
    ("cos x y", "cos(x)*y"), ("sqrt x y", "sqrt(x)*y"), ("sin x (x+1)", "sin(x)*(x + 1)"),
    ("sin 2x", "sin(2*x)"), ("cos 2pi x", "cos(2*pi*x)"), ("sin πx", "sin(pi*x)"), ("sin 3x^2", "sin(3*x**2)"),
    ("sin 2(x+1)", "sin(2*(x + 1))"), ("sin xy", "sin(x*y)"), ("ln x^2", "log(x**2)"),
])
def test_a_function_without_brackets_takes_one_factor(written, read_as):
    from autodiff.app.textbook.notation import read

    assert read(written, ["x", "y", "z"]).program == read_as


def test_check_accepts_the_books_own_answer(cli):
    """APEX: d/dx sin(x)cos(y)e^z = cos x cos y e^z (was read cos(y*e**z) and marked wrong)."""
    out = cli("check", "sin(x)cos(y)e^z", "--expect", "x=cos x cos y e^z", "--format", "json")
    assert out.code == 0 and out.json()["ok"] is True
    x, y, z = sympy.symbols("x y z", real=True)
    f = sympy.sin(x) * sympy.cos(y) * sympy.exp(z)
    assert sympy.simplify(sympy.diff(f, x) - sympy.cos(x) * sympy.cos(y) * sympy.exp(z)) == 0


# ---------------------------------------------------------------------------- item 2: notation as printed
@pytest.mark.parametrize(("written", "read_as"), [
    ("xe^x", "x*e**x"), ("2xe^(3x)", "2*x*e**(3*x)"), ("te^t", "t*e**t"), ("pix", "pi*x"), ("xyz^2", "x*y*z**2"),
    ("xsin x", "x*sin(x)"), ("xsin(x)", "x*sin(x)"), ("theta", "theta"), ("exp(x)", "exp(x)"),
])
def test_a_word_that_is_no_name_is_a_product_of_known_ones(written, read_as):
    from autodiff.app.textbook.notation import read

    assert read(written).program == read_as


def test_xe_to_the_x(cli):
    x = sympy.Symbol("x", real=True)
    out = cli("diff", "xe^x", "--format", "json")
    assert out.code == 0 and out.json()["read_as"] == "x*e**x"
    (derivative,) = out.json()["derivatives"]
    assert derivative["wrt"] == "x"
    critical = cli("critical", "xe^x", "--format", "json")
    assert critical.code == 0
    (point,) = critical.json()["points"]
    assert point["x"] == pytest.approx(float(sympy.solve(sympy.diff(x * sympy.exp(x), x), x)[0]))
    assert point["kind"] == "minimum"


def test_critical_in_two_variables_where_f_is_not_defined_is_no_internal_error(cli):
    """xe**x with xe a variable: nan Hessians on half the grid (LAPACK's SVD failed on them)."""
    out = cli("critical", "a**x", "x=-1:1", "a=-1:1", "--format", "json")
    assert out.code == 0 and "internal error" not in out.stderr


@pytest.mark.parametrize(("program", "order", "expected"), [
    ("d/dx x^3", 1, 3 * X**2), ("d/dx(x^3)", 1, 3 * X**2),
    ("d^2/dx^2 [x^3 sin x]", 2, sympy.diff(X**3 * sympy.sin(X), X, 2)),
    ("d²/dx² x^4", 2, 12 * X**2), ("(d/dx) e^(2x)", 1, 2 * sympy.exp(2 * X)),
])
def test_d_dx_is_the_question_it_is(cli, program, order, expected):
    out = cli("diff", program, "x=0.7", "--format", "json")
    assert out.code == 0, out.stderr
    *_, derivative = out.json()["derivatives"]  # the orders up to it come first
    assert (derivative["wrt"], derivative["order"]) == ("x", order)
    assert derivative["value"] == pytest.approx(float(expected.subs(X, sympy.Rational(7, 10))))


def test_d_dx_elsewhere_and_against_the_options(cli):
    out = cli("critical", "d/dx x^3")
    assert out.code == 2 and "autodiff diff 'd/dx x^3' answers it" in out.stderr
    out = cli("diff", "d/dx x^3", "--wrt", "y")
    assert out.code == 2 and "--wrt says y" in out.stderr


def test_a_constant_has_derivative_zero(cli):
    out = cli("diff", "ln(17) + e^2", "--format", "json")
    assert out.code == 0
    assert [(d["wrt"], d["expr"]) for d in out.json()["derivatives"]] == [("x", "0")]
    out = cli("diff", "x^2", "--wrt", "y", "x=1", "y=2", "--format", "json")  # the partial in y of x**2
    assert out.code == 0 and "warning" not in out.stderr
    (derivative,) = out.json()["derivatives"]
    assert (derivative["expr"], derivative["value"], derivative["autograd"]) == ("0", 0.0, 0.0)


def test_pi_in_intervals_as_at_points(cli):
    out = cli("critical", "sin x", "x=0:3π", "--format", "json")
    assert out.code == 0
    assert out.json()["interval"]["x"] == pytest.approx([0.0, 3 * math.pi])
    assert [p["x"] for p in out.json()["points"]] == pytest.approx([math.pi / 2, 3 * math.pi / 2, 5 * math.pi / 2])
    out = cli("table", "sin x", "x=0:2pi:π/2", "--format", "json")
    assert [r["x"] for r in out.json()["rows"]] == pytest.approx([k * math.pi / 2 for k in range(5)])


def test_a_point_read_otherwise_than_spelt_is_shown(cli):
    out = cli("tangent", "sin x", "x=sin π/2", "--format", "json")
    assert "read as: x = sin(pi)/2" in out.stderr
    out = cli("tangent", "sin x", "x=2π", "--format", "json")  # only a '*' put in: nothing to show
    assert "read as: x" not in out.stderr


# ---------------------------------------------------------------------------- item 3: a whole exercise in one command
def test_diff_order_n_gives_every_order_up_to_n(cli):
    out = cli("diff", "x^5 - 3x^2", "--order", "4", "x=1.5", "--format", "json")
    assert out.code == 0
    document = out.json()
    assert [d["order"] for d in document["derivatives"]] == [4]  # the asked order (README: diff's JSON)
    derivatives = document["lower_orders"] + document["derivatives"]
    assert [d["order"] for d in derivatives] == [1, 2, 3, 4]
    f = X**5 - 3 * X**2
    for d in derivatives:
        expected = float(sympy.diff(f, X, d["order"]).subs(X, sympy.Rational(3, 2)))
        assert d["value"] == pytest.approx(expected, rel=1e-12) and d["autograd"] == pytest.approx(expected)


def test_second_order_in_two_variables_gives_every_partial(cli):
    x, y = sympy.symbols("x y", real=True)
    f = x**2 * y**3 + sympy.sin(x * y)
    out = cli("diff", "x^2 y^3 + sin(xy)", "--order", "2", "x=0.5", "y=2", "--format", "json")
    assert out.code == 0
    document = out.json()
    found = {(d["wrt"], d["order"]): d["value"] for d in document["lower_orders"] + document["derivatives"]}
    point = {x: sympy.Rational(1, 2), y: 2}
    expected = {("x", 1): sympy.diff(f, x), ("y", 1): sympy.diff(f, y), ("x", 2): sympy.diff(f, x, 2),
                ("x,y", 2): sympy.diff(f, x, y), ("y", 2): sympy.diff(f, y, 2)}
    assert set(found) == set(expected)
    for key, formula in expected.items():
        assert found[key] == pytest.approx(float(formula.subs(point)), rel=1e-12), key


def test_gradient_takes_several_directions(cli):
    out = cli("gradient", "x^2 y", "x=1", "y=2", "--direction", "1,0", "--direction", "3,4", "--format", "json")
    assert out.code == 0
    rates = [d["directional"] for d in out.json()["directions"]]
    assert rates == pytest.approx([4.0, (4 * 3 + 1 * 4) / 5])  # grad (2xy, x^2) = (4, 1)


@pytest.mark.parametrize("args", [
    ("diff", "x^3", "--order", "2", "--order", "3"),
    ("diff", "x^2 + y^2 = 1", "--implicit", "y", "--implicit", "x"),
    ("tangent", "x^2", "x=1", "--order", "1", "--order=2"),
    ("eval", "x**2", "x=1", "--dtype", "float64", "--dtype", "float32"),
    ("check", "x**2", "x=1", "--expect", "x=2*x", "--order", "1", "--order", "2"),
])
def test_an_option_given_twice_is_not_reduced_to_the_last(cli, args):
    out = cli(*args)
    assert out.code == 2 and "is given twice" in out.stderr


@pytest.mark.parametrize(("program", "interval", "f"), [
    ("x^3 - 3x + 1", (-2, 2), X**3 - 3 * X + 1),
    ("x^4 - 5x^2 + 4", (-3, 3), X**4 - 5 * X**2 + 4),
    ("cos x - x/5", (-10, 10), sympy.cos(X) - X / 5),
])
def test_newton_finds_every_root_in_an_interval(cli, program, interval, f):
    a, b = interval
    out = cli("newton", program, f"x={a}:{b}", "--format", "json")
    assert out.code == 0, out.stderr
    found = [r["root"] for r in out.json()["roots"]]
    expected = sorted(float(r) for r in sympy.Poly(f, X).real_roots()) if f.is_polynomial(X) else sorted(
        float(sympy.nsolve(f, X, guess)) for guess in (-4.0, -2.0, 1.0))
    assert found == pytest.approx(expected, abs=1e-12)


def test_newton_a_double_root_and_none(cli):
    out = cli("newton", "(x-1)^2 (x+2)", "x=-3:3", "--format", "json")
    roots = out.json()["roots"]
    assert [r["root"] for r in roots] == pytest.approx([-2.0, 1.0], abs=1e-7)
    assert [r["multiple"] for r in roots] == [False, True]
    out = cli("newton", "x^2 + 1", "x=-3:3", "--format", "json")
    assert out.code == 0 and out.json()["roots"] == []


def test_newton_the_iterations_asked_for_are_an_answer(cli):
    """APEX: approximate the root of cos x = x with 2 iterations from x0 = 1 (the steps done, exit 0)."""
    out = cli("newton", "cos(x) - x", "x=1", "--iterations", "2", "--format", "json")
    assert out.code == 0 and out.json()["completed"] is True and out.json()["converged"] is False
    x1 = 1 - (sympy.cos(1) - 1) / (-sympy.sin(1) - 1)
    x2 = x1 - (sympy.cos(x1) - x1) / (-sympy.sin(x1) - 1)
    assert out.json()["root"] == pytest.approx(float(x2), rel=1e-14)
    out = cli("newton", "x**3 - 2*x + 2", "x=0", "--iterations", "5")  # a cycle is still a failure
    assert out.code == 1


# ---------------------------------------------------------------------------- item 4: the applications a chapter asks
def test_a_linearization_evaluated(cli):
    """APEX: approximate 3.01^4 with the tangent line of x^4 at 3: 82.08."""
    out = cli("tangent", "x^4", "x=3", "--at", "3.01", "--format", "json")
    assert out.code == 0
    at = out.json()["at"]
    assert (at["value"], at["exact"]) == (pytest.approx(82.08), "2052/25")
    assert at["function"] == pytest.approx(3.01**4)
    text = cli("tangent", "x^4", "x=3", "--at", "3.01", "--format", "plain").stdout
    assert "L(3.01) = 82.08  (exactly 2052/25" in text
    plane = cli("tangent", "x^2 y", "x=1", "y=2", "--at", "x=1.1,y=1.9", "--format", "json").json()["at"]
    assert plane["value"] == pytest.approx(2 + 4 * 0.1 + 1 * -0.1)


def test_the_normal_line(cli):
    a = 4
    f = sympy.sqrt(X)
    slope = -1 / sympy.diff(f, X).subs(X, a)
    expected = sympy.expand(f.subs(X, a) + slope * (X - a))  # 18 - 4x
    out = cli("tangent", "sqrt x", f"x={a}", "--normal", "--format", "json")
    normal = out.json()["normal"]
    assert normal["vertical"] is None
    assert normal["exact"] == "18 - 4*x" and expected == 18 - 4 * X
    flat = cli("tangent", "x^2", "x=0", "--normal", "--format", "json").json()["normal"]
    assert (flat["formula"], flat["vertical"]) == (None, 0.0)  # f'(0) = 0: the normal is x = 0


def test_the_tangent_line_of_an_implicit_curve(cli):
    """APEX: x^2 + 2xy - y^2 + x = 2 at (1, 2): slope 7/2, y = 7x/2 - 3/2."""
    x, y = sympy.symbols("x y", real=True)
    slope = sympy.idiff(x**2 + 2 * x * y - y**2 + x - 2, y, x).subs({x: 1, y: 2})
    out = cli("tangent", "x^2 + 2xy - y^2 + x = 2", "x=1", "y=2", "--format", "json")
    assert out.code == 0
    document = out.json()
    assert document["slope_exact"] == str(slope) == "7/2"
    assert document["tangent"]["exact"] == "-3/2 + 7*x/2"
    vertical = cli("tangent", "x^2 + y^2 = 25", "x=5", "y=0", "--format", "json").json()
    assert vertical["slope"] is None and vertical["tangent"]["vertical"] == 5.0
    off = cli("tangent", "x^2 + y^2 = 25", "x=3", "y=3")
    assert off.code == 1 and "is not on the curve" in off.stderr


def _extreme_on_rectangle(f, x, y, box):
    """The book's method, in SymPy: critical points inside, each edge's, the corners."""
    (a, b), (c, d) = box
    found = [p for p in sympy.solve([sympy.diff(f, x), sympy.diff(f, y)], [x, y], dict=True)
             if a <= p[x] <= b and c <= p[y] <= d]
    for fixed, other, (low, high) in ((x, y, (c, d)), (y, x, (a, b))):
        for value in ((a, b) if fixed == x else (c, d)):
            g = f.subs(fixed, value)
            found += [{fixed: value, other: t} for t in sympy.solve(sympy.diff(g, other), other) if low < t < high]
    found += [{x: u, y: v} for u in (a, b) for v in (c, d)]
    values = [f.subs(p) for p in found]
    return max(values), min(values)


@pytest.mark.parametrize(("program", "f", "box"), [
    ("4(x+y) - (2x^2+y^2)", lambda x, y: 4 * (x + y) - (2 * x**2 + y**2), ((0, 3), (0, 3))),
    ("x^2 - y^2", lambda x, y: x**2 - y**2, ((-1, 1), (-1, 1))),
    ("x^2 + 2xy + 3y^2 - 4x", lambda x, y: x**2 + 2 * x * y + 3 * y**2 - 4 * x, ((-2, 3), (-1, 2))),
])
def test_absolute_extrema_on_a_closed_rectangle(cli, program, f, box):
    """APEX: 4(x+y) - (2x^2+y^2) on [0,3] x [0,3]: maximum 6 at (1, 2), minimum -6 at (3, 0) (a corner)."""
    x, y = sympy.symbols("x y", real=True)
    (a, b), (c, d) = box
    out = cli("critical", program, f"x={a}:{b}", f"y={c}:{d}", "--format", "json")
    assert out.code == 0
    absolute = out.json()["absolute"]
    high, low = _extreme_on_rectangle(f(x, y), x, y, box)
    assert absolute["maximum"][0]["value"] == pytest.approx(float(high))
    assert absolute["minimum"][0]["value"] == pytest.approx(float(low))
    for e in absolute["minimum"] + absolute["maximum"]:
        assert float(f(x, y).subs({x: e["x"], y: e["y"]})) == pytest.approx(e["value"])
    if program.startswith("4"):
        assert [(e["x"], e["y"], e["where"]) for e in absolute["minimum"]] == [(3.0, 0.0, "a corner")]


def _lagrange(f, g, symbols):
    """The book's Lagrange system, solved by SymPy here: [(point, f there)]."""
    lam = sympy.Symbol("lam", real=True)
    system = [sympy.diff(f, s) - lam * sympy.diff(g, s) for s in symbols] + [g]
    return [({s: sol[s] for s in symbols}, f.subs(sol)) for sol in sympy.solve(system, [*symbols, lam], dict=True)]


def test_lagrange_multipliers_on_a_circle(cli):
    x, y = sympy.symbols("x y", real=True)
    expected = _lagrange(x + y, x**2 + y**2 - 1, [x, y])
    out = cli("critical", "x + y", "--constraint", "x^2 + y^2 = 1", "--format", "json")
    assert out.code == 0
    document = out.json()
    assert document["points"] == []  # the free critical points are not the question
    found = sorted((c["x"], c["y"], c["value"]) for c in document["constrained"])
    wanted = sorted((float(p[x]), float(p[y]), float(v)) for p, v in expected)
    assert [v for row in found for v in row] == pytest.approx([v for row in wanted for v in row])
    assert document["absolute"]["maximum"][0]["exact_value"] == "sqrt(2)"
    assert document["absolute"]["minimum"][0]["value"] == pytest.approx(-math.sqrt(2))


def test_extrema_on_a_closed_disk(cli):
    """f = x^2 + y^2 - 2x on x^2 + y^2 <= 4: minimum -1 at (1, 0) inside, maximum 8 at (-2, 0) on the circle."""
    x, y = sympy.symbols("x y", real=True)
    f = x**2 + y**2 - 2 * x
    on_circle = [v for _, v in _lagrange(f, x**2 + y**2 - 4, [x, y])]
    inside = [f.subs(p) for p in sympy.solve([sympy.diff(f, x), sympy.diff(f, y)], [x, y], dict=True)
              if (x**2 + y**2).subs(p) < 4]
    out = cli("critical", "x^2 + y^2 - 2x", "--constraint", "x^2 + y^2 <= 4", "--format", "json")
    absolute = out.json()["absolute"]
    assert absolute["maximum"][0]["value"] == pytest.approx(float(max(on_circle + inside)))
    assert absolute["minimum"][0]["value"] == pytest.approx(float(min(on_circle + inside)))
    assert [(e["x"], e["y"], e["where"]) for e in absolute["minimum"]] == [(1.0, 0.0, "a critical point inside")]


def test_an_unbounded_constraint_claims_no_absolute_extremum(cli):
    """xy on x + y = 10: a maximum 25 at (5, 5), and no minimum (xy falls without bound along the line)."""
    out = cli("critical", "xy", "--constraint", "x + y = 10", "--format", "json")
    document = out.json()
    assert [(c["x"], c["y"], c["kind"]) for c in document["constrained"]] == [(5.0, 5.0, "maximum")]
    assert document["absolute"] == {} and "not bounded" in document["notes"][-1]


@pytest.mark.parametrize(("program", "f", "order", "interval"), [
    ("x^3 - 3x", X**3 - 3 * X, 1, (-3, 3)),
    ("x^(1/3)(x+4)", root(X, 3) * (X + 4), 1, (-10, 10)),
    ("x^4 - 4x^3", X**4 - 4 * X**3, 2, (-2, 5)),
    ("1/x", 1 / X, 1, (-2, 2)),
])
def test_the_sign_chart(cli, program, f, order, interval):
    """Each interval's sign of f' (f'') is SymPy's at its middle, and the intervals cover the domain."""
    a, b = interval
    out = cli("critical", program, f"x={a}:{b}", "--order", str(order), "--format", "json")
    assert out.code == 0
    chart = out.json()["chart"]
    assert chart[0]["start"] == a and chart[-1]["stop"] == b
    derivative = sympy.diff(f, X, order)
    for piece in chart:
        middle = sympy.Rational(piece["start"] + piece["stop"]) / 2
        assert sympy.sign(derivative.subs(X, middle)) == piece["sign"], piece
    if program == "x^(1/3)(x+4)":  # APEX: decreasing on (-inf, -1), increasing on (-1, inf) (through 0)
        assert [(p["start"], p["stop"], p["words"]) for p in chart] == [(-10, -1, "decreasing"), (-1, 10, "increasing")]
    if program == "1/x":
        assert [(p["start"], p["stop"]) for p in chart] == [(-2, 0), (0, 2)]


@pytest.mark.parametrize(("f", "antiderivative", "right"), [
    ("x^2 e^x", "(x^2 - 2x + 2)e^x + C", True),
    ("ln x", "x ln x - x", True),
    ("ln x", "x ln x", False),
    ("sec^2 x", "tan x + C", True),
])
def test_check_an_antiderivative(cli, f, antiderivative, right):
    out = cli("check", f, "--antiderivative", antiderivative, "x=1.3", "--format", "json")
    assert out.code == (0 if right else 1) and out.json()["ok"] is right
    text = cli("check", f, "--antiderivative", antiderivative, "x=1.3", "--format", "plain").stdout
    assert ("your antiderivative is right" in text) is right
    F = {"(x^2 - 2x + 2)e^x + C": (X**2 - 2 * X + 2) * sympy.exp(X), "x ln x - x": X * sympy.log(X) - X,
         "x ln x": X * sympy.log(X), "tan x + C": sympy.tan(X)}[antiderivative]
    g = {"x^2 e^x": X**2 * sympy.exp(X), "ln x": sympy.log(X), "sec^2 x": sympy.sec(X) ** 2}[f]
    assert (sympy.simplify(sympy.diff(F, X) - g) == 0) is right


# ------------------------------------------------------------------------- item 5: the form a solutions manual prints
def test_a_limit_in_a_few_lines(cli):
    out = cli("limit", "(1-cos x)/x^2", "x=0", "--format", "plain")
    assert out.code == 0 and len(out.stdout.splitlines()) <= 6 and "warning" not in out.stdout
    assert "= 1/2 (0.5)" in out.stdout and sympy.limit((1 - sympy.cos(X)) / X**2, X, 0) == sympy.Rational(1, 2)
    more = cli("limit", "(1-cos x)/x^2", "x=0", "--values", "--format", "plain").stdout
    assert "rounding error takes over" in more and "1e-8" in more
    document = cli("limit", "(1-cos x)/x^2", "x=0", "--format", "json").json()
    assert document["warnings"] and document["sides"]["+"]["steps"]  # JSON keeps everything


@pytest.mark.parametrize(("program", "expected", "book"), [
    ("sec(4x^5+2x)", sympy.diff(sympy.sec(4 * X**5 + 2 * X), X),
     "2*(10*x**4 + 1)*sec(4*x**5 + 2*x)*tan(4*x**5 + 2*x)"),
    ("csc x cot x", sympy.diff(sympy.csc(X) * sympy.cot(X), X), "-csc(x)*cot(x)**2 - csc(x)**3"),
    ("|x|^2", 2 * X, "2*x"),
    ("cbrt(x)^4", 4 * root(X, 3) / 3, "4*cbrt(x)/3"),
    ("x^(2/3)", 2 / (3 * root(X, 3)), "2/(3*cbrt(x))"),
    ("(sin x + cos x)/(sin x - cos x)", -2 / (sympy.sin(X) - sympy.cos(X)) ** 2, "-2/(sin(x) - cos(x))**2"),
    ("2(sin x + cos x)^3", sympy.diff(2 * (sympy.sin(X) + sympy.cos(X)) ** 3, X),
     "6*(cos(x) - sin(x))*(sin(x) + cos(x))**2"),
])
def test_derivatives_in_the_solutions_manuals_form(cli, program, expected, book):
    """No sin/cos**2 for sec*tan, no sign(x)**2, no abs(y)**0.333, no new arguments (sin(x + pi/4))."""
    out = cli("diff", program, "x=0.7", "--format", "json")
    (derivative,) = out.json()["derivatives"]
    assert derivative["expr"] == book
    assert derivative["value"] == pytest.approx(float(expected.subs(X, sympy.Rational(7, 10))), rel=1e-12)
    negative = cli("diff", program, "x=-0.7", "--format", "json").json()["derivatives"][0]
    assert negative["value"] == pytest.approx(negative["autograd"], rel=1e-12, nan_ok=True)


def test_an_exact_norm(cli):
    """|grad f| of x^2 + 2xy at (1, 5): sqrt(144 + 4) = 2*sqrt(37), exactly."""
    x, y = sympy.symbols("x y", real=True)
    f = x**2 + 2 * x * y
    norm = sympy.sqrt(sum(sympy.diff(f, v).subs({x: 1, y: 5}) ** 2 for v in (x, y)))
    document = cli("gradient", "x^2 + 2xy", "x=1", "y=5", "--format", "json").json()
    assert document["exact_norm"] == str(norm) == "2*sqrt(37)"


def test_a_misspelt_option_before_the_program_is_a_usage_error(cli):
    for command in ("eval", "check", "diff", "critical"):
        out = cli(command, "--frmat", "json", "x**2", "x=1")
        assert out.code == 2 and "No such option '--frmat'" in out.stderr and "--format" in out.stderr
    assert cli("eval", "-x**2", "x=1", "--format", "json").json()["root"]["value"] == -1.0  # a program still


@pytest.mark.parametrize(("choice", "coloured"), [("always", True), ("never", False)])
def test_the_color_option(cli, choice, coloured):
    for env in ({}, {"NO_COLOR": "1"}, {"FORCE_COLOR": "1"}):
        out = cli("eval", "x**2", "x=1", "--color", choice, env=env)
        assert ("\x1b[" in out.stdout) is coloured, env
    assert "\x1b[" not in cli("eval", "x**2", "x=1").stdout  # auto: not a terminal here


def test_prose_is_wrapped_at_the_terminals_width(cli):
    out = cli("critical", "x^(1/3)(x+4)", "--format", "pretty", env={"COLUMNS": "60"})
    assert max(map(len, out.stdout.splitlines())) <= 60
    plain = cli("critical", "x^(1/3)(x+4)", "--format", "plain", env={"COLUMNS": "60"})
    assert max(map(len, plain.stdout.splitlines())) > 60  # plain output: one line per line, for scripts


@pytest.mark.parametrize(("program", "f", "interval"), [
    ("x^3 - x", X**3 - X, (0, 2)),
    ("sqrt x", sympy.sqrt(X), (0, 4)),
    ("x^3 - 3x", X**3 - 3 * X, (-2, 2)),
])
def test_the_mean_value_theorems_c(cli, program, f, interval):
    a, b = interval
    slope = (f.subs(X, b) - f.subs(X, a)) / (b - a)
    expected = sorted(float(c) for c in sympy.solveset(sympy.diff(f, X) - slope, X, sympy.Interval.open(a, b)))
    out = cli("tangent", program, f"x={a}:{b}", "--format", "json")
    assert out.code == 0
    document = out.json()["mean_value"]
    assert document["slope"] == pytest.approx(float(slope)) and document["slope_exact"] == str(slope)
    assert [c["value"] for c in document["c"]] == pytest.approx(expected)


def test_no_mean_value_c_where_f_is_not_differentiable(cli):
    out = cli("tangent", "|x|", "x=-1:2", "--format", "json")
    document = out.json()
    assert document["mean_value"]["c"] == [] and "not differentiable at x = 0" in document["notes"][-1]


@pytest.mark.parametrize(("program", "point", "expected"), [
    ("x^2 + y^2 = 25", ("x=3", "y=4", "dx/dt=2"), ("y", sympy.Rational(-3, 2))),
    ("V = 4/3 π r^3", ("r=5", "dV/dt=100"), ("r", 1 / sympy.pi)),
    ("A = π r^2", ("r=3", "dA/dt=6"), ("r", 1 / sympy.pi)),
])
def test_related_rates(cli, program, point, expected):
    out = cli("diff", program, *point, "--format", "json")
    assert out.code == 0, out.stderr
    rates = out.json()["rates"]
    assert (rates["unknown"], rates["exact"]) == (expected[0], str(expected[1]))
    assert rates["value"] == pytest.approx(float(expected[1]))
    t = sympy.Symbol("t")  # the book's way, in SymPy: x(t), y(t), differentiate, solve
    x, y = sympy.Function("x")(t), sympy.Function("y")(t)
    if program.startswith("x^2"):
        solved = sympy.solve(sympy.diff(x**2 + y**2 - 25, t), sympy.diff(y, t))[0]
        assert solved.subs({sympy.diff(x, t): 2}).subs({x: 3, y: 4}) == expected[1]


def test_the_derivative_of_an_inverse_function(cli):
    """APEX: f(x) = x^3 + x, (f^-1)'(2) = 1/f'(1) = 1/4."""
    out = cli("diff", "x^3 + x", "--inverse", "2", "--format", "json")
    inverse = out.json()["inverse"]
    assert (inverse["at_exact"], inverse["exact"]) == ("1", "1/4")
    assert 1 / sympy.diff(X**3 + X, X).subs(X, 1) == sympy.Rational(1, 4)
    many = cli("diff", "sin x", "--inverse", "1/2")
    assert many.code == 1 and "not one-to-one" in many.stderr
    one = cli("diff", "sin x", "--inverse", "1/2", "x=-π/2:π/2", "--format", "json").json()["inverse"]
    assert one["exact"] == "2*sqrt(3)/3" and one["at_exact"] == "pi/6"
