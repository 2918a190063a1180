# Seed tutorial "PyTorch Autograd" (Vaibhav Kumar): the members of a tensor in the dynamic computational
# graph (data, requires_grad, grad, grad_fn, is_leaf) for z = x * y, before and after backward.
import torch

x = torch.tensor(1.0, requires_grad = True)
y = torch.tensor(2.0)
z = x * y

print('x', x.data, x.requires_grad, x.grad, x.grad_fn, x.is_leaf)
print('y', y.data, y.requires_grad, y.grad, y.grad_fn, y.is_leaf)
print('z', z.data, z.requires_grad, z.grad_fn, z.is_leaf)

# A tensor's requires_grad can be turned on in place.
a = torch.tensor(3.0)
a.requires_grad_(True)
print('a', a, a.requires_grad, a.is_leaf)

# z.backward() passes the external gradient torch.tensor(1.) for a scalar output.
z.backward(torch.tensor(1.))
print('x.grad', x.grad)
print('y.grad', y.grad)
