# torch.linalg.cholesky (upper too), torch.cholesky / Tensor.cholesky and torch.linalg.solve_triangular (upper,
# lower, left=False, unitriangular, batches): values, grads (A's only in its triangle), grad_fn, and bad calls
import torch

A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([[1.0, -2.0, 0.5], [0.25, 3.0, 1.0], [2.0, 0.5, -1.0]], dtype=torch.float64)
for upper in (False, True):
    L = torch.linalg.cholesky(A, upper=upper)
    g, = torch.autograd.grad((L * w).sum(), A)
    print(L, L.grad_fn, L.grad_fn.next_functions, g)
L = torch.cholesky(A)
g, = torch.autograd.grad((L * w).sum(), A)
print(L, L.grad_fn, g, A.cholesky(upper=True).grad_fn)
batch = torch.stack([A.detach(), A.detach() @ A.detach()]).requires_grad_()
L = torch.linalg.cholesky(batch)
(L.pow(2) * w).sum().backward()
print(L, batch.grad)
x = A.detach().clone().requires_grad_()
gx, = torch.autograd.grad(torch.linalg.cholesky(x).sum(), x, create_graph=True)
print(gx.detach(), torch.autograd.grad(gx.pow(2).sum(), x)[0])  # grad_fn differs: MulBackward0, not LinalgSolveTriangularBackward0
M = torch.tensor([[2.0, 0.5, -1.0], [7.0, 3.0, 0.25], [9.0, -4.0, 1.5]], dtype=torch.float64, requires_grad=True)
B = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.25]], dtype=torch.float64, requires_grad=True)
for upper, unit in ((True, False), (False, False), (True, True), (False, True)):
    X = torch.linalg.solve_triangular(M, B, upper=upper, unitriangular=unit)
    gm, gb = torch.autograd.grad((X * w[:, :2]).sum(), (M, B))
    print(upper, unit, X, X.grad_fn, X.grad_fn.next_functions, gm, gb)
C = torch.tensor([[1.0, 2.0, 0.5], [0.5, -1.0, 3.0]], dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve_triangular(M, C, upper=False, left=False)
gm, gc = torch.autograd.grad(X.pow(2).sum(), (M, C))
print(X, gm, gc)
bm = torch.stack([M.detach(), M.detach().t()]).requires_grad_()
X = torch.linalg.solve_triangular(bm, B, upper=True)
X.sum().backward()
print(X, bm.grad, B.grad)
for bad in (lambda: torch.linalg.cholesky(-A), lambda: torch.linalg.cholesky(B),
            lambda: torch.linalg.solve_triangular(M, B[:2], upper=True),
            lambda: torch.linalg.solve_triangular(M, B[:, 0], upper=True)):
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError:", str(err).splitlines()[0])
