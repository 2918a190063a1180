"""One declaration per operation: every fact about an op is a field of its Op, and every table that must cover
every op or built-in is derived from those declarations or checked against them here."""

from __future__ import annotations

import inspect

import pytest

from autodiff import engine
from autodiff.engine import BUILTINS, FUNCTION, OP_GROUPS, OPS, NumpyMath, TensorMath, Vocabulary
from autodiff.grammar.interpreter import FUNCTIONAL, TENSOR_ATTRIBUTES, TENSOR_METHODS


def test_every_op_is_declared_once_with_its_facts():
    for name, op in OPS.items():
        assert op.name == name
        assert op.node and op.node[0].isupper(), name
        assert len(op.grads) == len(op.inputs), name
        assert op.group is None or op.group in OP_GROUPS, name
        assert all(g.text for g in op.grads), name


def test_the_values_an_op_saves_are_what_its_formulas_read():
    # derived, never listed: a formula reading s.other saves `other`, one reading s.result saves the result
    mul, exp, add = OPS["mul"], OPS["exp"], OPS["add"]
    assert mul.uses == (("other",), ("self",))
    assert exp.uses == (("result",),)
    assert add.uses == ((), ())
    assert mul.saved_for[(True, False)] == (("other", 1),)
    assert OPS["max_dim"].uses == (("indices",),)  # a parameter PyTorch saves as a tensor
    for op in OPS.values():
        savable = {*op.inputs, "result", *op.saved, *op.outputs}
        for grad, uses in zip(op.grads, op.uses):
            assert set(uses) <= savable
            assert set(uses) == savable & set(grad.reads), op.name


def test_every_builtin_records_only_ops_of_the_table():
    for name, builtin in BUILTINS.items():
        assert set(builtin.ops) <= set(OPS), name
        assert builtin.signature.startswith(f"{name}("), name
        if builtin.alias_of is not None:
            assert BUILTINS[builtin.alias_of].fn is builtin.fn, name


def test_a_composites_ops_are_traced_from_its_one_definition():
    assert BUILTINS["sec"].ops == ("cos", "reciprocal")
    assert BUILTINS["cbrt"].ops == ("sign", "abs", "pow", "mul")
    assert BUILTINS["square"].ops == ("pow",)
    for name, builtin in BUILTINS.items():
        if builtin.composite is not None:
            assert builtin.ops, name
            assert engine.sec(engine.tensor(0.5)).grad_fn is None  # built from the engine's own functions


def test_every_op_with_a_symbolic_form_can_be_computed_on_symbols():
    pytest.importorskip("sympy")
    import sympy

    from autodiff.app.symbolic.sympymath import FUNCTIONS, SymPyMath

    x, y, z = sympy.symbols("x y z", real=True)
    known = {"other": 2, "exponent": 3, "base": 2, "min": 0, "max": 1, "condition": x > 0}
    for op in OPS.values():
        if op.symbolic is None:
            continue
        values = (x, y, z)[:len(op.inputs)]
        if op.symbolic is FUNCTION:
            assert op.name in FUNCTIONS, op.name
            FUNCTIONS[op.name](*values)
            continue
        parameters = inspect.signature(op.symbolic).parameters.values()
        params = {p.name: known.get(p.name, sympy.Rational(1, 2)) for p in parameters
                  if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is inspect.Parameter.empty}
        op.symbolic(SymPyMath, *values, **params)


def test_the_three_vocabularies_implement_one_protocol():
    pytest.importorskip("sympy")
    from autodiff.app.symbolic.sympymath import SymPyMath

    members = [name for name in dir(Vocabulary) if not name.startswith("_")] + ["records"]
    for vocabulary in (NumpyMath, TensorMath, SymPyMath):
        missing = [name for name in members if not hasattr(vocabulary, name)]
        assert not missing, (vocabulary.__name__, missing)
        assert isinstance(vocabulary(), Vocabulary)


def test_the_languages_tables_are_read_from_the_engine():
    assert set(TENSOR_ATTRIBUTES) == set(engine.TENSOR_PROPERTIES)
    assert TENSOR_METHODS == engine.TENSOR_METHODS
    assert {name for name, b in BUILTINS.items() if b.method} <= TENSOR_METHODS
    assert set(FUNCTIONAL) == {name for name, b in BUILTINS.items() if b.functional and b.alias_of is None}
    assert {"relu", "mse_loss", "softmax"} <= set(FUNCTIONAL)


def test_every_builtin_method_is_installed_on_the_tensor():
    x = engine.tensor([1.0, 2.0])
    for name in TENSOR_METHODS:
        assert callable(getattr(x, name)), name


def test_a_formula_that_never_uses_its_saved_values_is_told_apart() -> None:
    """Op.blind: a node whose formulas never look at `s` runs them without making its saved-values context."""
    from autodiff.engine.core.optable import touches

    def helper(s):
        return s.other

    assert not touches(lambda F, g, s: -g)
    assert not touches(lambda F, g, s: F.mul(g, 2.0))
    assert touches(lambda F, g, s: g * s.other)
    assert touches(lambda F, g, s: helper(s))
    assert touches(lambda F, g, s: [(lambda: s)()])  # held by an inner function
    assert touches(print)  # not a formula whose code can be read
    assert OPS["add"].blind and OPS["neg"].blind and not OPS["mul"].blind and not OPS["sum"].blind
    for op in OPS.values():
        if op.blind:  # (then nothing is saved for it either)
            assert all(not grad.reads for grad in op.grads) and not any(op.saved_for[(True,) * len(op.inputs)])
