# torch.cross / torch.linalg.cross, torch.kron, torch.linalg.matrix_power / Tensor.matrix_power, torch.dist and
# torch.linalg.matrix_norm: values, grads, grad_fn and next_functions, and the errors of bad calls
import torch

torch.manual_seed(0)
a = torch.tensor([[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[2.0, 0.5, -1.0], [1.0, 1.0, 4.0]], dtype=torch.float64, requires_grad=True)
c = torch.linalg.cross(a, b)
print(c, c.grad_fn.name(), [type(f).__name__ for f, _ in c.grad_fn.next_functions])
(c * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward()
print(a.grad, b.grad)
v = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
d = torch.cross(a.detach().t().contiguous(), torch.ones(3, 2, dtype=torch.float64), dim=0)
print(d, torch.linalg.cross(v[None], b).grad_fn.name())
torch.linalg.cross(v[None], b).pow(2).sum().backward()
print(v.grad, a.cross(b, dim=1))
ga, = torch.autograd.grad(torch.linalg.cross(v[None], b).sum(), v, create_graph=True)
print(ga, torch.autograd.grad(ga.pow(2).sum(), b)[0])
k = torch.kron(a, torch.tensor([[1.0, -1.0], [0.5, 2.0]], dtype=torch.float64))
print(k, k.grad_fn.name(), k.grad_fn.next_functions[0][0].name())
a.grad = None
k.square().sum().backward()
print(a.grad, torch.kron(torch.tensor([1, 2]), torch.tensor([[3], [4]])), torch.kron(v, a).shape)
m = torch.tensor([[1.0, 0.5, 0.0], [-0.25, 2.0, 1.0], [0.5, 0.0, 1.5]], dtype=torch.float64, requires_grad=True)
for n in (0, 1, 2, 3, 4, 5, 6, -1, -2, -3):
    p = torch.linalg.matrix_power(m, n)
    names = [f for f, _ in p.grad_fn.next_functions]
    g, = torch.autograd.grad(p.sum(), m)
    print(n, p, p.grad_fn, names, g)
batch = torch.stack([m.detach(), 2 * m.detach()]).requires_grad_()
q = batch.matrix_power(3)
q.sum().backward()
print(q, q.grad_fn.name(), batch.grad)
for p in (2, 1, 3, 0.5, float("inf"), -float("inf")):
    x, y = a.detach().clone().requires_grad_(), b.detach()[0].clone().requires_grad_()
    r = torch.dist(x, y, p)
    r.backward()
    print(p, r, r.grad_fn.name(), x.grad, y.grad)
print(a.dist(b), torch.dist(a, a).item(), torch.dist(a, b, 0))
z = a.detach().clone().requires_grad_()
torch.dist(z, z.detach()).backward()
print(z.grad)
for o in ("fro", "nuc", 1, -1, float("inf"), -float("inf")):
    w = m.detach().clone().requires_grad_()
    r = torch.linalg.matrix_norm(w, o)
    r.backward()
    print(o, r, r.grad_fn.name(), w.grad, torch.linalg.matrix_norm(batch.detach(), o, keepdim=True).shape)
print(torch.linalg.matrix_norm(batch.detach(), 1, dim=(0, 2)))
for bad in (lambda: torch.linalg.cross(a, a[:, :2]), lambda: torch.cross(a[:, :2], a[:, :2]),
            lambda: torch.linalg.matrix_power(a, 2), lambda: torch.linalg.matrix_power(v, 2),
            lambda: torch.dist(a, torch.ones(4, dtype=torch.float64))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", str(e).splitlines()[0])
x3 = torch.tensor([[1.0, 2.0, -0.5], [0.25, -1.0, 3.0]], dtype=torch.float64, requires_grad=True)
vd = torch.linalg.vecdot(x3, b)
print(vd, vd.grad_fn, vd.grad_fn.next_functions, torch.linalg.vecdot(x3, b, dim=0))
print(torch.linalg.matmul(x3, b.t()), torch.linalg.diagonal(m), torch.linalg.diagonal(batch, offset=1).grad_fn)
p1 = torch.tensor([[1.0, 0.5, -1.0, 2.0, 0.25], [0.0, 1.5, 1.0, -0.5, 3.0]], dtype=torch.float64, requires_grad=True)
p2 = torch.arange(15.0, dtype=torch.float64).reshape(5, 3).sin().requires_grad_()
p3 = torch.arange(12.0, dtype=torch.float64).reshape(3, 4).cos().requires_grad_()
p4 = torch.arange(8.0, dtype=torch.float64).reshape(4, 2).requires_grad_()
for chain in ([p1, p2], [p1, p2, p3], [p2.t(), p1.t(), p1], [p1, p2, p3, p4], [p1[0], p2, p3, p4[:, 0]], [p3.t(), p2.t(), p1.t(), p1]):
    md = torch.linalg.multi_dot(chain)
    print(md, md.grad_fn, md.grad_fn.next_functions, md.grad_fn.next_functions[0][0].next_functions)
    print(torch.autograd.grad(md.sum(), p2)[0])
for p in (None, 2, -2):
    mm_ = m.detach().clone().requires_grad_()
    c = torch.linalg.cond(mm_, p)
    c.backward()
    print(p, c, c.grad_fn, mm_.grad)
for p in ("fro", "nuc", 1, -1, float("inf"), -float("inf")):  # (backward: PyTorch 2.13 fails, an in-place write into inv's output)
    print(p, torch.linalg.cond(m, p), torch.linalg.cond(m, p).grad_fn.next_functions)
print(torch.linalg.cond(batch.detach()), torch.linalg.matrix_rank(m), torch.linalg.matrix_rank(torch.ones(3, 4)))
print(torch.linalg.matrix_rank(batch.detach(), atol=2.0), torch.linalg.matrix_rank(m + m.t(), hermitian=True))
print(torch.linalg.matrix_rank(m, rtol=0.5), torch.linalg.matrix_rank(torch.zeros(2, 3)))
for bad in (lambda: torch.linalg.multi_dot([p2.t(), p1.t(), p2]), lambda: torch.linalg.multi_dot([p1]),
            lambda: torch.linalg.cond(v)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", str(e).splitlines()[0])
xv = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
vm = torch.linalg.vander(xv)
print(vm, vm.grad_fn, vm.grad_fn.next_functions, torch.autograd.grad((vm * m).sum(), xv)[0])
print(torch.linalg.vander(xv, N=5), torch.linalg.vander(torch.tensor([1, 2, 3])), torch.linalg.vander(batch.detach(), N=2).shape)
try:
    torch.linalg.vander(xv, N=1)
except RuntimeError as e:
    print("RuntimeError:", e)
