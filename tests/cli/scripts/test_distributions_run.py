"""`autodiff run` of a REINFORCE-style script with torch.distributions (Categorical over a policy's softmax,
sample, log_prob, a policy-gradient step): its output is what PyTorch 2.13 printed (recorded below, numbers
within the suite's tolerance); with torch installed, the same script run by Python with real torch prints it too."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from tolerance import numbers_differ

SCRIPT = """\
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2), nn.Softmax(dim=-1))
optimizer = torch.optim.SGD(policy.parameters(), lr=0.5)
for episode in range(4):
    state = torch.randn(3)
    log_probs, rewards = [], []
    for t in range(5):
        m = Categorical(policy(state))
        action = m.sample()
        log_probs.append(m.log_prob(action))
        rewards.append(1.0 if action.item() == 1 else 0.0)
        state = state * 0.5 + action
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    loss = -(torch.stack(log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(episode, [int(r) for r in rewards], f"{loss.item():.4f}", log_probs[0].grad_fn.name())
print(policy(torch.ones(3)))
"""

# PyTorch 2.13's output of SCRIPT
EXPECTED = """\
0 [0, 1, 0, 1, 0] 4.2755 SqueezeBackward1
1 [0, 0, 0, 0, 1] 2.4913 SqueezeBackward1
2 [0, 1, 0, 0, 1] 6.4312 SqueezeBackward1
3 [1, 1, 1, 1, 1] 0.3937 SqueezeBackward1
tensor([0.0030, 0.9970], grad_fn=<SoftmaxBackward0>)
"""


def test_reinforce_script_prints_pytorchs_output(cli, tmp_path: Path):
    path = tmp_path / "reinforce.py"
    path.write_text(SCRIPT, encoding="utf-8")
    out = cli("run", str(path))
    assert out.code == 0, out.stderr
    assert numbers_differ(out.stdout, EXPECTED) is None, out.stdout


def test_the_recorded_output_is_pytorchs():
    pytest.importorskip("torch")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(SCRIPT, "reinforce.py", "exec"), {"__name__": "__main__"})
    assert numbers_differ(printed.getvalue(), EXPECTED) is None, printed.getvalue()
