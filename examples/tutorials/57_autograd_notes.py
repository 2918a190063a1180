# "Autograd mechanics" (PyTorch's notes): requires_grad through operations, the multithreaded example's train_fn
# (called directly: a script runs one statement at a time), inference_mode and saved tensors; seeded.
import torch
torch.manual_seed(0)
x = torch.randn(5, 5)  # requires_grad=False by default
y = torch.randn(5, 5)  # requires_grad=False by default
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)

def train_fn():
    x = torch.ones(5, 5, requires_grad=True)
    # forward
    y = (x + 3) * (x + 4) * 0.5
    # backward
    y.sum().backward()
    print(x.grad[0])

train_fn()
with torch.inference_mode():
    w = z * 2
print(w.requires_grad)
x = torch.randn(3, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self is x)
y = x.exp()
print(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)
