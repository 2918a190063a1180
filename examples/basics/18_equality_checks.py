# PyTorch's autograd tutorial: check the gradients against the derivatives written by hand.
import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)

print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
print((9 * a**2 == a.grad).all(), (a.grad > 30).any())
print(a.grad is None, b.grad is not None)
if (9 * a**2 == a.grad).all() and not (b.grad > 0).any():
    print("both gradients check out")
else:
    print("a gradient is off")
print(a.grad != b.grad, a.grad >= 36, b.grad < -8)
x = torch.tensor(1.5, requires_grad=True)
y = x**2
y.backward()
print(x.grad == 2 * x, bool(x.grad == 3.0), x.grad.item() == 3.0)
