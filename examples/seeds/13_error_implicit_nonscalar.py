# Seed tutorial "PyTorch Autograd" (Vaibhav Kumar): "z.backward() would give a RuntimeError: grad can be
# implicitly created only for scalar outputs". The script stops there with an autograd error (exit 1).
import torch

x = torch.tensor([0.0, 2.0, 8.0], requires_grad = True)
y = torch.tensor([5.0 , 1.0 , 7.0], requires_grad = True)
z = x * y
print('z', z)

z.backward()
print('x.grad', x.grad)
