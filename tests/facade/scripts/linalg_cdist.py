# torch.cdist: every p, batches that broadcast, the matrix-product form (p = 2, more than 25 rows, or asked for)
# with its EuclideanDistBackward0 under a view, grads of both inputs, and the errors of bad calls
import torch

torch.manual_seed(0)
x = torch.tensor([[0.0, 1.0, 2.0], [1.5, -1.0, 0.5], [2.0, 2.0, -1.0], [0.5, 0.25, 0.0]], dtype=torch.float64)
y = torch.tensor([[1.0, 0.0, 2.0], [0.5, 0.25, 0.0], [-1.0, 3.0, 1.0]], dtype=torch.float64)
w = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 0.5, -1.0], [1.0, 1.0, 1.0]], dtype=torch.float64)
for p in (2, 1, 0, 3, 0.5, float("inf")):
    a, b = x.clone().requires_grad_(), y.clone().requires_grad_()
    d = torch.cdist(a, b, p=p)
    (d * w[:, :3]).sum().backward()
    print(p, d, d.grad_fn, d.grad_fn.next_functions, a.grad, b.grad)
a, b = x.clone().requires_grad_(), y.clone().requires_grad_()
for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
    d = torch.cdist(a, b, compute_mode=mode)
    ga, gb = torch.autograd.grad((d * w[:, :3]).sum(), (a, b))
    print(mode, d, d.grad_fn, d.grad_fn.next_functions, ga, gb)
big = torch.randn(30, 3, dtype=torch.float64, requires_grad=True)
d = torch.cdist(big, b)
d.pow(2).sum().backward()
print(d.grad_fn, d.grad_fn.next_functions, d[:3], big.grad[:3], b.grad)
bx = torch.randn(2, 27, 3, dtype=torch.float64, requires_grad=True)
by = torch.randn(1, 3, 3, dtype=torch.float64, requires_grad=True)
d = torch.cdist(bx, by)
d.sum().backward()
print(d.shape, d.grad_fn, d.grad_fn.next_functions[0][0].next_functions, d[1, :2], bx.grad[1, :2], by.grad)
e = torch.cdist(bx[:, :4].detach().requires_grad_(), by, p=1)
e.sum().backward()
print(e, e.grad_fn, by.grad)
for bad in (lambda: torch.cdist(x[0], y), lambda: torch.cdist(x, y[:, :2]), lambda: torch.cdist(x, y, p=-1)):
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError:", str(err).splitlines()[0])
