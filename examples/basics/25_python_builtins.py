# The Python that tutorials print with: f-strings, round, abs, len, min, max, sep and end.
import torch

x = torch.tensor([1.5, -2.25, 3.0], requires_grad=True)
loss = (x ** 2).sum()
loss.backward()
print("loss", loss.item(), sep=" = ")
print(f"{loss.item():.4f} | {loss.item():10.2f} | {loss.item():e} | {3:03d} | {'left':<6}|")
print(f"{x.grad[0]:.2f}", f"{loss}", f"{x.grad.sum().item():+.1f}", f"{x.grad!r}")
print(f"{len(x)=}", f"{{braces}}", f"{'%'}")
print(round(2.675, 2), round(3.5), abs(-3), abs(-2.5), len([1, 2, 3]), len(x))
print(min(3, 1, 2), max([4, 9, 2]), min(0.5, 0.25), max(1, 2.5))
print("a", "b", "c", sep="-", end="!\n")
print("no newline", end="")
print()
values = [1, 2, 3]
print(sum(values), sum([0.5, 0.25]), list(range(2, 8, 2)), len(range(5)))
print(int(2.9), float(3), str(1.5), bool(0), 7 // 2, -7 // 2, 7 % 3, -7 % 3, 2 ** 10)
print(1 if x.grad is not None else 0, None or "default", 0 and 1)
print(3 in [1, 2, 3], 5 not in [1, 2], "b" in "abc")
