# Seed tutorial "PyTorch Autograd" (Vaibhav Kumar): z = x * y has three elements, so backward needs an
# external gradient of z's shape (the vector of the vector-Jacobian product).
import torch

x = torch.tensor([0.0, 2.0, 8.0], requires_grad = True)
y = torch.tensor([5.0 , 1.0 , 7.0], requires_grad = True)
z = x * y
print('z', z)

z.backward(torch.FloatTensor([1.0, 1.0, 1.0]))
print('x.grad', x.grad)
print('y.grad', y.grad)
