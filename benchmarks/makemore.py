"""A makemore-style training loop (an embedding, a 2-layer MLP, cross-entropy; 300 steps of batch 32) by `autodiff run`
and by PyTorch, on the same script, timed inside the script (after the import).

    python benchmarks/makemore.py [--steps 300] [--batch 32] [--style modules|tensors] [--rounds 3]

The script (below) makes a deterministic synthetic set of names (syllables drawn by Python's `random` with a fixed
seed: no downloads), the character-level dataset of makemore's part 2 (a context of 3 characters predicts the next;
27 symbols), and trains:

- `--style modules`: nn.Embedding(27, 10), nn.Linear(30, 200), nn.Tanh, nn.Linear(200, 27), F.cross_entropy,
  torch.optim.SGD;
- `--style tensors`: the same model as makemore's part 2 writes it: parameter tensors `C`, `W1`, `b1`, `W2`, `b2`,
  `C[Xb]`, `torch.tanh(emb.view(-1, 30) @ W1 + b1)`, `p.grad = None`, `p.data += -lr * p.grad`.

Each run prints the seconds its loop took (time.perf_counter around the loop only: the import, the data and the
model's construction are outside it) and its last loss. Both run as subprocesses (`autodiff run FILE` and `python
FILE`, PyTorch also with OMP_NUM_THREADS=1, which is faster for a model this small on a busy machine); the median of
ROUNDS runs of each is reported with the ratio autodiff / PyTorch. The goal (issue 45): within 1.5x PyTorch's time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

SCRIPT = """\
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

STEPS, BATCH, STYLE = {steps}, {batch}, "{style}"
rng = random.Random(0)
syllables = ["an", "ar", "el", "em", "ia", "is", "ja", "ka", "le", "li", "ma", "mi", "na", "ni", "o", "ra", "ri",
             "sa", "se", "ta", "th", "ya", "zo", "be", "du", "fe", "gu", "ho", "qu", "vi", "wy", "x"]
names = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(5000)]
letters = sorted(set("".join(names)))
index = {{c: i + 1 for i, c in enumerate(letters)}}
index["."] = 0
contexts, targets = [], []
for name in names:
    context = [0, 0, 0]
    for c in name + ".":
        contexts.append(context)
        targets.append(index[c])
        context = context[1:] + [index[c]]
X, Y = torch.tensor(contexts), torch.tensor(targets)

torch.manual_seed(2147483647)
if STYLE == "modules":
    model = nn.Sequential(nn.Embedding(27, 10), nn.Flatten(), nn.Linear(30, 200), nn.Tanh(), nn.Linear(200, 27))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
else:
    C = torch.randn((27, 10))
    W1 = torch.randn((30, 200)) * 0.2
    b1 = torch.randn(200) * 0.01
    W2 = torch.randn((200, 27)) * 0.01
    b2 = torch.zeros(27)
    parameters = [C, W1, b1, W2, b2]
    for p in parameters:
        p.requires_grad = True

start = time.perf_counter()
for step in range(STEPS):
    ix = torch.randint(0, X.shape[0], (BATCH,))
    if STYLE == "modules":
        loss = F.cross_entropy(model(X[ix]), Y[ix])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    else:
        emb = C[X[ix]]
        h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
        logits = h @ W2 + b2
        loss = F.cross_entropy(logits, Y[ix])
        for p in parameters:
            p.grad = None
        loss.backward()
        for p in parameters:
            p.data += -0.1 * p.grad
elapsed = time.perf_counter() - start
print(f"loop {{elapsed:.4f}} s, {{len(X)}} examples, last loss {{loss.item():.4f}}")
"""


def timed(command: list[str], env: dict | None = None) -> tuple[float, str]:
    """The loop's seconds and last loss one run of the script printed."""
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0 or not done.stdout.startswith("loop "):
        sys.exit(f"{' '.join(command)} failed (exit {done.returncode}): {(done.stderr or done.stdout)[-500:]}")
    words = done.stdout.split()
    return float(words[1]), words[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--style", default="modules", choices=["modules", "tensors"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    bin_dir = os.path.dirname(sys.executable)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(SCRIPT.format(steps=args.steps, batch=args.batch, style=args.style))
        path = f.name
    one_thread = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    ours, theirs, single = [], [], []
    try:
        for _ in range(args.rounds):  # interleaved, so a change in the machine's load touches all three alike
            ours.append(timed([os.path.join(bin_dir, "autodiff"), "run", path]))
            theirs.append(timed([sys.executable, path]))
            single.append(timed([sys.executable, path], one_thread))
    finally:
        os.unlink(path)
    mid_ours, mid_theirs, mid_single = (statistics.median(t for t, _ in runs) for runs in (ours, theirs, single))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"makemore ({args.style}), {args.steps} steps of {args.batch}, the loop after import, median of "
          f"{args.rounds}: autodiff {mid_ours:.3f} s, PyTorch {mid_theirs:.3f} s (ratio {mid_ours / mid_theirs:.2f}), "
          f"PyTorch on one thread {mid_single:.3f} s (ratio {mid_ours / mid_single:.2f}); goal <= 1.5")
    print(f"last loss: autodiff {ours[0][1]}, PyTorch {theirs[0][1]}")


if __name__ == "__main__":
    main()
