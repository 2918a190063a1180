# Loops of backward passes: gradients accumulate until they are zeroed.
import torch

x = torch.tensor(1.0, requires_grad=True)
y = x ** 2
for i in range(3):
    y.backward(retain_graph=True)
    print(i, x.grad)
x.grad.zero_()

for step in [1, 2, 3, 4, 5]:
    if step == 2:
        continue
    elif step > 4:
        break
    else:
        out = x * step
        out.backward()
        print(f"step {step}: grad = {x.grad.item()}")

n = 0
total = 0.0
while n < 4:
    n += 1
    total += n * 0.5
print(n, total)

w = torch.ones(3, requires_grad=True)
for name, factor in zip(["a", "b"], [2.0, 3.0]):
    (w * factor).sum().backward()
    print(name, w.grad)
for i, value in enumerate(w.grad):
    print(i, value)
