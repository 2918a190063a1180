# Seed tutorial "How Pytorch tensors' backward() accumulates gradient" (Yang Zhang):
# set x.grad back to 0 after y.backward() so that it does not accumulate.
import torch
x = torch.ones(1, requires_grad=True)
y = x**2
z = x**3
y.backward()
print(x.grad)

print(x.grad.zero_())

z.backward()
print(x.grad)
