"""torch.optim's updates against PyTorch's, step by step, from the same parameters and the same gradients.

SGD (every option) must equal PyTorch bit for bit for 300 steps in float32 and float64. Adam, AdamW, RMSprop and
Adagrad follow the same formulas and roundings, except the square root: PyTorch's CPU sqrt (Intel MKL's) is
within one unit in the last place of numpy's exact one, so they stay within a few float32 (float64) ulps of
PyTorch's. Also: param_groups, state, zero_grad and StepLR as PyTorch keeps them."""

from __future__ import annotations

import numpy as np
import pytest

from autodiff import engine
from autodiff.engine.nn.module import parameter
from autodiff.engine.optim.catalog import OPTIMIZERS
from autodiff.engine.optim.schedulers import StepLR

torch = pytest.importorskip("torch")

SGD = [{"lr": 0.1}, {"lr": 0.05, "momentum": 0.9},
       {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01},
       {"lr": 0.02, "momentum": 0.5, "dampening": 0.3, "maximize": True}, {"lr": 1e-3, "weight_decay": 0.5}]
SQRT_BASED = [("Adam", {"lr": 0.01}), ("Adam", {"lr": 0.01, "betas": (0.8, 0.9), "amsgrad": True, "weight_decay": 0.1}),
              ("AdamW", {"lr": 0.01}), ("AdamW", {"lr": 0.05, "amsgrad": True, "maximize": True}),
              ("RMSprop", {"lr": 0.01}),
              ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
              ("Adagrad", {"lr": 0.1}), ("Adagrad", {"lr": 0.1, "lr_decay": 0.01, "weight_decay": 0.1,
                                                    "initial_accumulator_value": 0.1})]


def _run(name: str, options: dict, dtype: type, steps: int, shape: tuple[int, ...] = (5, 3)):
    """(PyTorch's parameters, ours) after each step, from the same start and the same gradients."""
    rng = np.random.default_rng(0)
    start = rng.standard_normal(shape).astype(dtype)
    theirs = torch.nn.Parameter(torch.from_numpy(start.copy()))
    ours = parameter(engine.tensor(start.copy()))
    their_opt = getattr(torch.optim, name)([theirs], **options)
    our_opt = OPTIMIZERS[name]([ours], **options)
    for _ in range(steps):
        grad = rng.standard_normal(shape).astype(dtype)
        theirs.grad, ours.grad = torch.from_numpy(grad.copy()), engine.tensor(grad.copy())
        their_opt.step()
        our_opt.step()
        yield theirs.detach().numpy(), ours.numpy(force=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("options", SGD)
def test_sgd_equals_pytorch_bit_for_bit(options, dtype):
    for step, (theirs, ours) in enumerate(_run("SGD", options, dtype, 300)):
        assert np.array_equal(theirs, ours), f"step {step}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("name", "options"), SQRT_BASED)
def test_adaptive_optimizers_stay_within_ulps_of_pytorch(name, options, dtype):
    ulp = np.finfo(dtype).eps
    for step, (theirs, ours) in enumerate(_run(name, options, dtype, 300)):
        assert np.allclose(ours, theirs, rtol=64 * ulp, atol=8 * ulp), f"step {step}"


def test_param_groups_state_and_printing_are_pytorchs():
    p = parameter(engine.ones(2))
    q = parameter(engine.ones(2))
    opt = OPTIMIZERS["SGD"]([{"params": [p]}, {"params": q, "lr": 0.5}], lr=0.1, momentum=0.9)
    their = torch.optim.SGD([{"params": [torch.nn.Parameter(torch.ones(2))]},
                             {"params": torch.nn.Parameter(torch.ones(2)), "lr": 0.5}], lr=0.1, momentum=0.9)
    assert repr(opt) == repr(their)
    assert [list(g) for g in opt.param_groups] == [list(g) for g in their.param_groups]
    p.grad = engine.ones(2)
    opt.step()
    assert list(opt.state[p]) == ["momentum_buffer"] and q not in opt.state
    opt.zero_grad()
    assert p.grad is None
    p.grad = engine.ones(2)
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]


def test_steplr_follows_pytorch():
    ours = OPTIMIZERS["Adam"]([parameter(engine.ones(1))], lr=0.1)
    theirs = torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1)
    our_schedule = StepLR(ours, step_size=3, gamma=0.5)
    their_schedule = torch.optim.lr_scheduler.StepLR(theirs, step_size=3, gamma=0.5)
    for _ in range(10):
        assert our_schedule.get_last_lr() == their_schedule.get_last_lr()
        ours.step()
        theirs.step()
        our_schedule.step()
        their_schedule.step()
    assert ours.param_groups[0]["lr"] == theirs.param_groups[0]["lr"]


@pytest.mark.parametrize(("options", "message"), [({"lr": -1}, "Invalid learning rate"),
                                                  ({"lr": 0.1, "momentum": -0.5}, "Invalid momentum"),
                                                  ({"lr": 0.1, "nesterov": True}, "Nesterov momentum")])
def test_bad_options_are_value_errors(options, message):
    with pytest.raises(ValueError, match=message):
        OPTIMIZERS["SGD"]([parameter(engine.ones(1))], **options)
    with pytest.raises(ValueError, match="empty parameter list"):
        OPTIMIZERS["SGD"]([], lr=0.1)


@pytest.mark.parametrize("options", [{"lr": 0.1}, {"lr": 0.03, "maximize": True}, {"lr": 0.05, "momentum": 0.9}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_over_several_parameters_equals_pytorch_bit_for_bit(options, dtype):
    """Plain float32 SGD updates a group's parameters as one flat array (SGD.update_group): still PyTorch's bits,
    parameter by parameter, with a parameter left without a gradient in between."""
    rng = np.random.default_rng(3)
    shapes = [(30, 200), (200,), (4, 1), (), (27,)]
    starts = [np.asarray(rng.standard_normal(shape), dtype) for shape in shapes]
    theirs = [torch.nn.Parameter(torch.from_numpy(s.copy())) for s in starts]
    ours = [parameter(engine.tensor(s.copy())) for s in starts]
    their_opt, our_opt = torch.optim.SGD(theirs, **options), OPTIMIZERS["SGD"](ours, **options)
    for step in range(100):
        for i, (t, o) in enumerate(zip(theirs, ours)):
            if i == 2 and step % 3 == 0:
                t.grad = o.grad = None
                continue
            grad = np.asarray(rng.standard_normal(shapes[i]) * 10.0 ** rng.integers(-6, 3), dtype)
            t.grad, o.grad = torch.from_numpy(grad.copy()), engine.tensor(grad.copy())
        their_opt.step()
        our_opt.step()
        for t, o in zip(theirs, ours):
            assert o.detach().numpy().tobytes() == t.detach().numpy().tobytes(), step
