# torch.linalg.qr: tall, square, wide and batched inputs, modes 'reduced', 'complete' and 'r', grads through Q and
# R (one of them, or both), grad_fn, and the errors PyTorch raises in backward
import torch

A = torch.tensor([[2.0, 0.5], [1.0, 3.0], [0.5, -1.0]], dtype=torch.float64, requires_grad=True)
wq = torch.arange(6.0, dtype=torch.float64).reshape(3, 2).cos()
wr = torch.arange(4.0, dtype=torch.float64).reshape(2, 2).sin()
Q, R = torch.linalg.qr(A)
print(Q, R, Q.grad_fn, R.grad_fn, Q.grad_fn.next_functions)
print(torch.autograd.grad((Q * wq).sum() + (R * wr).sum(), A)[0])
print(torch.autograd.grad((torch.linalg.qr(A).Q * wq).sum(), A)[0])
print(torch.autograd.grad((torch.linalg.qr(A)[1] * wr).sum(), A)[0])
W = A.detach().t().clone().requires_grad_()
Q, R = torch.linalg.qr(W)
print(Q, R, torch.autograd.grad((Q * wr).sum() + (R * wq.t()).sum(), W)[0])
S = torch.tensor([[1.0, 2.0, 0.5], [0.0, 1.5, -1.0], [2.0, 0.25, 1.0]], dtype=torch.float64, requires_grad=True)
Q, R = torch.linalg.qr(S, mode="complete")
print(Q, R, torch.autograd.grad(Q.pow(3).sum() + R.sum(), S)[0])
B = torch.stack([S.detach(), S.detach().t()]).requires_grad_()
Q, R = torch.linalg.qr(B)
(Q.sum() + R.pow(2).sum()).backward()
print(Q.shape, R.shape, B.grad)
Qc, Rc = torch.linalg.qr(A, mode="complete")
print(Qc.shape, Rc.shape, torch.linalg.qr(A, mode="r"))
for bad in (lambda: torch.linalg.qr(A, mode="r")[1].sum().backward(),
            lambda: torch.linalg.qr(A, mode="complete")[0].sum().backward(),
            lambda: torch.linalg.qr(A[0])):
    try:
        bad()
    except RuntimeError as err:
        print("RuntimeError:", str(err).splitlines()[0])
q = torch.qr(A)
print(q, q.Q.grad_fn, torch.qr(A, some=False).Q.shape, A.qr().R)
print(torch.autograd.grad(A.qr().Q.sum(), A)[0])
