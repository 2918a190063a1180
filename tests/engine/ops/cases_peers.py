"""The peers' op-level gradient tests (issue 31, issue 29 item 4), ported as programs in autodiff's language.

tinygrad (test/backend/test_ops.py), HIPS autograd (tests/test_numpy.py, test_scalar_ops.py, test_linalg.py, ...)
and MyGrad (tests/tensor_ops/, tests/math/, ...) each check their own ops' values and gradients against a
reference. Each of those checks is one `PeerCase` here: a program text in autodiff's language (the language takes
PyTorch's spelling, so the same text also runs as Python against torch), the inputs the peer used (its shapes
and value ranges, made here by a fixed generator), which inputs require grad, the order of derivative the peer
checks, and the peer and test it comes from. The tables (TABLES) are cases_peers_tinygrad*.py,
cases_peers_autograd*.py and cases_peers_mygrad.py; tests/make_peers_golden.py records PyTorch's answers in
golden/peers.json, which test_peers_golden.py checks without torch and test_peers_live.py checks against torch.
A program PyTorch refuses must be refused (the error's class is not compared).

A case autodiff cannot run, or runs differently, carries `expect`: "missing op: NAME", "unsupported ...: WHAT"
or "disagreement: WHAT" (a known difference: another helper's area, PyTorch's own inconsistency, or a documented
choice). The tests then require that it still differs, so that the table is corrected when that changes.
"""

from __future__ import annotations

import ast
import math
import re
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

F32, F64 = "float32", "float64"
NAMES = ("x", "y", "z", "w", "v")
TABLES = ("cases_peers_tinygrad.py", "cases_peers_tinygrad2.py", "cases_peers_tinygrad3.py", "cases_peers_autograd.py",
          "cases_peers_autograd2.py", "cases_peers_mygrad.py")


@dataclass(frozen=True)
class PeerCase:
    id: str
    peer: str  # tinygrad, autograd, mygrad
    source: str  # the peer's file and test: "test/backend/test_ops.py::TestOps::test_exp"
    program: str  # autodiff's language; its last statement is the output
    inputs: tuple[np.ndarray, ...]
    dtypes: tuple[str, ...]
    requires_grad: tuple[bool, ...]
    order: int = 1  # 2: the peer checks second derivatives (grad of the weighted first derivatives)
    expect: str = "agree"  # or "missing op: ...", "unsupported keyword: ...", "disagreement: ..."
    # For an op PyTorch does not have (csc, sec, cot, ...): the program PyTorch runs instead (its definition);
    # values and gradients are compared, the graph is not (it is the engine's own node)
    reference: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[:len(self.inputs)]


def uniform(case_id: str, shape: tuple[int, ...], low: float, high: float, dtype: str) -> np.ndarray:
    """Fixed values in [low, high) for one input (PCG64 seeded from the case id: the same on every numpy)."""
    rng = np.random.Generator(np.random.PCG64(zlib.crc32(case_id.encode())))
    return rng.uniform(low, high, size=shape).astype(dtype).astype(np.float64)


# How many cases of each (peer, test) are declared so far: the next one's number (reset by load_tables), so
# that a test's cases spread over several tables get distinct ids
_COUNTS: dict[str, int] = {}


class Table:
    """One peer's cases: `add` declares one, numbering the cases of the same test."""

    def __init__(self, peer: str, prefix: str) -> None:
        self.peer, self.prefix, self.cases = peer, prefix, []

    def add(self, test: str, program: str, *inputs: Any, low: float = -2.0, high: float = 2.0,
            dtype: str | tuple[str, ...] = F64, grad: tuple[bool, ...] | None = None, order: int = 1,
            expect: str = "agree", reference: str | None = None) -> None:
        """inputs: a shape (a tuple: values drawn in [low, high)) or the values themselves (a number or list)."""
        if re.search(r"\bF\.", program) and "import" not in program:  # F is torch.nn.functional, imported
            program = "import torch.nn.functional as F; " + program
        name = f"{self.peer}:{test.rsplit('::', 1)[-1]}"
        n = _COUNTS[name] = _COUNTS.get(name, 0) + 1
        case_id = f"{name}:{n}"
        dtypes = (dtype,) * len(inputs) if isinstance(dtype, str) else tuple(dtype)
        arrays = tuple(uniform(f"{case_id}:{i}", x, low, high, dt) if isinstance(x, tuple)
                       else np.array(x, dtype=np.float64) for i, (x, dt) in enumerate(zip(inputs, dtypes)))
        flags = (True,) * len(arrays) if grad is None else tuple(grad)
        if len(flags) != len(arrays) or len(dtypes) != len(arrays):
            raise ValueError(f"{case_id}: one dtype and one requires_grad flag per input")
        self.cases.append(PeerCase(case_id, self.peer, f"{self.prefix}::{test}", program, arrays, dtypes, flags,
                                   order, expect, reference))


def table_of(peer: str, prefix: str, rows: list[tuple], **defaults: Any) -> Table:
    """A Table from rows (test, program, input, ..., [options]): an input is a shape (a tuple) or values; a
    trailing dict gives options of Table.add (low, high, dtype, grad, order, expect)."""
    t = Table(peer, prefix)
    for row in rows:
        options = {**defaults, **row[-1]} if isinstance(row[-1], dict) else dict(defaults)
        inputs = row[2:-1] if isinstance(row[-1], dict) else row[2:]
        t.add(row[0], row[1], *inputs, **options)
    return t


# ---------------------------------------------------------------------------- running a program
def _run_torch(torch: Any, program: str, names: dict[str, Any]) -> Any:
    """The program as Python with torch: its statements, then the value of the last one."""
    tree = ast.parse(program)
    last = tree.body.pop()
    if not isinstance(last, ast.Expr):
        raise ValueError("a program ends with an expression")
    scope = {"torch": torch, "inf": math.inf, "nan": math.nan, "pi": math.pi, **names}  # the language's constants
    exec(compile(tree, "<program>", "exec"), scope)  # the tests' own programs, never user input
    return eval(compile(ast.Expression(last.value), "<program>", "eval"), scope)


def _run_engine(program: str, names: dict[str, Any]) -> Any:
    """The program in autodiff's language; one the language leaves to `autodiff run` (torch.nn's modules) as
    Python with autodiff's torch, as `autodiff run` runs it."""
    from autodiff.engine import facade
    from autodiff.engine.errors import UnknownNameError, UsageError
    from autodiff.grammar.interpreter import Evaluation, Interpreter
    from autodiff.grammar.syntax import parse

    try:
        tree = parse(program)
        interpreter = Interpreter()
        interpreter.names.update(names)
        return interpreter.run(tree, Evaluation(tree)).root
    except (UsageError, UnknownNameError):
        with facade.installed():
            return _run_torch(facade, program, names)


def evaluate(lib: Any, program: str, names: dict[str, Any]) -> Any:
    """The program's output with `lib` (torch: as Python; the engine: through autodiff's interpreter)."""
    return _run_torch(lib, program, names) if lib.__name__ == "torch" else _run_engine(program, names)


def output_gradient(case_id: str, shape: tuple[int, ...]) -> np.ndarray:
    """The `gradient` given to backward: fixed nonzero weights, different per element (a sum hides errors)."""
    n = math.prod(shape)
    k = (np.arange(n) * 29 + zlib.crc32(case_id.encode())) % 17 - 8
    return (np.where(k == 0, 9, k) / 4.0).reshape(shape)


def _numpy(t: Any) -> np.ndarray:
    try:
        return np.array(t.detach().numpy(), copy=True)
    except RuntimeError:  # torch's ZeroTensor
        return np.array(t.detach().numpy(force=True), copy=True)


def run(lib: Any, c: PeerCase, canonical_graph: Any) -> dict:
    """Run a case: the output's value, dtype and graph, then every input's .grad (order 1) or the second
    derivatives (order 2: grad with create_graph, then backward of the weighted first derivatives).
    A failure is recorded as {"error": class name}."""
    leaves = [lib.tensor(x, dtype=getattr(lib, dt), requires_grad=rg)
              for x, dt, rg in zip(c.inputs, c.dtypes, c.requires_grad)]
    try:
        program = c.reference if c.reference is not None and lib.__name__ == "torch" else c.program
        out = evaluate(lib, program, dict(zip(c.names, leaves)))
    except Exception as error:  # the class of the failure is the record
        return {"error": type(error).__name__}
    result: dict[str, Any] = {"value": _numpy(out), "dtype": str(out.dtype).removeprefix("torch."),
                              "graph": canonical_graph(out.grad_fn, leaves) if out.grad_fn is not None else []}
    if not out.requires_grad:
        result["grads"] = [None] * len(leaves)
        return result
    gradient = lib.tensor(output_gradient(c.id, tuple(out.shape)), dtype=out.dtype)
    try:
        if c.order == 1:
            out.backward(gradient)
        else:
            wanted = [t for t in leaves if t.requires_grad]
            firsts = lib.autograd.grad(out, wanted, gradient, create_graph=True, allow_unused=True)
            total = sum((g * lib.tensor(output_gradient(f"{c.id}:{i}", tuple(g.shape)), dtype=g.dtype)).sum()
                        for i, g in enumerate(firsts) if g is not None and g.requires_grad)
            if isinstance(total, (int, float)):  # no first derivative depends on the inputs
                result["grads"] = [None] * len(leaves)
                return result
            total.backward()
    except Exception as error:
        return {**result, "error": type(error).__name__}
    result["grads"] = [None if t.grad is None else _numpy(t.grad) for t in leaves]
    return result


def load_tables() -> list[PeerCase]:
    """Every case of the three tables, in order (the table modules are loaded from files beside this one)."""
    import importlib.util

    _COUNTS.clear()
    cases: list[PeerCase] = []
    for filename in TABLES:
        name = "autodiff_peer_" + filename.removesuffix(".py")
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(filename))
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        cases.extend(module.table(sys.modules[__name__]).cases)
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate peer case ids")
    return cases


def fingerprint(c: PeerCase) -> str:
    """A checksum of what defines a case (its program, inputs, dtypes, flags, order)."""
    text = repr((c.program, [x.tolist() for x in c.inputs], c.dtypes, c.requires_grad, c.order,
                 c.reference))
    return f"{zlib.crc32(text.encode()):08x}"


# ---------------------------------------------------------------------------- comparing with PyTorch's record
NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
TOLERANCE = {"float64": (1e-9, 1e-11), "float32": (1e-5, 1e-6)}


def decode(value: Any, dtype: str) -> np.ndarray:
    def walk(v: Any) -> Any:
        if isinstance(v, list):
            return [walk(x) for x in v]
        return NON_FINITE.get(v, v) if isinstance(v, str) else v

    return np.array(walk(value), dtype=np.float64 if dtype.startswith("float") else None)


def _close(actual: np.ndarray, expected: np.ndarray, dtype: str) -> str | None:
    if actual.shape != expected.shape:
        return f"shape {actual.shape} != {expected.shape}"
    if actual.dtype == bool or expected.dtype == bool:
        return None if np.array_equal(actual, expected) else "values differ"
    rtol, atol = TOLERANCE.get(dtype, (0, 0))
    finite = expected[np.isfinite(expected)]
    scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
    actual = actual.astype(np.float64)
    if np.allclose(actual, expected, rtol=rtol, atol=atol * scale, equal_nan=True):
        return None
    worst = np.nanmax(np.abs(actual - expected)) if actual.size else 0.0
    return f"values differ (largest difference {worst:.3g})"


def differences(result: dict, golden: dict, shapes: list[tuple[int, ...]], graphs: bool = True) -> list[str]:
    """What differs between the engine's result and PyTorch's record (empty: they agree); graphs=False for a
    case whose PyTorch program is a reference definition."""
    if "error" in golden or "error" in result:
        if ("error" in golden) != ("error" in result):
            return [f"error: torch {golden.get('error')}, engine {result.get('error')}"]
        if "value" not in golden:  # both refused the program
            return []
    problems = []
    if "value" not in result:
        return ["engine gave no value"]
    if result["dtype"] != golden["dtype"]:
        problems.append(f"dtype {result['dtype']} != {golden['dtype']}")
    if (why := _close(result["value"], decode(golden["value"], golden["dtype"]).reshape(golden["shape"]),
                      golden["dtype"])):
        problems.append(f"value: {why}")
    if graphs and result["graph"] != golden["graph"]:
        problems.append(f"graph: {[n['name'] for n in result['graph']]} != {[n['name'] for n in golden['graph']]}")
    for i, (grad, expected, dtype) in enumerate(zip(result.get("grads", []), golden.get("grads", []),
                                                    golden.get("grad_dtypes", []))):
        if (grad is None) != (expected is None):
            problems.append(f"grad {i}: {'none' if grad is None else 'one'} where torch has "
                            f"{'none' if expected is None else 'one'}")
        elif grad is not None and (why := _close(grad, decode(expected, dtype).reshape(shapes[i]), dtype)):
            problems.append(f"grad {i}: {why}")
    return problems
