"""Tests of the autodiff language's parser: trees, positions, error messages, limits, robustness."""

from __future__ import annotations

import ast
import copy
import dataclasses
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff.engine.errors import AutodiffError, LimitError, ParseError, UsageError
from autodiff.grammar.syntax import MAX_BRACKET_DEPTH, MAX_SOURCE_CHARS, generate, parse, source_excerpt
from autodiff.grammar.syntax import tables as _generated_parser
from autodiff.grammar.syntax.nodes import moved
from autodiff.grammar.syntax.tree import (
    Assign,
    BinOp,
    Call,
    Constant,
    EllipsisIndex,
    ExprStmt,
    Import,
    IndexAssign,
    Name,
    NoneIndex,
    Number,
    Slice,
    String,
    Subscript,
    TupleExpr,
    UnaryOp,
    dump,
)

GRAMMAR_DIR = Path(generate.__file__).resolve().parent.parent  # grammar/: autodiff.lark, syntax/, interpreter/


def tree(source: str, positions: bool = False) -> str:
    """The program's statements as s-expressions, one per line."""
    return "\n".join(dump(stmt, positions) for stmt in parse(source).statements)


def expr(source: str, positions: bool = False) -> str:
    """The s-expression of a one-expression program."""
    (stmt,) = parse(source).statements
    assert isinstance(stmt, ExprStmt)
    return dump(stmt.value, positions)


def error(source: str) -> tuple[str, int | None, int | None]:
    with pytest.raises(ParseError) as caught:
        parse(source)
    e = caught.value
    summary, _, excerpt = e.message.partition("\n")
    assert e.kind == "syntax"
    assert excerpt == e.details["excerpt"] == source_excerpt(parse_text(source), e.line, e.column)
    assert summary == e.details["summary"]
    return summary, e.line, e.column


def parse_text(source: str) -> str:
    return source.replace("\r\n", "\n").replace("\r", "\n")


@pytest.fixture
def default_recursion_limit():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(old)


# Precedence and associativity -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("-x**2", "(- (** x 2))"),
        ("2**3**2", "(** 2 (** 3 2))"),
        ("2**-1", "(** 2 (- 1))"),
        ("-2**-x**2", "(- (** 2 (- (** x 2))))"),
        ("a@b+c", "(+ (@ a b) c)"),
        ("a+b@c", "(+ a (@ b c))"),
        ("a-b-c", "(- (- a b) c)"),
        ("a/b/c", "(/ (/ a b) c)"),
        ("a/b*c@d", "(@ (* (/ a b) c) d)"),
        ("a+b*c", "(+ a (* b c))"),
        ("(a+b)*c", "(* (+ a b) c)"),
        ("--x", "(- (- x))"),
        ("-+-x", "(- (+ (- x)))"),
        ("a*-b", "(* a (- b))"),
        ("a - -b", "(- a (- b))"),
        ("(2*x)**3", "(** (* 2 x) 3)"),
        ("x**y.T", "(** x (. y T))"),
        ("-x.sum()", "(- (call (. x sum)))"),
        ("-x[0]**2", "(- (** ([] x 0) 2))"),
        ("f(x)(y)[0].a", "(. ([] (call (call f x) y) 0) a)"),
        ("x.T@W+b", "(+ (@ (. x T) W) b)"),
        ("((((x))))", "x"),
    ],
)
def test_precedence_and_associativity(source: str, expected: str) -> None:
    assert expr(source) == expected


# Literals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "value", "is_int"),
    [
        ("2", 2, True),
        ("0", 0, True),
        ("00", 0, True),
        ("2.5", 2.5, False),
        (".5", 0.5, False),
        ("2.", 2.0, False),
        ("1e-3", 0.001, False),
        ("1E+3", 1000.0, False),
        ("1e3", 1000.0, False),
        ("007.5", 7.5, False),
        ("1e999", float("inf"), False),
        ("123456789012345678901234567890", 123456789012345678901234567890, True),
    ],
)
def test_numbers(source: str, value: float, is_int: bool) -> None:
    (stmt,) = parse(source).statements
    number = stmt.value
    assert isinstance(number, Number)
    assert (number.value, number.text, number.is_int, type(number.value)) == (
        value,
        source,
        is_int,
        int if is_int else float,
    )


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("'abc'", "abc"),
        ('"abc"', "abc"),
        ("''", ""),
        ('"it\'s"', "it's"),
        ("'say \"hi\"'", 'say "hi"'),
        (r"'a\nb\tc\\d\'e\"f'", "a\nb\tc\\d'e\"f"),
        (r"'\x41\u00e9\U0001F600\101\0'", "A\u00e9\U0001f600A\0"),
        (r"'\N{GREEK SMALL LETTER ALPHA}'", "\u03b1"),
        (r"'\d\w'", r"\d\w"),  # unknown escapes stay, as in Python
        ("'a' \"b\" 'c'", "abc"),
        ("'''a\nb'''", "a\nb"),
        ('"""say "hi" """', 'say "hi" '),
        ("'''it''s'''", "it''s"),
        ("'a\\\nb'", "ab"),
        ("'§ ü 中'", "§ ü 中"),
    ],
)
def test_strings(source: str, value: str) -> None:
    (stmt,) = parse(source).statements
    assert isinstance(stmt.value, String)
    assert stmt.value.value == value


def test_constants() -> None:
    values = [item.value for item in parse("True, False, None").statements[0].value.items]
    assert values == [True, False, None]
    assert tree("x = None") == "(= x None)"
    assert expr("Truex") == "Truex"  # a keyword is a whole word


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("[]", "(list)"),
        ("[1, 2]", "(list 1 2)"),
        ("[[1, 2], [3, 4],]", "(list (list 1 2) (list 3 4))"),
        ("[[[1]]]", "(list (list (list 1)))"),
        ("[-1, 2.5, x]", "(list (- 1) 2.5 x)"),
        ("()", "(tuple)"),
        ("(1,)", "(tuple 1)"),
        ("(1, 2)", "(tuple 1 2)"),
        ("(1, (2, 3),)", "(tuple 1 (tuple 2 3))"),
        ("(1)", "1"),
    ],
)
def test_lists_and_tuples(source: str, expected: str) -> None:
    assert expr(source) == expected


# Calls, attributes, indexing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("f()", "(call f)"),
        ("f(x)", "(call f x)"),
        ("f(x, dim=0, keepdim=True)", "(call f x (= dim 0) (= keepdim True))"),
        ("f(x,)", "(call f x)"),
        ("f(a=1,)", "(call f (= a 1))"),
        ("torch.ones(2, 3)", "(call (. torch ones) 2 3)"),
        ("x.T", "(. x T)"),
        ("e.grad_fn.next_functions", "(. (. e grad_fn) next_functions)"),
        ("x[0]", "([] x 0)"),
        ("x[-1]", "([] x (- 1))"),
        ("x[i + 1]", "([] x (+ i 1))"),
        ("x[:, 0]", "([] x (: _ _ _) 0)"),
        ("x[-1, 1:]", "([] x (- 1) (: 1 _ _))"),
        ("x[1:2]", "([] x (: 1 2 _))"),
        ("x[1:2:3]", "([] x (: 1 2 3))"),
        ("x[::2]", "([] x (: _ _ 2))"),
        ("x[::]", "([] x (: _ _ _))"),
        ("x[:3:]", "([] x (: _ 3 _))"),
        ("x[1::-1]", "([] x (: 1 _ (- 1)))"),
        ("x[None]", "([] x newaxis)"),
        ("x[None, :, None]", "([] x newaxis (: _ _ _) newaxis)"),
        ("x[..., 0]", "([] x ... 0)"),
        ("x[0,]", "([] x 0)"),
        ("x[(0, 1)]", "([] x 0 1)"),  # a parenthesised tuple is the index itself, as in Python
        ("x[(0, 1),]", "([] x (tuple 0 1))"),
        ("x[()]", "([] x)"),
        ("x[(None, 0)]", "([] x newaxis 0)"),
        ("fn.next_functions[0][0]", "([] ([] (. fn next_functions) 0) 0)"),
        ("x[[0, 1]]", "([] x (list 0 1))"),
    ],
)
def test_calls_attributes_and_indexing(source: str, expected: str) -> None:
    assert expr(source) == expected


def test_node_fields() -> None:
    call = parse("f(x, dim=0)").statements[0].value
    assert isinstance(call, Call)
    assert isinstance(call.func, Name) and call.func.id == "f"
    assert [type(a) for a in call.args] == [Name]
    assert [(name, type(v)) for name, v in call.kwargs] == [("dim", Number)]
    sub = parse("x[1:, None, ...]").statements[0].value
    assert isinstance(sub, Subscript)
    assert [type(i) for i in sub.index] == [Slice, NoneIndex, EllipsisIndex]
    assert isinstance(sub.index[0].start, Number) and sub.index[0].stop is None and sub.index[0].step is None


# Statements and program layout ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = 1", "(= x 1)"),
        ("x = 1, 2", "(= x (tuple 1 2))"),
        ("(x) = 1", "(= x 1)"),
        ("y[0] = x[0]**2", "([]= y 0 (** ([] x 0) 2))"),
        ("y[0, 1:] = 3", "([]= y 0 (: 1 _ _) 3)"),
        ("x", "(expr x)"),
        ("2*x[0], 3*x[1]**2", "(expr (tuple (* 2 ([] x 0)) (* 3 (** ([] x 1) 2))))"),
        ("x,", "(expr (tuple x))"),
        ("import torch", "(import torch)"),
        ("import torch as T", "(import torch T)"),
        ("import torch.autograd", "(import torch.autograd)"),
        ("import numpy as np", "(import numpy np)"),
        ("import a.b.c as d", "(import a.b.c d)"),
        ("x.grad.data.zero_()", "(expr (call (. (. (. x grad) data) zero_)))"),
        ("importx = 1", "(= importx 1)"),
    ],
)
def test_statement_forms(source: str, expected: str) -> None:
    assert tree(source) == expected


def test_statement_nodes() -> None:
    assign, index_assign, expr_stmt, imp = parse("a = 1\nb[0] = 2\nc\nimport torch as T").statements
    assert isinstance(assign, Assign) and assign.name == "a"
    assert isinstance(index_assign, IndexAssign) and index_assign.name == "b" and len(index_assign.index) == 1
    assert isinstance(expr_stmt, ExprStmt)
    assert isinstance(imp, Import) and (imp.module, imp.alias) == ("torch", "T")
    assert parse("import torch").statements[0].alias is None


@pytest.mark.parametrize(
    "source",
    [
        "x = 1; y = 2",
        "x = 1\ny = 2",
        "x = 1;\ny = 2;",
        "\n\n  x = 1  \n\n\ny = 2\n\n",
        "# comment\nx = 1 # trailing\n  # indented comment\n\ny = 2 # end",
        "x = 1\r\ny = 2\r\n",
        "x = 1\ry = 2",
        "\tx = 1\t;\ty = 2\t",
        "x = \\\n  1\ny = 2",
        "x = (\n  1\n)\ny = (\n  2\n)\n",
        "x = (1 # one\n)\ny = 2",
        "\ufeffx = 1\ny = 2",
        "x = 1 ;\n\ny = 2",
    ],
)
def test_layout(source: str) -> None:
    assert tree(source) == "(= x 1)\n(= y 2)"


@pytest.mark.parametrize("source", ["", "   ", "\n\n", "# only a comment", "\n# c\n\n# d\n", "\r\n\t\n"])
def test_empty_programs(source: str) -> None:
    assert parse(source).statements == ()


def test_multiline_call_and_list() -> None:
    source = "z.backward(\n    T.FloatTensor([[1, 1],\n                   [1, 1]]),\n    retain_graph=True,\n)\n"
    assert (
        tree(source)
        == "(expr (call (. z backward) (call (. T FloatTensor) (list (list 1 1) (list 1 1))) (= retain_graph True)))"
    )


def test_positions() -> None:
    source = "x = 1\n  y[0] = (a +\n b) * -c"
    assert tree(source, positions=True) == (
        "(=@1:1 x 1@1:5)\n([]=@2:3 y 0@2:5 (*@2:10 (+@2:10 a@2:11 b@3:2) (-@3:7 c@3:8)))"
    )
    assert tree("\tf(x)[1:]", positions=True) == "(expr@1:2 ([]@1:2 (call@1:2 f@1:2 x@1:4) (:@1:7 1@1:7 _ _)))"
    assert tree("x[:2]", positions=True) == "(expr@1:1 ([]@1:1 x@1:1 (:@1:3 _ 2@1:4 _)))"
    assert tree("'''a\nb''' + x", positions=True) == "(expr@1:1 (+@1:1 'a\\nb'@1:1 x@2:8))"
    assert tree("a\r\nb", positions=True) == "(expr@1:1 a@1:1)\n(expr@2:1 b@2:1)"
    program = parse("x\r\ny")
    assert program.source == "x\ny" and (program.line, program.column) == (1, 1)


# The seed tutorials ---------------------------------------------------------------------------

SEED_STATEMENTS = {
    "x = torch.ones(1, requires_grad=True); x": "(= x (call (. torch ones) 1 (= requires_grad True)))\n(expr x)",
    "y = x**2": "(= y (** x 2))",
    "z = x**3": "(= z (** x 3))",
    "y.backward()": "(expr (call (. y backward)))",
    "x.grad": "(expr (. x grad))",
    "x.grad.zero_()": "(expr (call (. (. x grad) zero_)))",
    "x = torch.rand((2, 1), requires_grad = True); x": (
        "(= x (call (. torch rand) (tuple 2 1) (= requires_grad True)))\n(expr x)"
    ),
    "y = torch.zeros(3, 1)": "(= y (call (. torch zeros) 3 1))",
    "y[0] = x[0]**2": "([]= y 0 (** ([] x 0) 2))",
    "y[2] = x[1]**4": "([]= y 2 (** ([] x 1) 4))",
    "y.backward(gradient=torch.ones(y.size()))": (
        "(expr (call (. y backward) (= gradient (call (. torch ones) (call (. y size))))))"
    ),
    "2*x[0], 3*x[1]**2, 4*x[1]**3": ("(expr (tuple (* 2 ([] x 0)) (* 3 (** ([] x 1) 2)) (* 4 (** ([] x 1) 3))))"),
    "2*x[0], 3*x[1]**2 + 4*x[1]**3": ("(expr (tuple (* 2 ([] x 0)) (+ (* 3 (** ([] x 1) 2)) (* 4 (** ([] x 1) 3)))))"),
    "import torch as T": "(import torch T)",
    "import torch.autograd": "(import torch.autograd)",
    "import numpy as np": "(import numpy np)",
    "x = T.randn(1, 1, requires_grad=True) #x is a leaf created by user, thus grad_fn is none": (
        "(= x (call (. T randn) 1 1 (= requires_grad True)))"
    ),
    "print('x', x)": "(expr (call print 'x' x))",
    "y = 2 * x": "(= y (* 2 x))",
    "z = y ** 3": "(= z (** y 3))",
    "print('x gradient:', x.grad, 'Requires gradient?', x.grad.requires_grad) # note that x.grad is also a tensor": (
        "(expr (call print 'x gradient:' (. x grad) 'Requires gradient?' (. (. x grad) requires_grad)))"
    ),
    "z.backward(retain_graph=True)": "(expr (call (. z backward) (= retain_graph True)))",
    "x.grad.data.zero_()": "(expr (call (. (. (. x grad) data) zero_)))",
    "z.backward(T.Tensor([[1]]), retain_graph=True)": (
        "(expr (call (. z backward) (call (. T Tensor) (list (list 1))) (= retain_graph True)))"
    ),
    "z.backward(T.FloatTensor([[0.5]]), retain_graph=True)": (
        "(expr (call (. z backward) (call (. T FloatTensor) (list (list 0.5))) (= retain_graph True)))"
    ),
    "print('z shape:', z.size())": "(expr (call print 'z shape:' (call (. z size))))",
    "print('x gradient for its all elements:\\n', x.grad)": (
        "(expr (call print 'x gradient for its all elements:\\n' (. x grad)))"
    ),
    "print()": "(expr (call print))",
    "out = z.mean()": "(= out (call (. z mean)))",
    "out.backward()  #without setting retain_graph to be true, it is alright for first time of backward.": (
        "(expr (call (. out backward)))"
    ),
    "a = torch.tensor(2.0, requires_grad=True)": "(= a (call (. torch tensor) 2.0 (= requires_grad True)))",
    "c = a + b": "(= c (+ a b))",
    "e = c * d": "(= e (* c d))",
    "ag = e.grad_fn.next_functions[0][0] #<AddBackward0 at 0x268c6d3e668>": (
        "(= ag ([] ([] (. (. e grad_fn) next_functions) 0) 0))"
    ),
    "ag.variable": "(expr (. ag variable))",
    "x = torch.tensor([0.0, 2.0, 8.0], requires_grad = True)": (
        "(= x (call (. torch tensor) (list 0.0 2.0 8.0) (= requires_grad True)))"
    ),
}


@pytest.mark.parametrize(("source", "expected"), SEED_STATEMENTS.items())
def test_seed_statements(source: str, expected: str) -> None:
    assert tree(source) == expected


SEED_001_BLOCK = """import torch as T
import torch.autograd
import numpy as np

'''
Define a scalar variable, set requires_grad to be true to add it to backward path for computing gradients

It is actually very simple to use backward()

first define the computation graph, then call backward()
'''

x = T.randn(1, 1, requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
#define an operation on x
y = 2 * x
print('y', y)
#define one more operation to check the chain rule
z = y ** 3
print('z', z)
"""


def test_seed_block() -> None:
    statements = parse(SEED_001_BLOCK).statements
    assert [type(s).__name__ for s in statements] == ["Import"] * 3 + ["ExprStmt"] + ["Assign", "ExprStmt"] * 3
    assert statements[3].value.value.startswith("\nDefine a scalar variable")
    assert (statements[4].line, statements[4].column) == (13, 1)


# Errors ---------------------------------------------------------------------------------------

NOT_PYTHON = "is not part of the language (autodiff evaluates expressions, not Python)"
MISSING = "is an operator or ',' missing before it?"
LEFT = "the target of '=' must be a name, name[index], x.attribute or a tuple of those"
INVISIBLE = "it is an invisible or unusual space: delete it or type a plain space"


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        ("x = 2 **", "unexpected end of program: expected an expression after '**'", 1, 9),
        ("x = 2 **  \ny = 1", "unexpected end of line: expected an expression after '**'", 1, 9),
        ("x = 2 ** # square\n", "unexpected end of line: expected an expression after '**'", 1, 9),
        ("f(2*)", "unexpected ')': expected an expression after '*'", 1, 5),
        ("y = f(2*x", "unclosed '(' opened at line 1, column 6", 1, 6),
        (
            "x = [1, 2\ny = 3",
            f"unexpected name 'y': {MISSING} (the '[' opened at line 1, column 5 is still open)",
            2,
            1,
        ),
        ("x = 1)", "unexpected ')'", 1, 6),
        ("x = (1]", "unexpected ']': the '(' opened at line 1, column 5 needs a ')' first", 1, 7),
        ("x = 1 2", f"unexpected number '2': {MISSING}", 1, 7),
        ("print 'hi'", f"unexpected string 'hi': {MISSING}", 1, 7),
        ("y.backward()x.grad", f"unexpected name 'x': {MISSING}", 1, 13),
        ("x = = 2", "unexpected '=': expected an expression after '='", 1, 5),
        ("1 = x", f"cannot assign to a number: {LEFT}", 1, 1),
        ("x.", "unexpected end of program: expected a name after '.'", 1, 3),
        ("x.1", f"unexpected number '.1': {MISSING}", 1, 2),
        ("import", "unexpected end of program: expected a name after 'import'", 1, 7),
        ("import torch as", "unexpected end of program: expected a name after 'as'", 1, 16),
        ("import torch T", "unexpected name 'T': expected '.', 'as' or the end of the statement after 'torch'", 1, 14),
        ("import 'torch'", "unexpected string 'torch': expected a name after 'import'", 1, 8),
        ("x[1:2:3:4]", "unexpected ':': expected ']' or ',' after '3'", 1, 8),
        ("x[]", "unexpected ']': expected an expression after '['", 1, 3),
        ("f(,)", "unexpected ',': expected an expression after '('", 1, 3),
        ("*x", "unexpected '*' at the start of a statement", 1, 1),
        ("x = 1\n  = 2", "unexpected '=' at the start of a statement", 2, 3),
        (";x", "unexpected ';' at the start of a statement", 1, 1),
        ("x;;y", "unexpected ';' at the start of a statement", 1, 3),
        ("f(x) = 3", f"cannot assign to a function call: {LEFT}", 1, 1),
        ("f(a=1, 2)", "positional argument follows keyword argument", 1, 8),
        ("f(dim=1, dim=2)", "keyword argument 'dim' repeated", 1, 10),
        ("f(x+1=2)", "unexpected '=': expected ')' or ',' after '1'", 1, 6),
        ("f(a, x for x in y)", "unexpected 'for': a comprehension is written [EXPRESSION for NAME in ITERABLE], a "
         "generator (EXPRESSION for NAME in ITERABLE) in its own parentheses", 1, 8),
        ("from torch import", "unexpected end of program: expected a name after 'import'", 1, 18),
        ("x += 1, 2 = 3", "unexpected '=': expected the end of the statement after '2'", 1, 11),
        ("(a, 1) = 2, 3", f"cannot assign to a number: {LEFT}", 1, 5),
        ("f() += 1", "cannot assign to a function call: the target of '+=' must be a name, name[index], x.attribute "
         "or a tuple of those", 1, 1),
        ("a, b += 1", "'+=' needs one target, not a tuple", 1, 1),
        ("y = (n := 3)", f"':=' {NOT_PYTHON}", 1, 8),
        ("x^2", "'^' is not a power in Python (it is exclusive or): write ** for a power, e.g. x**2 for x^2", 1, 2),
        ("x <> 1", "unexpected '>': expected an expression after '<'", 1, 4),
        ("x = {1, 2}", f"'{{' {NOT_PYTHON}", 1, 5),
        ("x = 'abc", "unterminated string", 1, 5),
        ('x = "abc\ny"', "unterminated string", 1, 5),
        ("x = '''abc\n\n", "unterminated triple-quoted string", 1, 5),
        ("x = '\\x4'", "invalid escape '\\x4' in a string", 1, 6),
        ("x = '\\N{NO SUCH NAME}'", "invalid escape '\\N{NO SUCH NAME}' in a string", 1, 6),
        ("x = '''\n\\u12'''", "invalid escape '\\u12' in a string", 2, 1),
        ("y = 2x", "invalid number '2x'; to multiply, write '2*x'", 1, 5),
        ("y = 1e", "invalid number '1e'", 1, 5),
        ("y = 1.2.3", "invalid number '1.2.3'", 1, 5),
        ("y = 007", "leading zeros are not allowed in an integer: write 7", 1, 5),
        ("x = 1 \\ 2", "unexpected '\\': a backslash may only end a line, to continue it", 1, 7),
        ("x = § 1", "invalid character '§' (U+00A7)", 1, 5),
        ("x = $", "invalid character '$' (U+0024)", 1, 5),
        ("y = x ? 1", "invalid character '?' (U+003F)", 1, 7),
        ("y = x \u2212 1", "invalid character '\u2212' (U+2212); did you mean '-'?", 1, 7),
        ("y = x \u00d7 2", "invalid character '\u00d7' (U+00D7); did you mean '*'?", 1, 7),
        ("y = \uff12", "invalid character '\uff12' (U+FF12); did you mean '2'?", 1, 5),
        ("y = \uff08x)", "invalid character '\uff08' (U+FF08); did you mean '('?", 1, 5),
        ("print(\u2018x\u2019)", "invalid character '\u2018' (U+2018); did you mean '''?", 1, 7),
        ("y = 1\u200b", f"invalid character U+200B (ZERO WIDTH SPACE); {INVISIBLE}", 1, 6),
        ("y =\u00a01", f"invalid character U+00A0 (NO-BREAK SPACE); {INVISIBLE}", 1, 4),
        ("y = 1\x00", "invalid character U+0000", 1, 6),
        ("y = \ud800", "invalid character U+D800", 1, 5),
        ("\u03b1 = 1", "invalid character '\u03b1' (U+03B1); names use only ASCII letters, digits and '_'", 1, 1),
        ("x = 1\r\ny = 2 +\r\n", "unexpected end of line: expected an expression after '+'", 2, 8),
        ("x = 1\ry = )", "unexpected ')'", 2, 5),
    ],
)
def test_error_messages(source: str, message: str, line: int, column: int) -> None:
    assert error(source) == (message, line, column)


@pytest.mark.parametrize(("source", "word", "what", "line", "column"), [
    ("for i in range(3):\n    y = i", "for", "a for loop", 1, 1),
    ("x = 1\nif x > 0: y = x", "if", "an if statement", 2, 1),
    ("x = 1; while x: x = x - 1", "while", "a while loop", 1, 8),
    ("def f(x):\n    return x", "def", "a function definition", 1, 1),
    ("class Net(nn.Module): pass", "class", "a class", 1, 1),
    ("with torch.no_grad(): y = x", "with", "a with block", 1, 1),
    ("@torch.no_grad()\ndef f(x): return x", "@", "a decorator", 1, 1),
    ("y = x.register_hook(lambda g: g * 2)", "lambda", "a lambda", 1, 21),
    ("print(f'{x:.4f}')", 'f\'', "an f-string", 1, 7),
    ("try:\n    y = x", "try", "try/except", 1, 1),
    ("del x", "del", "a del statement", 1, 1),
    ("assert x > 0", "assert", "an assert statement", 1, 1),
])
def test_python_blocks_are_usage_errors_that_point_at_run(source: str, word: str, what: str, line: int,
                                                           column: int) -> None:
    with pytest.raises(UsageError) as caught:
        parse(source)
    assert caught.value.kind == "usage"
    assert caught.value.message == (f"'{word}' starts {what}: Python's blocks and statements are not part of "
                                    "autodiff's language, which reads expressions and assignments: put the program in "
                                    "a file and run it with `autodiff run FILE` (Python, with autodiff's torch)")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert caught.value.details["excerpt"].endswith("^")


def test_if_and_for_inside_expressions_stay_the_language() -> None:
    assert tree("y = [i * 2 for i in range(3) if i > 0]") == "(= y (listcomp (* i 2) i (call range 3) (> i 0)))"
    assert tree("y = x if x > 0 else -x") == "(= y (ifexp (> x 0) x (- x)))"


def test_error_excerpt() -> None:
    with pytest.raises(ParseError) as caught:
        parse("x = 1\ny = (2*x)**\n")
    assert (
        caught.value.message == "unexpected end of line: expected an expression after '**'\ny = (2*x)**\n           ^"
    )
    assert str(caught.value) == caught.value.message
    with pytest.raises(ParseError) as caught:
        parse("\tx = \t§")
    assert caught.value.message.splitlines()[1:] == ["\tx = \t§", "\t    \t^"]  # tabs kept so the caret lines up


def test_source_excerpt() -> None:
    assert source_excerpt("ab\ncd", 2, 2) == "cd\n ^"
    assert source_excerpt("ab", 1, 3) == "ab\n  ^"
    assert source_excerpt("a\x00b", 1, 3) == "a\\x00b\n     ^"
    # invisible characters shown escaped
    assert source_excerpt("中x", 1, 2) == "中x\n  ^"  # a wide character takes two columns
    assert source_excerpt("x", 5, 1) == ""
    long = "x" * 200 + "$" + "y" * 200
    assert source_excerpt(long, 1, 201) == "..." + "x" * 40 + "$" + "y" * 39 + "...\n" + " " * 43 + "^"


# Limits and deep programs ---------------------------------------------------------------------


def test_big_programs_parse_without_recursion(default_recursion_limit) -> None:
    program = parse("x" + "+x" * 19_999)
    deepest = program.statements[0].value
    assert isinstance(deepest, BinOp)
    assert dump(program).count("(+") == 19_999
    assert repr(deepest).startswith("<BinOp (+ (+ ")  # repr goes through the iterative dump
    nested = parse("(" * 400 + "x" + ")" * 400).statements[0].value
    assert isinstance(nested, Name)
    parse("[" * MAX_BRACKET_DEPTH + "]" * MAX_BRACKET_DEPTH)
    parse("f(" * 400 + "x" + ")" * 400)
    parse("-" * 2_000 + "x")
    parse("2" + "**2" * 1_000)
    statements = parse("\n".join(f"y{i} = x * {i} + 1" for i in range(3_000))).statements
    assert len(statements) == 3_000 and statements[-1].line == 3_000


@pytest.mark.parametrize(
    ("source", "message", "line", "column"),
    [
        ("[" * 100_000 + "]" * 100_000, f"brackets are nested more than {MAX_BRACKET_DEPTH} deep", 1, 501),
        ("x = " + "(" * 100_000, f"brackets are nested more than {MAX_BRACKET_DEPTH} deep", 1, 505),
        ("-" * 100_000 + "x", "the program is nested too deeply for the parser (limit 5,000)", 1, 5000),
        ("2" + "**2" * 3_000, "the program is nested too deeply for the parser (limit 5,000)", 1, 7499),
        ("1" * 4_001, "the integer has 4,001 digits; the limit is 4,000", 1, 1),
    ],
)
def test_limits(source: str, message: str, line: int, column: int) -> None:
    with pytest.raises(LimitError) as caught:  # how soon: benchmarks/limits.py
        parse(source)
    e = caught.value
    assert (e.kind, e.message, e.line, e.column) == ("limit", message, line, column)


def test_program_size_limit() -> None:
    with pytest.raises(LimitError) as caught:
        parse("x" * (MAX_SOURCE_CHARS + 1))
    assert caught.value.message == "the program has 1,000,001 characters; the limit is 1,000,000"
    assert caught.value.line is None


# The tree's nodes -----------------------------------------------------------------------------


def test_nodes_are_frozen_and_slotted() -> None:
    node = parse("x + 1").statements[0].value
    assert type(node).__match_args__ == ("op", "left", "right")
    assert not hasattr(node, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        node.op = "-"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del node.op
    assert node != parse("x + 1").statements[0].value  # identity: comparing never walks a tree
    shifted = moved(node, line=7, column=3)
    assert (shifted.line, shifted.column, shifted.op, shifted.left) == (7, 3, "+", node.left)
    assert copy.copy(node).right is node.right
    match node:
        case BinOp("+", Name("x"), Number(1)):
            pass
        case _:
            pytest.fail("match_args")
    assert dump(UnaryOp("-", Constant(None, line=1, column=2), line=1, column=1)) == "(- None)"
    assert dump(TupleExpr((), line=1, column=1), positions=True) == "(tuple@1:1)"
    with pytest.raises(TypeError):
        BinOp("+", node.left, line=1, column=1)


# The generated parser -------------------------------------------------------------------------


def test_generated_parser_is_current() -> None:
    grammar = (GRAMMAR_DIR / "autodiff.lark").read_text(encoding="utf-8")
    assert generate.grammar_sha256(grammar) == _generated_parser.GRAMMAR_SHA256, "run python grammar/syntax/generate.py"
    pytest.importorskip("lark")
    assert generate.render(grammar) == (GRAMMAR_DIR / "syntax" / "tables.py").read_text(encoding="utf-8")


def test_grammar_package_runs_no_code_from_data() -> None:
    """No eval/exec/compile/__import__, no pickle loads anywhere in the grammar."""
    hits = []
    for path in GRAMMAR_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                fn = node.func
                if isinstance(fn, ast.Name) and fn.id in {"eval", "exec", "compile", "__import__"}:
                    hits.append(f"{path.name}:{node.lineno}")
                if isinstance(fn, ast.Attribute) and fn.attr in {"load", "loads"}:
                    hits.append(f"{path.name}:{node.lineno}")
    assert hits == []


def test_runtime_does_not_import_lark() -> None:
    import subprocess

    code = "import sys; from autodiff.grammar.syntax import parse; parse('(2*x)**3'); print('lark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# Properties -----------------------------------------------------------------------------------


def _parse_safely(source: str) -> None:
    try:
        parse(source)
    except (ParseError, LimitError, UsageError) as e:
        assert isinstance(e.line, int) and e.line >= 1
        assert isinstance(e.column, int) and e.column >= 1
        if isinstance(e, ParseError):
            summary, _line, caret = e.message.split("\n")
            assert summary and caret.endswith("^")
            e.message.encode("utf-8")  # printable: no lone surrogates leak into messages


@settings(max_examples=300, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text_raises_only_our_errors(source: str) -> None:
    _parse_safely(source)


LANGUAGE_TOKENS = [
    "x", "y", "torch", "_a1", "grad", "2", "0", "2.5", ".5", "1e-3", "2.", "007", "'s'", '"t"', "'''u'''",
    "'", '"', "+", "-", "*", "/", "**", "@", "=", "(", ")", "[", "]", ",", ":", ";", ".", "...", "\n", "\r\n",
    "\r", " ", "\t", "# c", "\\\n", "\\", "import", "as", "True", "False", "None", "lambda", "if", "==", "+=",
    "%", "//", "<", "{", "\u2212", "\uff12", "\u200b", "\x00", "\ud800", "\ufeff", "é",
]  # fmt: skip


@settings(max_examples=500, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LANGUAGE_TOKENS), max_size=60), st.lists(st.sampled_from(["", " ", "\n"])))
def test_token_soup_raises_only_our_errors(tokens: list[str], separators: list[str]) -> None:
    source = "".join(tok + (separators[i % len(separators)] if separators else "") for i, tok in enumerate(tokens))
    _parse_safely(source)


# Python's own parser as the oracle for the shared subset: same tree, or both refuse.

NAMES = st.sampled_from(["x", "y", "W", "torch", "f"])
LEAVES = st.one_of(
    NAMES,
    st.integers(0, 999).map(str),
    st.sampled_from(["2.5", ".5", "1e-3", "2.", "1E+3", "'s'", "True", "None", "0"]),
)


@st.composite
def expressions(draw, depth: int = 4) -> str:
    """Random expression text in the subset shared with Python (valid or not, as it comes)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(LEAVES)
    sub = expressions(depth - 1)
    kind = draw(st.sampled_from(["binary", "unary", "paren", "tuple", "list", "attribute", "call", "index"]))
    if kind == "binary":
        space = draw(st.sampled_from(["", " "]))
        return draw(sub) + space + draw(st.sampled_from(["+", "-", "*", "/", "**", "@"])) + space + draw(sub)
    if kind == "unary":
        return draw(st.sampled_from(["-", "+", "- "])) + draw(sub)
    if kind == "paren":
        return f"({draw(sub)})"
    if kind == "tuple":
        return "(" + "".join(f"{item}, " for item in draw(st.lists(sub, max_size=3))) + ")"
    if kind == "list":
        return "[" + ", ".join(draw(st.lists(sub, max_size=3))) + "]"
    if kind == "attribute":
        return f"{draw(sub)}.{draw(NAMES)}"
    if kind == "call":
        args = draw(st.lists(sub, max_size=2)) + [f"k{i}={v}" for i, v in enumerate(draw(st.lists(sub, max_size=2)))]
        return f"{draw(sub)}(" + ", ".join(args) + ")"
    part = st.one_of(st.just(""), sub)
    item = st.one_of(
        sub,
        st.sampled_from(["None", "..."]),
        st.tuples(part, part).map(":".join),
        st.tuples(part, part, part).map(":".join),
    )
    items = draw(st.lists(item, min_size=1, max_size=3))
    return f"{draw(sub)}[" + ", ".join(items) + draw(st.sampled_from(["", ","])) + "]"


EXPRESSIONS = expressions()


def _ours(node) -> object:
    if isinstance(node, Number):
        return ("num", node.value)
    if isinstance(node, String):
        return ("const", node.value)
    if isinstance(node, Constant):
        return ("const", node.value)
    if isinstance(node, NoneIndex):
        return ("const", None)
    if isinstance(node, EllipsisIndex):
        return ("const", ...)
    if isinstance(node, Name):
        return ("name", node.id)
    if isinstance(node, BinOp):
        return ("bin", node.op, _ours(node.left), _ours(node.right))
    if isinstance(node, UnaryOp):
        return ("unary", node.op, _ours(node.operand))
    if isinstance(node, Call):
        return ("call", _ours(node.func), [_ours(a) for a in node.args], [(k, _ours(v)) for k, v in node.kwargs])
    if isinstance(node, Subscript):
        return ("sub", _ours(node.value), [_ours(i) for i in node.index])

    if isinstance(node, Slice):
        return ("slice", *(None if p is None else _ours(p) for p in (node.start, node.stop, node.step)))
    if node.__class__.__name__ == "Attribute":
        return ("attr", _ours(node.value), node.attr)
    kind = "list" if node.__class__.__name__ == "ListExpr" else "tuple"
    return (kind, [_ours(i) for i in node.items])


_PY_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.MatMult: "@"}


def _pythons(node: ast.AST) -> object:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return ("num", node.value)
        return ("const", node.value)
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, ast.BinOp):
        return ("bin", _PY_OPS[type(node.op)], _pythons(node.left), _pythons(node.right))
    if isinstance(node, ast.UnaryOp):
        return ("unary", "-" if isinstance(node.op, ast.USub) else "+", _pythons(node.operand))
    if isinstance(node, ast.Call):
        return ("call", _pythons(node.func), [_pythons(a) for a in node.args],
                [(k.arg, _pythons(k.value)) for k in node.keywords])  # fmt: skip
    if isinstance(node, ast.Subscript):
        index = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return ("sub", _pythons(node.value), [_pythons(i) for i in index])
    if isinstance(node, ast.Slice):
        return ("slice", *(None if p is None else _pythons(p) for p in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.Attribute):
        return ("attr", _pythons(node.value), node.attr)
    if isinstance(node, ast.List):
        return ("list", [_pythons(i) for i in node.elts])
    assert isinstance(node, ast.Tuple)
    return ("tuple", [_pythons(i) for i in node.elts])


@settings(max_examples=400, deadline=1000, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_same_tree_as_python(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "'int' object is not callable; perhaps you missed a comma?"
        try:
            expected = _pythons(ast.parse(source, mode="eval").body)
        except SyntaxError:
            expected = None
    if expected is None or _calls_a_value(ast.parse(source, mode="eval").body):
        # Python parses 2(x+1) and (x+1)(x-1) as calls (that fail when run); the language names the missing '*'
        with pytest.raises(AutodiffError):
            parse(source)
        return
    assert _ours(parse(source).statements[0].value) == expected


def _calls_a_value(tree: ast.AST) -> bool:
    """A call of a number, a list or an operator's result somewhere in the tree (nothing there is callable)."""
    def value(func: ast.AST) -> bool:
        if isinstance(func, ast.Constant):
            return type(func.value) in (int, float)
        return isinstance(func, (ast.List, ast.BinOp, ast.UnaryOp))

    return any(isinstance(node, ast.Call) and value(node.func) for node in ast.walk(tree))
