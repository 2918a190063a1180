"""Adadelta, Adamax, NAdam, RAdam, Rprop and ASGD against PyTorch's, step by step from the same parameters and
gradients (the helper of test_optim.py's comparisons): Rprop and ASGD bit for bit (no square root), the others
within a few ulps (PyTorch's CPU sqrt); options by position, state_dict()/load_state_dict() resuming the same
updates, and PyTorch's errors for bad options."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from autodiff import engine
from autodiff.engine.nn.module import parameter
from autodiff.engine.optim.catalog import OPTIMIZERS

torch = pytest.importorskip("torch")

EXACT = [("Rprop", {}), ("Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2), "maximize": True}),
         ("ASGD", {}), ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 20, "weight_decay": 0.1})]
SQRT_BASED = [("Adadelta", {}), ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
              ("Adamax", {}), ("Adamax", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1}),
              ("NAdam", {}), ("NAdam", {"lr": 0.01, "momentum_decay": 0.01, "weight_decay": 0.1}),
              ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
              ("RAdam", {}), ("RAdam", {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.1}),
              ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True, "maximize": True}),
              ("Adafactor", {}), ("Adafactor", {"lr": 0.05, "weight_decay": 0.1, "eps": (1e-20, 1e-3), "d": 2.0,
                                                "maximize": True})]


def _run(name, options, dtype, steps, shape=(5, 3)):
    """(PyTorch's parameters, ours) after each step, from the same start and the same gradients."""
    rng = np.random.default_rng(1)
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
@pytest.mark.parametrize(("name", "options"), EXACT)
def test_rprop_and_asgd_equal_pytorch_bit_for_bit(name, options, dtype):
    for step, (theirs, ours) in enumerate(_run(name, options, dtype, 100)):
        assert np.array_equal(theirs, ours), f"step {step}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("name", "options"), SQRT_BASED)
def test_sqrt_based_optimizers_stay_within_ulps_of_pytorch(name, options, dtype):
    ulp = np.finfo(dtype).eps
    for step, (theirs, ours) in enumerate(_run(name, options, dtype, 100)):
        assert np.allclose(ours, theirs, rtol=64 * ulp, atol=8 * ulp), f"step {step}"


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
                                  "Rprop", "ASGD", "Adafactor"])
def test_defaults_state_and_state_dict_are_pytorchs(name):
    ours = parameter(engine.ones(3))
    theirs = torch.nn.Parameter(torch.ones(3))
    our_opt, their_opt = OPTIMIZERS[name]([ours]), getattr(torch.optim, name)([theirs])
    assert our_opt.defaults == their_opt.defaults and list(our_opt.defaults) == list(their_opt.defaults)
    for _ in range(2):
        ours.grad, theirs.grad = engine.tensor([0.5, -1.0, 2.0]), torch.tensor([0.5, -1.0, 2.0])
        our_opt.step()
        their_opt.step()
    our_state, their_state = our_opt.state_dict(), their_opt.state_dict()
    assert our_state["param_groups"] == their_state["param_groups"]
    assert list(our_state["state"]) == list(their_state["state"])
    assert [list(s) for s in our_state["state"].values()] == [list(s) for s in their_state["state"].values()]
    for key, value in their_state["state"].get(0, {}).items():
        assert np.allclose(our_state["state"][0][key].numpy(), value.numpy(), rtol=1e-6), key
    resumed = parameter(engine.tensor(ours.numpy(force=True).copy()))
    again = OPTIMIZERS[name]([resumed])
    again.load_state_dict(copy.deepcopy(our_state))  # a copy: a loaded state's tensors are shared, as PyTorch's
    ours.grad = resumed.grad = engine.tensor([1.0, 1.0, -3.0])
    our_opt.step()
    again.step()
    assert resumed.tolist() == ours.tolist()


def test_options_by_position_are_pytorchs():
    p = parameter(engine.ones(1))
    assert OPTIMIZERS["SGD"]([p], 0.1, 0.9).defaults == torch.optim.SGD(
        [torch.nn.Parameter(torch.ones(1))], 0.1, 0.9).defaults
    with pytest.raises(TypeError, match=r"takes from 2 to 7 positional arguments but 8 were given"):
        OPTIMIZERS["SGD"]([p], 0.1, 0.9, 0, 0, False, 3)
    with pytest.raises(TypeError, match="got multiple values for argument 'lr'"):
        OPTIMIZERS["SGD"]([p], 0.1, lr=0.2)
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'betas'"):
        OPTIMIZERS["SGD"]([p], betas=(0.9, 0.99))


BAD = [("Adafactor", {"beta2_decay": 0.5}), ("Adafactor", {"eps": (-1, 1e-3)}), ("Adafactor", {"d": 0.5}),
       ("Adadelta", {"rho": 1.5}), ("Adadelta", {"eps": -1}), ("Adamax", {"betas": (1.0, 0.9)}),
       ("NAdam", {"momentum_decay": -1}), ("RAdam", {"weight_decay": -0.1}), ("Rprop", {"etas": (1.5, 2)}),
       ("ASGD", {"lr": -1}), ("Adam", {"eps": -1}), ("SGD", {"weight_decay": -1}), ("Adagrad", {"lr_decay": -1}),
       ("RMSprop", {"alpha": -1}), ("Adam", {"lr": "a"}), ("SGD", {"lr": "a"})]


@pytest.mark.parametrize(("name", "options"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_bad_options_raise_pytorchs_errors(name, options):
    with pytest.raises(Exception) as their_error:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(1))], **options)
    with pytest.raises(their_error.type) as our_error:
        OPTIMIZERS[name]([parameter(engine.ones(1))], **options)
    assert str(our_error.value) == str(their_error.value)


def _lbfgs(make, cls, options, dtype, rosenbrock):
    """The loss and parameters after each of 4 steps of LBFGS on a small problem."""
    x = make(np.array([-1.2, 1.0, 0.5], dtype))
    opt = cls([x], **options)
    target = make(np.array([0.3, -0.7, 2.0], dtype))

    def closure():
        opt.zero_grad()
        if rosenbrock:
            loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2 + (x[2] - x[1]) ** 2
        else:
            loss = ((x - target) ** 2 * make(np.array([1.0, 4.0, 9.0], dtype))).sum() + (x[0] * x[1]) ** 2
        loss.backward()
        return loss

    out = []
    for _ in range(4):
        loss = opt.step(closure)
        out.append((float(loss.detach()), np.array(x.tolist())))
    return out


LBFGS_OPTIONS = [{}, {"line_search_fn": "strong_wolfe"}, {"lr": 0.5, "history_size": 3, "max_iter": 7},
                 {"line_search_fn": "strong_wolfe", "history_size": 2, "max_iter": 4, "tolerance_change": 1e-5}]


@pytest.mark.parametrize(("dtype", "rosenbrock"), [(np.float32, False), (np.float64, False), (np.float64, True)])
@pytest.mark.parametrize("options", LBFGS_OPTIONS)
def test_lbfgs_follows_pytorch(options, dtype, rosenbrock):
    """Bit for bit for the first iterations; BLAS's dot products then differ in the last bits (Rosenbrock's valley
    amplifies them in float32, so float32 is compared on a well-conditioned problem)."""
    ours = _lbfgs(lambda a: parameter(engine.tensor(a)), OPTIMIZERS["LBFGS"], options, dtype, rosenbrock)
    theirs = _lbfgs(lambda a: torch.nn.Parameter(torch.from_numpy(a)), torch.optim.LBFGS, options, dtype, rosenbrock)
    rtol = 1e-4 if dtype == np.float32 else 1e-7
    for (our_loss, our_x), (their_loss, their_x) in zip(ours, theirs):
        assert np.allclose(our_x, their_x, rtol=rtol, atol=rtol * 1e-2)
        assert np.isclose(our_loss, their_loss, rtol=rtol, atol=rtol * 1e-2)


def test_lbfgs_errors_are_pytorchs():
    p, q = parameter(engine.ones(1)), parameter(engine.ones(1))
    with pytest.raises(ValueError, match=r"LBFGS doesn't support per-parameter options \(parameter groups\)"):
        OPTIMIZERS["LBFGS"]([{"params": [p]}, {"params": [q]}])
    opt = OPTIMIZERS["LBFGS"]([p], line_search_fn="backtracking")
    p.grad = engine.ones(1)
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(lambda: (p * 2).sum())
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'closure'"):
        opt.step()
    assert OPTIMIZERS["LBFGS"]([q], max_iter=8).defaults == torch.optim.LBFGS(
        [torch.nn.Parameter(torch.ones(1))], max_iter=8).defaults


def test_named_parameters_and_adagrads_state_at_construction_are_pytorchs():
    from autodiff.engine import facade

    facade.manual_seed(0)
    our_model = facade.nn.Linear(2, 1)
    torch.manual_seed(0)
    their_model = torch.nn.Linear(2, 1)
    ours = OPTIMIZERS["Adagrad"](our_model.named_parameters(), lr=0.1, initial_accumulator_value=0.5)
    theirs = torch.optim.Adagrad(their_model.named_parameters(), lr=0.1, initial_accumulator_value=0.5)
    our_state, their_state = ours.state_dict(), theirs.state_dict()
    assert our_state["param_groups"] == their_state["param_groups"]
    assert our_state["param_groups"][0]["param_names"] == ["weight", "bias"]
    assert {k: sorted(v) for k, v in our_state["state"].items()} == {k: sorted(v) for k, v in
                                                                    their_state["state"].items()}
    assert our_state["state"][0]["sum"].tolist() == their_state["state"][0]["sum"].tolist()
    with pytest.raises(ValueError, match="Some param names are missing"):
        OPTIMIZERS["SGD"]([("w", parameter(engine.ones(1))), parameter(engine.ones(1))])
    with pytest.raises(ValueError, match="cannot add param group without names to the optimizer"):
        ours.add_param_group({"params": [parameter(engine.ones(1))]})


@pytest.mark.parametrize("name", ["SGD", "LBFGS"])
def test_step_hooks_are_pytorchs(name):
    def calls(opt, param, lib):
        seen = []
        pre = opt.register_step_pre_hook(lambda o, args, kwargs: seen.append(("pre", type(o).__name__, len(args))))
        opt.register_step_post_hook(lambda o, args, kwargs: seen.append(("post", len(args), sorted(kwargs))))

        def closure():
            opt.zero_grad()
            loss = (param * param).sum()
            loss.backward()
            return loss

        opt.step(closure)
        pre.remove()
        opt.step(closure=closure)
        opt.register_step_pre_hook(lambda o, args, kwargs: ((o,), {"closure": closure}))
        opt.step()
        return seen, param.tolist()

    ours = parameter(engine.tensor([1.0, -2.0]))
    theirs = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    our_seen, our_values = calls(OPTIMIZERS[name]([ours], lr=0.1), ours, engine)
    their_seen, their_values = calls(getattr(torch.optim, name)([theirs], lr=0.1), theirs, torch)
    assert our_seen == their_seen
    assert np.allclose(our_values, their_values, rtol=1e-6)


def test_lbfgs_state_is_pytorchs_kinds():
    """LBFGS's state holds tensors where PyTorch's does (so torch.save can keep its state_dict)."""
    states = []
    for lib, make in ((engine, lambda a: parameter(engine.tensor(a))),
                      (torch, lambda a: torch.nn.Parameter(torch.tensor(a)))):
        x = make([1.0, -2.0, 0.5])
        opt = (OPTIMIZERS["LBFGS"] if lib is engine else torch.optim.LBFGS)([x], history_size=3, max_iter=5)

        def closure(opt=opt, x=x, make=make):
            opt.zero_grad()
            loss = ((x - make([0.5, 0.5, 0.5])) ** 4).sum()
            loss.backward()
            return loss

        opt.step(closure)
        opt.step(closure)
        state = opt.state_dict()["state"][0]
        states.append({k: (type(v).__name__, len(v) if isinstance(v, list) else None) for k, v in state.items()})
        states.append(sorted({type(v).__name__ for v in state["old_dirs"] + state["ro"] + state["al"]}))
    assert states[0] == states[2]
    assert states[1] == states[3]


@pytest.mark.parametrize("shape", [(7,), (2, 3, 4)])
def test_adafactor_of_a_vector_and_of_a_stack_of_matrices(shape):
    for step, (theirs, ours) in enumerate(_run("Adafactor", {"lr": 0.02}, np.float32, 50, shape)):
        assert np.allclose(ours, theirs, rtol=1e-5, atol=1e-7), f"step {step}"
