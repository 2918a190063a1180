# Seed tutorial "How Pytorch tensors' backward() accumulates gradient" (Yang Zhang), first snippet:
# .grad accumulates: y.backward() leaves 2 in x.grad, then z.backward() adds 3.
# Notebook display lines (a bare `x` or `x.grad`) are written as print(...).
import torch
x = torch.ones(1, requires_grad=True); print(x)

y = x**2
z = x**3

y.backward()
print(x.grad)

z.backward()
print(x.grad)
