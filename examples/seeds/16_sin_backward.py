# Seed tutorial "How does PyTorch calculate gradient: a programming perspective": SinBackward0 passes
# grad * cos(self) back, so a.grad equals cos(a).
import torch

a = torch.tensor(0.6, requires_grad=True)
b = torch.sin(a)
print(b)
b.backward()
print(a.grad, torch.cos(a))
print(a.grad - torch.cos(a))
