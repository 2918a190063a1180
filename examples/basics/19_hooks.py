# Hooks: a function of the gradient, called when backward reaches the tensor.
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()  # removes the hook
v.grad = None
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

x = torch.tensor([1., 2.], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print("gradient reaching y:", g))
z = (y ** 2).sum()
z.backward()
print(x.grad)

scale = 10
a = torch.tensor(2.0, requires_grad=True)
b = a * a
handle = b.register_hook(lambda grad: grad * scale)
b.backward()
print(a.grad)
handle.remove()
a.grad.zero_()
(a * a).backward()
print(a.grad)
