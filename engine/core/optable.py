"""The table of differentiable operations: what an operation is, and the one place each is declared.

An `Op` gives the forward computation (on numpy arrays), one backward formula per tensor input, the name
of the node PyTorch records for it, and every other fact about it: its group in `autodiff ops`, whether
its result is a view, whether numpy may warn on finite input, its layout rule, the kernel that splits it
over the cores, and its symbolic form. The modules of each kind of operation (elementwise.py,
reductions.py, ...) declare their ops with `declare(Op(...))` next to the functions that record them.

Formulas are written in one vocabulary, `F` (see vocabulary.py), that exists on numpy arrays, on Tensors
(for `create_graph=True`) and on SymPy expressions (`autodiff diff`). Inside a formula, `g` is the gradient
of the op's output and `s` holds the saved values: the inputs by their slot names (`self`, `other`, ...),
`result`, and the op's parameters. What a formula reads of `s` is found in its code (`reads`), so the
values an op saves are derived from its formulas, never listed by hand: PyTorch saves only those.

Formulas return the gradient for the input's *broadcast* shape; the executor reduces it to the input's
own shape in one place (`F.fit`), as PyTorch's engine does.
"""

from __future__ import annotations

import dis
import functools
import inspect
import itertools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from ..kernels.parallel import Kernel, binary, splitting, unary

# The groups of `autodiff ops`, in the order it lists them; an op's `group` is one of them or None.
LOSSES = "Loss functions"
ARITHMETIC = "Arithmetic"
ELEMENTWISE = "Elementwise functions"
ACTIVATIONS = "Activation functions"
REDUCTIONS = "Reductions"
LINEAR_ALGEBRA = "Linear algebra"
CONVOLUTION = "Convolution and pooling"
SHAPES = "Shapes, views and copies"
GROUPS = (LOSSES, ARITHMETIC, ELEMENTWISE, ACTIVATIONS, REDUCTIONS, LINEAR_ALGEBRA, CONVOLUTION, SHAPES)

# An op whose symbolic form is the vocabulary's function of the op's own name (sin -> F.sin).
FUNCTION = "function"

# Forward-mode AD (`Op.jvp`): the tangent of an op's result from its inputs' tangents, as derivatives.yaml's
# `result:` entries give it. Besides a formula `jvp(F, t, s)` (t: each input's tangent by slot name, zeros
# where an input has none; s: the inputs, `result` and the parameters), one of the rules PyTorch derives too:
ELEMENTWISE_JVP = "elementwise"  # each input's Jacobian is diagonal: the backward formula, given the tangent
LINEAR_JVP = "linear"  # linear in its tensor inputs: the forward itself, run on the tangents
BILINEAR_JVP = "bilinear"  # linear in each tensor input separately (matmul): the forward, one tangent at a time
REDUCTION_JVP = "reduction"  # each input element reaches one output element: backward of ones, times the
#                              tangent, summed over the reduced dims
JVP_RULES = (ELEMENTWISE_JVP, LINEAR_JVP, BILINEAR_JVP, REDUCTION_JVP)

# What an op does with integer and bool inputs (`Op.integers`), as PyTorch's kernels do:
FLOATING = "floating"  # computed in a floating dtype: the inputs' common one, else the default (exp, mean, div)
PROMOTED = "promoted"  # the inputs in their common dtype (result_type): integers stay integers (add, cat, mm)
KEPT = "kept"  # the input as it is: its dtype is the result's (views, indexing, abs, floor, max)
AS_SELF = "as_self"  # the other inputs in self's dtype (writes into self: copy_, index_put_, scatter)
WIDENED = "widened"  # integers and bools summed as int64 (sum, prod, cumsum, trace)
INTEGER_RULES = (FLOATING, PROMOTED, KEPT, AS_SELF, WIDENED)


class Grad:
    """A backward formula for one input: `fn(F, g, s)` and its text, as PyTorch's derivatives.yaml gives it.
    Compared by identity: each formula is made once."""

    def __init__(self, fn: Callable[[Any, Any, Any], Any], text: str) -> None:
        self.fn, self.text = fn, text

    def __repr__(self) -> str:
        return f"Grad({self.text!r})"

    @functools.cached_property
    def reads(self) -> tuple[str, ...]:
        """The attributes of `s` the formula reads (from its code; found when first needed: reading the code
        of every formula at import would cost every command's start-up)."""
        return reads(self.fn)


class Op:
    """One differentiable operation: forward, one Grad per tensor input, PyTorch's node name, its facts.

    - doc: one line; group: its group in `autodiff ops` (GROUPS), None: not listed under one
    - view: the result shares the input's memory
    - noisy: numpy would warn on some finite inputs (log(0), 1/0, exp(100)): run with warnings off
    - elementwise: elementwise on several inputs that broadcast: the result takes PyTorch's layout
    - kernel: the split kernel of its forward (default: its ufunc's, when it is one)
    - symbolic: its forward as a formula in the vocabulary M (lambda M, *inputs, **params), or FUNCTION
    - saved: parameters PyTorch saves as tensors (max's indices): freed after backward
    - jvp: its forward-mode formula or rule (JVP_RULES); None: forward-mode AD refuses the op
    - outputs: an op with several differentiable outputs (var_mean, linalg_eigh): their names. Its forward
      returns one array per output, its node is shared by them (multi_output.py), its formulas get `g` as a tuple
      with one gradient per output (None where none arrived, as PyTorch's undefined gradients) and read the
      outputs from `s` by name; its forward formula returns one tangent per output.
    - several: an op with as many outputs as its call asks for (split, unbind): one node for all of them, as
      `outputs`, its formula getting one gradient per output (None where none arrived); never saved.
    - integers: what it does with integer and bool inputs (INTEGER_RULES); None: by its group (shapes keep
      them, arithmetic promotes them, the others compute in floats)
    - large_forward (derived): for inputs of parallel.THRESHOLD elements or more, the forward split over the
      cores, where it can be.
    - numbers: the forward of an arithmetic op of two inputs on Python floats (operator.mul): a 0-d float
      tensor with a number or another 0-d tensor of its dtype computes by it (recording.apply), the same
      IEEE operation as numpy's without a ufunc call.
    """

    def __init__(self, name: str, node: str, inputs: tuple[str, ...], forward: Callable[..., np.ndarray] | None,
                 grads: tuple[Grad, ...], doc: str = "", group: str | None = None, view: bool = False,
                 noisy: bool = False, elementwise: bool = False, kernel: Kernel | None = None, symbolic: Any = None,
                 saved: tuple[str, ...] = (), jvp: Any = None, outputs: tuple[str, ...] = (), several: bool = False,
                 integers: str | None = None, numbers: Callable[[float, float], float] | None = None) -> None:
        if len(grads) != len(inputs):
            raise ValueError(f"op {name}: {len(inputs)} inputs but {len(grads)} formulas")
        if integers is None:  # by its group
            integers = KEPT if group == SHAPES else PROMOTED if group == ARITHMETIC else FLOATING
        elif integers not in INTEGER_RULES:
            raise ValueError(f"op {name}: integers={integers!r} is not one of {INTEGER_RULES}")
        self.name, self.node, self.inputs, self.forward, self.grads = name, node, inputs, forward, grads
        self.doc, self.group, self.view, self.noisy, self.elementwise = doc, group, view, noisy, elementwise
        self.kernel, self.symbolic, self.saved, self.jvp = kernel, symbolic, saved, jvp
        self.outputs, self.several, self.integers, self.numbers = outputs, several, integers, numbers
        chosen = kernel if kernel is not None else _ufunc_kernel(forward)
        self.large_forward = None if chosen is None else splitting(chosen, forward)

    def __repr__(self) -> str:
        return f"Op({self.name!r}, {self.node!r})"

    # `uses` and `saved_for` are derived from the formulas' code when an op is first recorded (not at import).
    @functools.cached_property
    def uses(self) -> tuple[tuple[str, ...], ...]:
        """Per input: the saved values its formula needs."""
        savable = (*self.inputs, "result", *self.saved, *self.outputs)
        return tuple(tuple(n for n in savable if n in grad.reads) for grad in self.grads)

    @functools.cached_property
    def blind(self) -> bool:
        """True when no formula of the op looks at its saved values at all (`lambda F, g, s: -g`): its node's
        backward then makes no context for them."""
        return all(not touches(grad.fn) for grad in self.grads)

    @functools.cached_property
    def saved_for(self) -> dict[tuple[bool, ...], tuple[tuple[str, int | None], ...]]:
        """For every combination of inputs that require grad: which saved values the formulas need, as (name,
        slot index or None for `result` and saved parameters) pairs. PyTorch saves only these. Each entry is
        computed when first asked for: an op of n inputs (stack of 64 tensors) has 2**n combinations."""
        return _SavedPlans(self)


class _SavedPlans(dict):
    """Op.saved_for: the plan of one combination of inputs that require grad, made on first use."""

    def __init__(self, op: Op) -> None:
        super().__init__()
        self.op = op

    def __missing__(self, needs: tuple[bool, ...]) -> tuple[tuple[str, int | None], ...]:
        op = self.op
        savable = (*op.inputs, "result", *op.saved, *op.outputs)
        wanted = {n for flag, names in zip(needs, op.uses) if flag for n in names}
        # PyTorch's generated code guards the saving of an input (saved when a formula that reads it runs), never
        # an output's (the result of a ** b is saved even when b needs no grad, so a write into it is detected),
        # nor anything of a double-backward op (`*_backward`)
        unguarded = op.name.endswith(("_backward", "_backward_data"))
        wanted |= {n for names in op.uses for n in names if n == "result" or n in op.outputs or unguarded}
        names = [n for n in savable if n in wanted]
        plan = tuple((n, op.inputs.index(n) if n in op.inputs else None) for n in names)
        self[needs] = plan
        return plan


def _ufunc_kernel(forward: Any) -> Kernel | None:
    """The split kernel of a forward that is a numpy ufunc of one or two inputs."""
    if isinstance(forward, np.ufunc) and forward.nout == 1 and forward.nin in (1, 2):
        return unary(forward) if forward.nin == 1 else binary(forward)
    return None


OPS: dict[str, Op] = {}


def declare(op: Op) -> Op:
    """Add an op to the table (each name once)."""
    if op.name in OPS:
        raise ValueError(f"op {op.name} is declared twice")
    OPS[op.name] = op
    return op


# ---------------------------------------------------------------------------- what a formula reads
_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_FAST_CHECK", "LOAD_DEREF"})
_PAIR_LOADS = frozenset({"LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"})
_ATTRIBUTES = frozenset({"LOAD_ATTR", "LOAD_METHOD"})


def touches(fn: Callable[..., Any]) -> bool:
    """Whether a formula `fn(F, g, s)` uses its third parameter anywhere in its code (or passes it on, or a lambda
    inside it holds it); True when that cannot be told."""
    body = getattr(fn, "__code__", None)
    if body is None or body.co_argcount != 3 or body.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return True
    param = body.co_varnames[2]
    if param in body.co_cellvars:
        return True
    for here in dis.get_instructions(body):
        loaded = here.argval if here.opname in _LOADS else here.argval[1] if here.opname in _PAIR_LOADS else None
        if loaded == param or (here.opname in _PAIR_LOADS and here.argval[0] == param):
            return True
    return False


def reads(fn: Callable[..., Any], param: str = "s") -> tuple[str, ...]:
    """The attributes of the parameter `param` that a function reads (`s.other`), in its own code, in the
    lambdas inside it, and in the module's functions it calls that take a parameter of the same name."""
    found: list[str] = []
    seen: set[types.CodeType] = set()
    pending = [(fn.__code__, vars(inspect.getmodule(fn)))]
    while pending:
        body, namespace = pending.pop()
        if body in seen:
            continue
        seen.add(body)
        instructions = list(dis.get_instructions(body))
        for here, after in itertools.pairwise(instructions):
            loaded = here.argval[1] if here.opname in _PAIR_LOADS else here.argval if here.opname in _LOADS else None
            if loaded == param and after.opname in _ATTRIBUTES:
                found.append(after.argval)
            elif here.opname == "LOAD_GLOBAL":
                helper = namespace.get(here.argval)
                if isinstance(helper, types.FunctionType) and param in inspect.signature(helper).parameters:
                    pending.append((helper.__code__, vars(inspect.getmodule(helper))))
        pending.extend((c, namespace) for c in body.co_consts if isinstance(c, types.CodeType))
    return tuple(dict.fromkeys(found))
