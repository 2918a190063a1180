# In-place updates of a view with a value that requires grad, as makemore part 4 writes its manual backward pass
# (dC[ix] += demb[k, j] with ix a 0-d index tensor): CopySlices on the base, gradients through the written region.
import torch

torch.manual_seed(0)

W = torch.randn(3, 4, requires_grad=True)
d = (W * 2)[0]
dC = torch.zeros(5, 4)
ix = torch.tensor(2)
dC[ix] += d
print(dC.grad_fn, dC.grad_fn.next_functions, dC.requires_grad, dC.is_leaf)
v = dC[1:3]
w = torch.full((4,), 3.0, requires_grad=True)
v *= w
print(dC.grad_fn, v.grad_fn, dC)
(dC * torch.arange(20.0).reshape(5, 4)).sum().backward()
print(W.grad, w.grad)
x = torch.zeros(3)
y = torch.ones(3, requires_grad=True)
x[0:2].add_(y[0:2] * 3)
print(x, x.grad_fn)
x.pow(2).sum().backward()
print(y.grad)
