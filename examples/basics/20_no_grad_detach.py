# Recording on and off: no_grad, enable_grad, set_grad_enabled and detach.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
print(y.requires_grad)
with torch.no_grad():
    z = x * 2
    print(z.requires_grad, torch.is_grad_enabled())
    with torch.enable_grad():
        inner = x * 2
    print(inner.requires_grad)
print(z.requires_grad, torch.is_grad_enabled())

torch.set_grad_enabled(False)
print((x ** 2).requires_grad)
torch.set_grad_enabled(True)
print((x ** 2).requires_grad)
with torch.set_grad_enabled(False):
    print((x + 1).requires_grad)
print((x + 1).requires_grad)

d = x.detach()
print(d.requires_grad, d)
print(x.detach().requires_grad_(True).is_leaf)
e = (x * x).detach()
print(e, e.grad_fn)
x.requires_grad = False
print((x * 2).requires_grad)
