"""Scripts under `autodiff run` against the same scripts under PyTorch, after the import (issue 40's measurements).

    python benchmarks/scripts.py [--runs N]

Two scripts, each timed inside itself (time.perf_counter around its loop, so neither the interpreter's start nor
`import torch` counts), run as subprocesses: `autodiff run FILE` and `python FILE` with PyTorch (also with
OMP_NUM_THREADS=1: on a busy machine PyTorch's thread pool costs more than it gives on models this small):

- loop: 3,000 steps of a tutorial's gradient descent by hand (a linear model, a mean squared error, backward,
  an update under no_grad, zero_ the gradients);
- makemore: the MLP of "makemore" part 2 (Karpathy's nn-zero-to-hero): an embedding table indexed by the
  batch's contexts (C[X]), a 2-layer MLP with tanh, F.cross_entropy, 300 steps of minibatches of 32, SGD by hand.

The best of N runs of each is reported with the ratio autodiff / PyTorch, and the last loss each printed
(the scripts seed torch.manual_seed: autodiff's random numbers are PyTorch's, so the losses agree to float32's
precision). Needs torch installed (`pip install torch==2.13.0`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

LOOP = """\
import time
import torch

torch.manual_seed(0)
x = torch.linspace(-1, 1, 64).reshape(64, 1)
y = 3 * x + 0.5 + 0.1 * torch.randn(64, 1)
w = torch.zeros(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
start = time.perf_counter()
for step in range(3000):
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        b -= 0.05 * b.grad
    w.grad.zero_()
    b.grad.zero_()
elapsed = time.perf_counter() - start
print(f"loss {loss.item():.6f}")
print(f"seconds {elapsed:.4f}")
"""

MAKEMORE = """\
import time
import torch
import torch.nn.functional as F

torch.manual_seed(2147483647)
words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn",
         "abigail", "emily", "elizabeth", "mila", "ella", "avery", "sofia", "camila", "aria", "scarlett"] * 10
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
block = 3
X, Y = [], []
for w in words:
    context = [0] * block
    for ch in w + ".":
        X.append(context)
        Y.append(stoi[ch])
        context = context[1:] + [stoi[ch]]
X, Y = torch.tensor(X), torch.tensor(Y)
g = torch.Generator().manual_seed(2147483647)
vocab = len(stoi)
C = torch.randn((vocab, 10), generator=g)
W1 = torch.randn((30, 200), generator=g) * 0.2
b1 = torch.randn(200, generator=g) * 0.01
W2 = torch.randn((200, vocab), generator=g) * 0.01
b2 = torch.randn(vocab, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
start = time.perf_counter()
for i in range(300):
    ix = torch.randint(0, X.shape[0], (32,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
elapsed = time.perf_counter() - start
print(f"loss {loss.item():.4f}")
print(f"seconds {elapsed:.4f}")
"""


def _measure(command: list[str], env: dict[str, str], runs: int) -> tuple[float, str]:
    """The best time the script reported over `runs` runs, and its last loss line."""
    best, loss = float("inf"), ""
    for _ in range(runs):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, check=True)
        lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
        best, loss = min(best, float(lines["seconds"])), lines["loss"]
    return best, loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    autodiff = shutil.which("autodiff", path=os.path.dirname(sys.executable)) or "autodiff"
    env = dict(os.environ)
    single = {**env, "OMP_NUM_THREADS": "1"}
    print("| script | autodiff run (s) | PyTorch (s) | PyTorch, 1 thread (s) | ratio (best PyTorch) | losses |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in (("loop (3,000 steps)", LOOP), ("makemore MLP (300 steps of 32)", MAKEMORE)):
            path = os.path.join(folder, "script.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            ours, our_loss = _measure([autodiff, "run", path], env, args.runs)
            theirs, their_loss = _measure([sys.executable, path], env, args.runs)
            theirs_1, _ = _measure([sys.executable, path], single, args.runs)
            print(f"| {name} | {ours:.3f} | {theirs:.3f} | {theirs_1:.3f} | {ours / min(theirs, theirs_1):.2f} | "
                  f"{our_loss} / {their_loss} |", flush=True)


if __name__ == "__main__":
    main()
