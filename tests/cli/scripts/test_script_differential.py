"""Random tutorial-style scripts (loops of backward passes, in-place updates under no_grad, hooks, f-strings,
branches) run by `autodiff run` and by PyTorch: the printed text must be the same.

Budget: 25 scripts in the default run; AUTODIFF_DIFF_EXAMPLES=N for a longer hunt. Needs torch (skipped
without it). Tensors are float64, so that the printed digits do not depend on float32 rounding in the
last place of a transcendental function (numpy's and PyTorch's kernels may differ there).
"""

from __future__ import annotations

import contextlib
import io
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from scripting import run_script  # noqa: E402

EXAMPLES = max(1, int(os.environ.get("AUTODIFF_DIFF_EXAMPLES", "75")) // 3)

EXPRESSIONS = ["w * w", "torch.sin(w) * 2", "(w - 1) ** 2", "torch.exp(-w)", "w.tanh()", "w * x",
               "torch.sigmoid(w * x)", "(w * x - 1) ** 2", "w.abs() + 1", "torch.log(w * w + 1)"]
REDUCTIONS = ["sum()", "mean()", "pow(2).sum()"]
LOSSES = ["F.mse_loss(y, x)", "F.l1_loss(y, x, reduction='sum')", "F.binary_cross_entropy_with_logits(y, x / 4)",
          "F.mse_loss(y, x, reduction='none').sum()"]
# a function of several statements whose graph depends on its input (the control flow of d2l's example)
MODEL = ["def model(w, x):", "    z = {expression}", "    while 0 < z.abs().sum() < {limit}:", "        z = z * 2",
         "    if z.sum() > 0:", "        return z", "    return -z"]
UPDATES = ["w -= lr * w.grad", "w.sub_(lr * w.grad)", "w.mul_(0.5)", "w += 0.25", "w.clamp_(-1, 1)",
           "w /= 2", "w *= w.grad.sign() if False else 1.5"]
RESETS = ["w.grad.zero_()", "w.grad = None", "pass"]
PRINTS = ['print(f"{i}: {loss.item():.4f}")', "print(w.grad)", "print(w)", 'print(loss, sep="")',
          'print(round(loss.item(), 3), w.grad is None)', "print((w > 0).all(), (w.grad > 0).any())",
          'print(f"{w.sum():.3f}", [round(v.item(), 2) for v in w])']


@st.composite
def scripts(draw) -> str:
    n = draw(st.integers(1, 3))
    values = draw(st.lists(st.floats(-2, 2, allow_nan=False).map(lambda v: round(v, 2)), min_size=n, max_size=n))
    lines = [
        "import torch",
        "import torch.nn.functional as F",
        f"w = torch.tensor({values}, dtype=torch.float64, requires_grad=True)",
        f"x = torch.tensor({[round(0.5 + i, 1) for i in range(n)]}, dtype=torch.float64)",
        f"lr = {draw(st.sampled_from([0.01, 0.1, 0.5]))}",
    ]
    if draw(st.booleans()):
        lines.append(f"h = w.register_hook(lambda g: g * {draw(st.sampled_from([2, 0.5, -1]))})")
    with_model = draw(st.booleans())
    if with_model:
        expression, limit = draw(st.sampled_from(EXPRESSIONS)), draw(st.sampled_from([0.5, 4, 30]))
        lines.extend(line.format(expression=expression, limit=limit) for line in MODEL)
    lines.append(f"for i in range({draw(st.integers(1, 4))}):")
    lines.append(f"    y = {'model(w, x)' if with_model else draw(st.sampled_from(EXPRESSIONS))}")
    if draw(st.booleans()):
        lines.append(f"    loss = {draw(st.sampled_from(LOSSES))}")
    else:
        lines.append(f"    loss = y.{draw(st.sampled_from(REDUCTIONS))}")
    lines.append("    loss.backward()")
    lines.append(f"    if i % {draw(st.integers(1, 3))} == 0:")
    lines.append(f"        {draw(st.sampled_from(PRINTS))}")
    lines.append("    with torch.no_grad():")
    for update in draw(st.lists(st.sampled_from(UPDATES), min_size=1, max_size=2)):
        lines.append(f"        {update}")
    reset = draw(st.sampled_from(RESETS))
    lines.append(f"    {reset}")
    lines.append(f"    {draw(st.sampled_from(PRINTS))}" if reset == "pass" else "    print(w)")
    return "\n".join(lines) + "\n"


def _with_torch(source: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "<script>", "exec"), {})  # generated test code, run by real PyTorch
        except Exception as error:  # the situation is compared, not its type
            return out.getvalue() + f"<error {type(error).__name__}>"
    return out.getvalue()


def _with_autodiff(source: str) -> str:
    code, stdout, _ = run_script(source)
    return stdout + ("<error>" if code else "")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_random_tutorial_scripts_print_what_pytorch_prints(source):
    expected = _with_torch(source)
    ours = _with_autodiff(source)
    if "<error" in expected:  # both stop, after the same output
        assert ours.endswith("<error>"), source
        assert ours[: -len("<error>")] == expected[: expected.index("<error")], source
    else:
        assert ours == expected, source
