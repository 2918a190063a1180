"""A training loop of 10,000 steps of a small model, by `autodiff run` and by PyTorch, on the same script.

    python benchmarks/training.py [--steps N] [--optimizer SGD|Adam]

The script (below) is the shape of the tutorials' loops: a script's nn.Module subclass (Linear, Tanh, Linear),
MSELoss, an optimizer, zero_grad / backward / step, a print every 1,000 steps. Both run as subprocesses
(`autodiff run FILE` and `python FILE`, the latter also with OMP_NUM_THREADS=1: on a busy machine PyTorch's
thread pool costs more than it gives on a model this small), start-up included; the best of 3 runs of each
is reported with the ratio autodiff / PyTorch, and the last loss each printed (they agree to float32's
precision).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

SCRIPT = """\
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(3, 16)
        self.act = nn.Tanh()
        self.out = nn.Linear(16, 1)

    def forward(self, x):
        return self.out(self.act(self.hidden(x)))


torch.manual_seed(0)
x = torch.randn(64, 3)
y = (x ** 2).sum(dim=1, keepdim=True)
model = Model()
loss_fn = nn.MSELoss()
optimizer = torch.optim.{optimizer}(model.parameters(), lr=0.01)
for step in range({steps}):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 1000 == 999:
        print(step, f"{{loss.item():.4f}}")
"""


def timed(command: list[str], env: dict | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--optimizer", default="SGD", choices=["SGD", "Adam"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bin_dir = os.path.dirname(sys.executable)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT.format(steps=args.steps, optimizer=args.optimizer))
        path = f.name
    try:
        ours = [timed([os.path.join(bin_dir, "autodiff"), "run", path]) for _ in range(args.rounds)]
        theirs = [timed([sys.executable, path]) for _ in range(args.rounds)]
        one_thread = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        single = [timed([sys.executable, path], one_thread) for _ in range(args.rounds)]
    finally:
        os.unlink(path)
    best_ours, best_theirs = min(t for t, _ in ours), min(t for t, _ in theirs)
    best_single = min(t for t, _ in single)
    print(f"{args.steps:,} steps, {args.optimizer}: autodiff {best_ours:.2f} s, PyTorch {best_theirs:.2f} s "
          f"(ratio {best_ours / best_theirs:.2f}), PyTorch on one thread {best_single:.2f} s "
          f"(ratio {best_ours / best_single:.2f})")
    print(f"last loss: autodiff {ours[0][1].split()[-1]}, PyTorch {theirs[0][1].split()[-1]}")


if __name__ == "__main__":
    main()
