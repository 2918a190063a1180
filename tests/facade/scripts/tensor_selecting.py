# select, narrow, unfold, masked_select, meshgrid, nonzero/argwhere, count_nonzero, isnan/isinf/isfinite,
# tril_indices, clamp_max, diff, Tensor.where: values, gradients and nodes against PyTorch
import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
s = x.select(1, 2)
n = torch.narrow(x, 2, 1, 2)
u = x.unfold(2, 2, 1)
print(s, n, u.shape, u[1, 2], s.grad_fn.name(), n.grad_fn.name(), u.grad_fn.name())
(s.sum() * 2 + (n ** 2).sum() + (u * torch.arange(2.0)).sum()).backward()
print(x.grad)
v = torch.arange(7.0, requires_grad=True)
w = v.unfold(0, 3, 2)
w.pow(2).sum().backward()
print(w, v.grad, x.narrow(-1, -2, 2).shape, torch.select(x, 0, -1).shape)
m = torch.tensor([[True, False, True], [False, True, True]])
y = torch.randn(2, 3, requires_grad=True)
picked = torch.masked_select(y, m)
picked.sum().backward()
print(picked.shape, picked.grad_fn.name(), y.grad, y.masked_select(torch.tensor([True, False, True])).shape)
a, b = torch.meshgrid(torch.arange(3.0), torch.linspace(0, 1, 2), indexing="ij")
print(a, b, a.dtype, b.dtype)
xx, yy = torch.meshgrid(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0, 5.0]), indexing="xy")
print(xx, yy, xx.grad_fn.name())
g = torch.meshgrid([torch.arange(2), torch.arange(2), torch.arange(3)], indexing="ij")
print(len(g), g[2].shape)
t = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, float("nan")]])
print(t.nonzero(), torch.nonzero(t, as_tuple=True), torch.argwhere(t), torch.count_nonzero(t),
      t.count_nonzero(dim=0))
print(torch.isnan(t), t.isfinite(), torch.isinf(torch.tensor([1.0, float("inf"), -float("inf")])),
      torch.isnan(torch.tensor([1, 2])))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1))
c = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
cm = torch.clamp_max(c, 1.0)
cm.sum().backward()
print(cm, cm.grad_fn.name(), c.grad, c.clamp_max(0))
d = torch.tensor([1.0, 4.0, 9.0, 16.0], requires_grad=True)
dd = torch.diff(d)
dd2 = d.diff(n=2, prepend=torch.tensor([0.0]))
(dd.sum() + dd2.pow(2).sum()).backward()
print(dd, dd2, d.grad, dd.grad_fn.name())
print(torch.diff(torch.arange(6).reshape(2, 3), dim=0))
q = torch.tensor([1.0, -1.0, 2.0])
print(q.where(q > 0, torch.zeros(3)), torch.where(q > 0))
for bad in (lambda: x.select(1, 3), lambda: x.narrow(0, 1, 2), lambda: x.unfold(2, 5, 1)):
    try:
        bad()
    except IndexError as err:
        print("IndexError", err)
    except RuntimeError as err:
        print("RuntimeError", err)
torch.meshgrid(torch.arange(3), torch.ones(2))
