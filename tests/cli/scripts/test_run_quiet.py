"""A script that computes with inf and nan prints what PyTorch prints and nothing else: numpy's RuntimeWarnings
(invalid value encountered in add, overflow encountered in multiply, ...) do not reach its stderr, in the forward
or the backward. Run in a process of its own, as a user runs it: pytest would catch the warnings in process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """\
import torch
inf = float("inf")
a = torch.tensor([inf, -inf, 1.0])
print(a.sum(), torch.tensor([[inf], [-inf]]).sum(0), a * 0, a - a)
b = torch.tensor(inf, requires_grad=True)
print(b - b, b * 0)
print(torch.tensor([0.0]) / 0, torch.log(torch.tensor([-1.0])), torch.tensor([1e30]) * 1e30)
print(torch.tensor([inf, -inf]).mean(), torch.tensor([inf, -inf]).std(), torch.tensor([inf, -inf]).cumsum(0))
print(torch.tensor([[inf, -inf]]) @ torch.tensor([[1.0], [1.0]]), torch.tensor([inf]).to(torch.int64))
print(torch.nn.functional.avg_pool1d(torch.tensor([[[inf, -inf]]]), 2))
print(torch.nn.functional.nll_loss(torch.tensor([[inf, 0.0], [0.0, -inf]]), torch.tensor([0, 1])))
x = torch.tensor([inf, -inf, 2.0], requires_grad=True)
(x.exp() * x - x * x).sum().backward()
print(x.grad[:2])
import warnings
with warnings.catch_warnings():
    import numpy
print(torch.tensor([inf]) - torch.tensor([inf]), numpy.float64(1.0) / 3)
"""

# what PyTorch 2.13 prints for it (torch itself prints no warning)
PRINTED = """\
tensor(nan) tensor([nan]) tensor([nan, nan, 0.]) tensor([nan, nan, 0.])
tensor(nan, grad_fn=<SubBackward0>) tensor(nan, grad_fn=<MulBackward0>)
tensor([nan]) tensor([nan]) tensor([inf])
tensor(nan) tensor(nan) tensor([inf, nan])
tensor([[nan]]) tensor([-9223372036854775808])
tensor([[[nan]]])
tensor(nan)
tensor([nan, nan])
tensor([nan]) 0.3333333333333333
"""


def test_a_script_with_inf_and_nan_prints_no_numpy_warning(tmp_path: Path) -> None:
    path = tmp_path / "nan.py"
    path.write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from autodiff.cli.main import main; main()", "run", str(path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == PRINTED
