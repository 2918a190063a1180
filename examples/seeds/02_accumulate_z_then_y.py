# Seed tutorial "How Pytorch tensors' backward() accumulates gradient" (Yang Zhang):
# switch y.backward() and z.backward(): first 3, then 5 = 3 + 2.
import torch
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
z.backward()
print(x.grad)

y.backward()
print(x.grad)
