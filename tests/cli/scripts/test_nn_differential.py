"""Random small models trained by `autodiff run` and by PyTorch: layers (Linear, Bilinear, activations, Dropout), a
script's nn.Module subclass or nn.Sequential, losses, optimizers (with their options) and learning rates, a
few steps; every printed loss, parameter and gradient must agree.

Text is compared exactly once the numbers and spaces are taken out (a column of a printed
tensor is one wider for PyTorch's -0.0000, where its BLAS keeps the sign of a zero); the numbers to PyTorch's
precision: float64 runs
to 1e-9 relative, float32 runs to 1e-4 (numpy's and PyTorch's BLAS and reductions sum in different orders,
which moves float32's last bits), both with 2e-4 absolute for the 4 decimals of a printed tensor.

Budget: AUTODIFF_NN_EXAMPLES (default 24). Needs torch (skipped without it).
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")


from scripting import run_script  # noqa: E402

from autodiff import engine  # noqa: E402

EXAMPLES = int(os.environ.get("AUTODIFF_NN_EXAMPLES", "24"))
NUMBER = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?|nan|inf")

ACTIVATIONS = ["nn.ReLU()", "nn.Tanh()", "nn.Sigmoid()", "nn.LeakyReLU(0.1)", "nn.GELU()", "nn.ELU()",
               "nn.Softplus()", "nn.SiLU()", "nn.Hardtanh()", "nn.Identity()"]
OPTIMIZERS = ["optim.SGD(model.parameters(), lr={lr})",
              "optim.SGD(model.parameters(), lr={lr}, momentum=0.9)",
              "optim.SGD(model.parameters(), lr={lr}, momentum=0.5, nesterov=True, weight_decay=0.01)",
              "optim.SGD(model.parameters(), lr={lr}, momentum=0.9, dampening=0.2)",
              "optim.Adam(model.parameters(), lr={lr})",
              "optim.Adam(model.parameters(), lr={lr}, betas=(0.8, 0.99), amsgrad=True, weight_decay=0.1)",
              "optim.AdamW(model.parameters(), lr={lr})",
              "optim.RMSprop(model.parameters(), lr={lr})",
              "optim.RMSprop(model.parameters(), lr={lr}, momentum=0.5, centered=True)",
              "optim.Adagrad(model.parameters(), lr={lr}, lr_decay=0.01)"]
# (loss module, how the targets are made, whether the model's output must have one column per class)
LOSSES = [("nn.MSELoss()", "torch.randn(N, OUT)", False), ("nn.MSELoss(reduction='sum')", "torch.randn(N, OUT)", False),
          ("nn.L1Loss()", "torch.randn(N, OUT)", False), ("nn.SmoothL1Loss(beta=0.5)", "torch.randn(N, OUT)", False),
          ("nn.HuberLoss(delta=0.5)", "torch.randn(N, OUT)", False),
          ("nn.BCEWithLogitsLoss()", "torch.rand(N, OUT)", False),
          ("nn.CrossEntropyLoss()", "torch.randint(0, OUT, (N,))", True),
          ("nn.CrossEntropyLoss(reduction='sum')", "torch.randint(0, OUT, (N,))", True)]


@st.composite
def scripts(draw) -> tuple[str, bool]:
    double = draw(st.booleans())
    sizes = [draw(st.integers(1, 4)), *draw(st.lists(st.integers(1, 5), max_size=2)), draw(st.integers(2, 3))]
    sequential = draw(st.booleans())
    bilinear = not sequential and draw(st.integers(0, 3)) == 0  # a model's first layer, called as layer0(x, x)
    layers = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        kind = "Bilinear" if bilinear and i == 0 else "Linear"
        features = f"{a}, {a}, {b}" if kind == "Bilinear" else f"{a}, {b}"
        layers.append(f"nn.{kind}({features}{', bias=False' if draw(st.integers(0, 5)) == 0 else ''})")
        if i < len(sizes) - 2:
            layers.append(draw(st.sampled_from(ACTIVATIONS)))
            if draw(st.integers(0, 6)) == 0:
                layers.append("nn.Dropout(0.25)")
    loss, target, _ = draw(st.sampled_from(LOSSES))
    lines = ["import torch", "import torch.nn as nn", "import torch.optim as optim",
             *(["torch.set_default_dtype(torch.float64)"] if double else []),
             f"torch.manual_seed({draw(st.integers(0, 1000))})", f"N, OUT = {draw(st.integers(1, 6))}, {sizes[-1]}",
             f"x = torch.randn(N, {sizes[0]})", f"target = {target}"]
    if sequential:
        lines.append(f"model = nn.Sequential({', '.join(layers)})")
    else:
        lines += ["class Model(nn.Module):", "    def __init__(self):", "        super().__init__()",
                  *(f"        self.layer{i} = {layer}" for i, layer in enumerate(layers)),
                  "    def forward(self, x):",
                  *(f"        x = self.layer{i}(x{', x' if bilinear and i == 0 else ''})" for i in range(len(layers))),
                  "        return x", "model = Model()"]
    lr = draw(st.sampled_from([0.01, 0.05, 0.1, 0.5]))
    lines += [f"loss_fn = {loss}", f"optimizer = {draw(st.sampled_from(OPTIMIZERS)).format(lr=lr)}",
              f"for step in range({draw(st.integers(1, 8))}):",
              "    optimizer.zero_grad()", "    loss = loss_fn(model(x), target)", "    loss.backward()",
              "    optimizer.step()", "    print(step, loss.item())",
              "for name, p in model.named_parameters():", "    print(name, p, p.grad)"]
    if draw(st.booleans()):
        lines += ["model.eval()", "with torch.no_grad():", "    print(model(x))"]
    return "\n".join(lines) + "\n", double


def _with_torch(source: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "<script>", "exec"), {})  # generated test code, run by real PyTorch
        except Exception as error:  # the situation is compared, not its type
            return out.getvalue() + f"<error {type(error).__name__}: {error}>"
        finally:
            torch.set_default_dtype(torch.float32)
    return out.getvalue()


def _with_autodiff(source: str) -> str:
    try:
        code, stdout, _ = run_script(source)
    finally:
        engine.set_default_dtype("float32")
    return stdout + ("<error>" if code else "")


def same_printout(ours: str, theirs: str, double: bool) -> bool:
    """The same text around the numbers, and the numbers equal to the precision the dtype allows."""
    def skeleton(text: str) -> str:  # the text without numbers (column widths may differ: -0.0000 and 0.0000)
        return NUMBER.sub("#", text).replace(" ", "")

    if skeleton(ours) != skeleton(theirs):
        return False
    rel = 1e-9 if double else 1e-4
    for a, b in zip(NUMBER.findall(ours), NUMBER.findall(theirs)):
        x, y = float(a), float(b)
        if not (math.isclose(x, y, rel_tol=rel, abs_tol=2e-4) or (math.isnan(x) and math.isnan(y))):
            return False
    return True


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_random_models_train_as_in_pytorch(drawn):
    source, double = drawn
    theirs = _with_torch(source)
    ours = _with_autodiff(source)
    assert "<error" not in theirs, theirs
    if _diverges(theirs):  # a run that blows up amplifies the last bit of an update (an ulp of a square root in
        ours, theirs = ours.split("\n", 1)[0], theirs.split("\n", 1)[0]  # RMSprop): only its first step compares
    assert same_printout(ours, theirs, double), f"{source}\n--- autodiff\n{ours}\n--- torch\n{theirs}"


def _diverges(printout: str) -> bool:
    """Whether the training's printed losses ("step loss" lines) grow tenfold or turn non-finite."""
    losses = [float(m.group(1)) for m in re.finditer(r"^\d+ (\S+)$", printout, re.M)]
    return bool(losses) and any(not math.isfinite(v) or abs(v) > 10 * (abs(losses[0]) + 1) for v in losses)


def test_a_run_that_blows_up_is_noticed():
    assert _diverges("0 0.04\n1 6823.5\nlayer0.weight ...")
    assert _diverges("0 0.5\n1 nan\n")
    assert not _diverges("0 0.5\n1 0.4\n")


def test_the_comparison_notices_a_different_number_or_text():
    assert same_printout("0 1.2345678\ntensor([0.1000])", "0 1.2345679\ntensor([0.1000])", double=False)
    assert not same_printout("0 1.25", "0 1.35", double=False)
    assert not same_printout("tensor([1.])", "tensor([1.], requires_grad=True)", double=True)
