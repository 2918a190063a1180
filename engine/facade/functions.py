"""Which of the engine's built-ins are torch.NAME, and the constructors' keywords of PyTorch (device=,
pin_memory=, layout=, out= is not taken) that the engine's own constructors do not need."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from autodiff.engine import BUILTINS
from autodiff.engine.core.devices import check_device

# Built-ins that PyTorch has only as methods (x.view), only in torch.nn.functional or torch.linalg, or not at all
# (the calculus vocabulary of `autodiff eval`: ln, sec, cbrt, ...)
NOT_AT_TORCH = frozenset((
    "view", "expand", "to", "repeat", "expand_as", "vector_norm", "eigh", "eigvalsh", "svdvals",
    "linalg_cross", "matrix_norm", "linalg_cholesky", "solve_triangular", "linalg_qr",  # torch.linalg only
    "multi_dot", "cond", "matrix_rank", "vander",
    "ln", "sec", "csc", "cot", "asec", "arcsec", "acsc", "arccsc", "acot", "arccot", "cbrt",
    "leaky_relu", "elu", "gelu", "silu", "mish", "softplus", "hardtanh", "relu6", "hardsigmoid", "hardswish",
    "logsigmoid", "softsign", "softmin", "normalize", "linear", "mse_loss", "l1_loss", "binary_cross_entropy",
    "nll_loss", "cross_entropy", "smooth_l1_loss", "huber_loss", "pad", "avg_pool2d",
    # torch.batch_norm takes (input, weight, bias, running_mean, running_var, ...), torch.embedding (weight,
    # indices): not F's order
    "batch_norm", "embedding",
    "unfold",  # Tensor.unfold only (torch.nn.functional.unfold is im2col)
    "i1", "special_entr", "special_ndtri", "special_log_ndtr", "special_ndtr", "special_erfcx",  # torch.special's
    # torch.nn.functional only (the nn-layers work)
    "adaptive_avg_pool2d", "adaptive_max_pool2d", "softshrink", "tanhshrink", "glu", "gaussian_nll_loss",
    "soft_margin_loss", "interpolate", "upsample", "scaled_dot_product_attention",
    # torch.NAME of another signature (reduction as an int, instance_norm's order) or result (a pair)
    "adaptive_max_pool1d", "instance_norm", "kl_div", "poisson_nll_loss", "margin_ranking_loss",
    "cosine_embedding_loss", "triplet_margin_loss",
))
# The constructors, which take PyTorch's device= (the CPU only), pin_memory= and layout= too
CONSTRUCTORS = frozenset((
    "tensor", "ones", "zeros", "empty", "full", "rand", "randn", "randint", "randperm", "arange", "linspace",
    "logspace", "eye", "ones_like", "zeros_like", "empty_like", "full_like", "rand_like", "randn_like",
    "randint_like", "normal", "range",
))


def on_the_cpu(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn taking PyTorch's device= (checked: the CPU), pin_memory= and layout= (ignored) as well."""

    @functools.wraps(fn)
    def constructor(*args: Any, device: Any = None, pin_memory: bool = False, layout: Any = None,
                    **kwargs: Any) -> Any:
        check_device(device)
        return fn(*args, **kwargs)

    return constructor


def torch_functions() -> dict[str, Callable[..., Any]]:
    """torch.NAME for every built-in PyTorch has at the top of its namespace."""
    return {name: on_the_cpu(entry.fn) if name in CONSTRUCTORS else entry.fn
            for name, entry in BUILTINS.items() if name not in NOT_AT_TORCH}


def functional_functions() -> dict[str, Callable[..., Any]]:
    """torch.nn.functional.NAME: the built-ins declared as its members."""
    return {name: entry.fn for name, entry in BUILTINS.items() if entry.functional}
