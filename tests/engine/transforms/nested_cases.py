"""Nested torch.func transforms (jacfwd(jacfwd(f)), jvp inside jvp, hessian of jacfwd...), written once for either
library: `run(func, lib, case)` gives the result's arrays. tests/make_nested_golden.py records PyTorch's answers in
golden/nested.json; test_nested.py compares the engine with them (and with torch itself when it is installed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np


class Case(NamedTuple):
    id: str
    build: Callable[[Any, Any], Callable[..., Any]]  # (torch.func-like, torch-like) -> the transformed function
    inputs: tuple


X3 = np.array([0.3, -1.2, 0.7])
X4 = np.array([0.5, -0.25, 1.5, 0.8])
M22 = np.array([[0.6, -0.4], [1.1, 0.2]])
V3 = np.array([1.0, 2.0, -1.0])


def _vec(lib: Any) -> Callable:
    return lambda x: lib.sin(x) * x.exp() + (x ** 3).sum()


def _scalar(lib: Any) -> Callable:
    return lambda x: (x.tanh() * x).sum() + x.prod()


def _soft(lib: Any) -> Callable:
    return lambda x: x.softmax(0) * x.cos()


def _mat(lib: Any) -> Callable:
    return lambda m: (m @ m.T).sin() + m.exp().sum(0)


def _norm(lib: Any) -> Callable:
    return lambda x: x.norm() * lib.log1p(x ** 2)


def _pair(lib: Any) -> Callable:
    return lambda x, y: (x.sin() * y.cos()).sum() * (x * y).sum()


def _jvp_inner(F: Any, lib: Any, f: Callable) -> Callable:
    return lambda x: F.jvp(f, (x,), (x.cos(),))[1]


def _cases() -> list[Case]:
    fns = {"vec": (_vec, X3), "soft": (_soft, X4), "mat": (_mat, M22), "norm": (_norm, X3)}
    out = []
    for name, (make, x) in fns.items():
        out += [Case(f"jacfwd_jacfwd_{name}", lambda F, L, m=make: F.jacfwd(F.jacfwd(m(L))), (x,)),
                Case(f"jacfwd_jacrev_{name}", lambda F, L, m=make: F.jacfwd(F.jacrev(m(L))), (x,)),
                Case(f"jacrev_jacfwd_{name}", lambda F, L, m=make: F.jacrev(F.jacfwd(m(L))), (x,)),
                Case(f"jacrev_jacrev_{name}", lambda F, L, m=make: F.jacrev(F.jacrev(m(L))), (x,)),
                Case(f"hessian_jacfwd_{name}", lambda F, L, m=make: F.hessian(F.jacfwd(m(L))), (x,)),
                Case(f"jacfwd_jvp_{name}", lambda F, L, m=make: F.jacfwd(_jvp_inner(F, L, m(L))), (x,))]
    out += [
        Case("hessian_scalar", lambda F, L: F.hessian(_scalar(L)), (X4,)),
        Case("hessian_of_jacfwd_sum", lambda F, L: F.hessian(lambda x: F.jacfwd(_scalar(L))(x).sum()), (X4,)),
        Case("jacfwd_jacfwd_jacfwd", lambda F, L: F.jacfwd(F.jacfwd(F.jacfwd(_scalar(L)))), (X3,)),
        Case("jacfwd_grad", lambda F, L: F.jacfwd(F.grad(_scalar(L))), (X4,)),
        Case("grad_of_jvp", lambda F, L: F.grad(lambda x: _jvp_inner(F, L, _vec(L))(x).sum()), (X3,)),
        Case("jvp_jvp", lambda F, L: lambda x, v: F.jvp(_jvp_inner(F, L, _vec(L)), (x,), (v,)), (X3, V3)),
        Case("jvp_jvp_scalar", lambda F, L: lambda x, v: F.jvp(lambda y: F.jvp(_scalar(L), (y,), (v,))[1], (x,),
                                                               (v * 2,)), (X3, V3)),
        Case("jvp_of_jacfwd", lambda F, L: lambda x, v: F.jvp(F.jacfwd(_soft(L)), (x,), (v,)), (X4, X4[::-1].copy())),
        Case("jacfwd_jacfwd_argnums", lambda F, L: F.jacfwd(F.jacfwd(_pair(L), argnums=1), argnums=(0, 1)), (X3, V3)),
        Case("jacfwd_jacfwd_f32", lambda F, L: F.jacfwd(F.jacfwd(_vec(L))), (X3.astype(np.float32),)),
    ]
    return out


CASES = _cases()


def run(F: Any, lib: Any, case: Case, to_numpy: Callable[[Any], np.ndarray]) -> list:
    """The result's tensors, flattened (tuples of tuples in order), as numpy arrays."""
    args = [lib.tensor(x) for x in case.inputs]
    result = case.build(F, lib)(*args)
    pending, arrays = [result], []
    while pending:
        item = pending.pop(0)
        if isinstance(item, (tuple, list)):
            pending[:0] = list(item)
        else:
            arrays.append(to_numpy(item))
    return arrays
