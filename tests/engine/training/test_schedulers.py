"""torch.optim.lr_scheduler against PyTorch's: the learning rates (and momentums) after every step() equal to
PyTorch's exactly (its arithmetic is Python floats), the same state_dict(), load_state_dict() resuming the same
schedule, PyTorch's warnings and its exceptions for bad arguments."""

from __future__ import annotations

import math
import warnings

import pytest

from autodiff.engine.facade import optim as our_optim
from autodiff.engine.facade import tensor as our_tensor
from autodiff.engine.nn.module import parameter

torch = pytest.importorskip("torch")


def _optimizers(name: str = "SGD", **options):
    """(ours, PyTorch's): two parameter groups with different learning rates."""
    options = {"lr": 0.1, **options}
    ours = getattr(our_optim, name)([{"params": [parameter(our_tensor([1.0, 2.0]))]},
                                     {"params": [parameter(our_tensor([3.0]))], "lr": 0.03}], **options)
    theirs = getattr(torch.optim, name)([{"params": [torch.nn.Parameter(torch.tensor([1.0, 2.0]))]},
                                         {"params": [torch.nn.Parameter(torch.tensor([3.0]))], "lr": 0.03}], **options)
    return ours, theirs


def _scaled(epoch):
    return 0.95**epoch


class _Halving:
    """A callable object: its attributes are in LambdaLR's state_dict()."""

    def __init__(self):
        self.factor = 0.5

    def __call__(self, epoch):
        return self.factor if epoch % 3 == 2 else 1.0


# (scheduler, its options, the optimizer and its options, steps); lambdas stand for schedulers of schedulers
CASES = [
    ("StepLR", {"step_size": 3, "gamma": 0.5}, ("SGD", {}), 12),
    ("MultiStepLR", {"milestones": [2, 5, 5, 9], "gamma": 0.3}, ("SGD", {}), 12),
    ("ConstantLR", {"factor": 0.25, "total_iters": 4}, ("SGD", {}), 8),
    ("LinearLR", {"start_factor": 0.1, "end_factor": 0.9, "total_iters": 7}, ("SGD", {}), 10),
    ("ExponentialLR", {"gamma": 0.9}, ("Adam", {}), 10),
    ("PolynomialLR", {"total_iters": 6, "power": 2.0}, ("SGD", {}), 9),
    ("CosineAnnealingLR", {"T_max": 5, "eta_min": 0.001}, ("SGD", {}), 23),
    ("LambdaLR", {"lr_lambda": _scaled}, ("SGD", {}), 6),
    ("LambdaLR", {"lr_lambda": [_scaled, lambda e: 1 / (e + 1)]}, ("SGD", {}), 6),
    ("MultiplicativeLR", {"lr_lambda": _scaled}, ("SGD", {}), 6),
    ("CosineAnnealingWarmRestarts", {"T_0": 3, "T_mult": 2, "eta_min": 0.01}, ("SGD", {}), 25),
    ("CosineAnnealingWarmRestarts", {"T_0": 4}, ("SGD", {}), 10),
    ("CyclicLR", {"base_lr": 0.01, "max_lr": [0.1, 0.2], "step_size_up": 3}, ("SGD", {"momentum": 0.9}), 14),
    ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "step_size_down": 3, "mode": "triangular2"},
     ("Adam", {}), 16),
    ("CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "mode": "exp_range", "gamma": 0.9,
                  "cycle_momentum": False}, ("SGD", {}), 11),
    ("OneCycleLR", {"max_lr": 0.5, "total_steps": 12}, ("SGD", {"momentum": 0.9}), 12),
    ("OneCycleLR", {"max_lr": [0.5, 0.2], "epochs": 2, "steps_per_epoch": 5, "anneal_strategy": "linear",
                    "three_phase": True}, ("Adam", {}), 10),
    ("SequentialLR", lambda lrs, opt: {"schedulers": [lrs.ConstantLR(opt, factor=0.5, total_iters=2),
                                                      lrs.ExponentialLR(opt, gamma=0.8)], "milestones": [3]},
     ("SGD", {}), 9),
    ("ChainedScheduler", lambda lrs, opt: {"schedulers": [lrs.ConstantLR(opt, factor=0.5, total_iters=2),
                                                          lrs.ExponentialLR(opt, gamma=0.8)]}, ("SGD", {}), 6),
]


def _make(lrs, name, options, opt):
    options = options(lrs, opt) if callable(options) else options
    if name == "ChainedScheduler":
        return lrs.ChainedScheduler(options["schedulers"], opt)
    return getattr(lrs, name)(opt, **options)


def _momentums(opt):
    return [(g.get("momentum"), g.get("betas")) for g in opt.param_groups]


@pytest.mark.parametrize(("name", "options", "optimizer", "steps"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_rates_after_every_step_are_pytorchs(name, options, optimizer, steps):
    ours, theirs = _optimizers(optimizer[0], **optimizer[1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        our_schedule = _make(our_optim.lr_scheduler, name, options, ours)
        their_schedule = _make(torch.optim.lr_scheduler, name, options, theirs)
        for step in range(steps):
            assert our_schedule.get_last_lr() == their_schedule.get_last_lr(), f"step {step}"
            assert [g["lr"] for g in ours.param_groups] == [g["lr"] for g in theirs.param_groups]
            assert _momentums(ours) == _momentums(theirs), f"step {step}"
            ours.step()
            theirs.step()
            our_schedule.step()
            their_schedule.step()
    assert our_schedule.get_last_lr() == their_schedule.get_last_lr()
    assert our_schedule.last_epoch == their_schedule.last_epoch if hasattr(their_schedule, "last_epoch") else True


def _comparable(state):
    """A state_dict without its functions (PyTorch's and ours are different objects)."""
    if isinstance(state, dict):
        return {k: _comparable(v) for k, v in state.items() if not callable(v)}
    if isinstance(state, list):
        return [_comparable(v) for v in state]
    return state


@pytest.mark.parametrize("index", [0, 1, 6, 7, 9, 10, 12, 15, 17, 18])
def test_state_dict_is_pytorchs_and_resumes(index):
    name, options, optimizer, _ = CASES[index]
    if name in ("LambdaLR", "MultiplicativeLR"):
        options = {"lr_lambda": _Halving()}
    ours, theirs = _optimizers(optimizer[0], **optimizer[1])
    our_schedule = _make(our_optim.lr_scheduler, name, options, ours)
    their_schedule = _make(torch.optim.lr_scheduler, name, options, theirs)
    for _ in range(4):
        ours.step()
        theirs.step()
        our_schedule.step()
        their_schedule.step()
    saved = our_schedule.state_dict()
    assert list(_comparable(saved)) == list(_comparable(their_schedule.state_dict()))
    assert _comparable(saved) == _comparable(their_schedule.state_dict())
    resumed = _optimizers(optimizer[0], **optimizer[1])[0]
    again = _make(our_optim.lr_scheduler, name, options, resumed)
    resumed.load_state_dict(ours.state_dict())
    again.load_state_dict(saved)
    assert resumed.param_groups[1]["lr"] == ours.param_groups[1]["lr"]
    for _ in range(3):
        our_schedule.step()
        again.step()
        assert again.get_last_lr() == our_schedule.get_last_lr()


def test_reduce_lr_on_plateau_follows_the_metric_as_pytorch():
    losses = [1.0, 0.9, 0.95, 0.91, 0.92, 0.93, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2]
    for options in ({"patience": 2, "factor": 0.5}, {"mode": "max", "threshold_mode": "abs", "patience": 1,
                                                      "cooldown": 2, "min_lr": [0.02, 0.001]}):
        ours, theirs = _optimizers()
        our_schedule = our_optim.lr_scheduler.ReduceLROnPlateau(ours, **options)
        their_schedule = torch.optim.lr_scheduler.ReduceLROnPlateau(theirs, **options)
        for loss in losses:
            our_schedule.step(our_tensor(loss))
            their_schedule.step(torch.tensor(loss))
            assert our_schedule.get_last_lr() == their_schedule.get_last_lr()
            assert (our_schedule.num_bad_epochs, our_schedule.best) == (their_schedule.num_bad_epochs,
                                                                        their_schedule.best)
        assert our_schedule.state_dict() == their_schedule.state_dict()


def _warned(make, calls):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        calls(make())
    return [str(w.message) for w in caught]


@pytest.mark.parametrize("order", ["scheduler first", "optimizer first", "epoch given", "get_lr outside"])
def test_warnings_are_pytorchs(order):
    def calls(pair):
        opt, schedule = pair
        if order == "scheduler first":
            schedule.step()
        elif order == "optimizer first":
            opt.step()
            schedule.step()
        elif order == "epoch given":
            opt.step()
            schedule.step(3)
        else:
            schedule.get_lr()

    def ours():
        opt = _optimizers()[0]
        return opt, our_optim.lr_scheduler.StepLR(opt, 2)

    def theirs():
        opt = _optimizers()[1]
        return opt, torch.optim.lr_scheduler.StepLR(opt, 2)

    assert _warned(ours, calls) == _warned(theirs, calls)


BAD = [("ConstantLR", {"factor": 2.0}), ("LinearLR", {"start_factor": 0}), ("LinearLR", {"end_factor": 1.5}),
       ("CosineAnnealingWarmRestarts", {"T_0": 0}), ("CosineAnnealingWarmRestarts", {"T_0": 2, "T_mult": 0}),
       ("OneCycleLR", {"max_lr": 0.1}), ("OneCycleLR", {"max_lr": 0.1, "total_steps": 5, "pct_start": 1}),
       ("OneCycleLR", {"max_lr": 0.1, "total_steps": 5, "anneal_strategy": "exp"}),
       ("OneCycleLR", {"max_lr": [0.1], "total_steps": 5}), ("CyclicLR", {"base_lr": 0.1, "max_lr": 1, "mode": "x"}),
       ("ReduceLROnPlateau", {"factor": 1.0}), ("ReduceLROnPlateau", {"mode": "avg"}),
       ("LambdaLR", {"lr_lambda": [_scaled]}), ("MultiplicativeLR", {"lr_lambda": 3}),
       ("SequentialLR", {"schedulers": [], "milestones": []})]


@pytest.mark.parametrize(("name", "options"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_arguments_raise_pytorchs_exceptions(name, options):
    ours, theirs = _optimizers()
    with pytest.raises(Exception) as their_error:
        getattr(torch.optim.lr_scheduler, name)(theirs, **options)
    with pytest.raises(their_error.type) as our_error:
        getattr(our_optim.lr_scheduler, name)(ours, **options)
    assert str(our_error.value) == str(their_error.value)


def test_not_an_optimizer_and_stepping_past_the_end():
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        our_optim.lr_scheduler.StepLR([], 2)
    ours, theirs = _optimizers()
    our_schedule = our_optim.lr_scheduler.OneCycleLR(ours, max_lr=0.1, total_steps=2)
    their_schedule = torch.optim.lr_scheduler.OneCycleLR(theirs, max_lr=0.1, total_steps=2)
    ours.step()
    theirs.step()
    our_schedule.step()
    their_schedule.step()
    with pytest.raises(ValueError) as their_error:
        their_schedule.step()
        their_schedule.step()
    with pytest.raises(ValueError) as our_error:
        our_schedule.step()
        our_schedule.step()
    assert str(our_error.value) == str(their_error.value)
    assert isinstance(our_optim.lr_scheduler.StepLR(ours, 2), our_optim.lr_scheduler.LRScheduler)
    assert issubclass(our_optim.lr_scheduler._LRScheduler, our_optim.lr_scheduler.LRScheduler)
    assert math.isclose(ours.param_groups[0]["initial_lr"], theirs.param_groups[0]["initial_lr"])


@pytest.mark.parametrize("name", ["StepLR", "CosineAnnealingLR", "LambdaLR", "CyclicLR"])
def test_a_group_added_after_the_scheduler_as_pytorch(name):
    options = {"StepLR": {"step_size": 1}, "CosineAnnealingLR": {"T_max": 3}, "LambdaLR": {"lr_lambda": _scaled},
               "CyclicLR": {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "cycle_momentum": False}}[name]
    outcomes = []
    for lib, opt, new in ((our_optim, _optimizers()[0], parameter(our_tensor([1.0]))),
                          (torch.optim, _optimizers()[1], torch.nn.Parameter(torch.tensor([1.0])))):
        schedule = getattr(lib.lr_scheduler, name)(opt, **options)
        opt.add_param_group({"params": [new], "lr": 0.5})
        opt.step()
        try:
            schedule.step()
            outcomes.append(schedule.get_last_lr())
        except ValueError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("index", [0, 1, 2, 3, 4, 5, 6, 10, 11])
def test_step_with_an_epoch_uses_pytorchs_closed_forms(index):
    name, options, optimizer, _ = CASES[index]
    ours, theirs = _optimizers(optimizer[0], **optimizer[1])
    our_schedule = _make(our_optim.lr_scheduler, name, options, ours)
    their_schedule = _make(torch.optim.lr_scheduler, name, options, theirs)
    epochs = [3, 7, 1, 12, 5.5, 0, 9] if name == "CosineAnnealingWarmRestarts" else [3, 7, 1, 12, 0, 9]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in epochs:
            ours.step()
            theirs.step()
            our_schedule.step(epoch)
            their_schedule.step(epoch)
            assert our_schedule.get_last_lr() == their_schedule.get_last_lr(), epoch
            assert our_schedule.last_epoch == their_schedule.last_epoch
