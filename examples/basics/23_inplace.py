# In-place updates: x += y is x.add_(y); the result takes the operation's grad_fn.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y += 1
print(y)
y.mul_(3)
print(y, y.is_leaf)
y.sum().backward()
print(x.grad)

t = torch.tensor([-2., 0.5, 4.])
t += 1
t -= 0.5
t *= 2
t /= 4
print(t)
print(t.clamp_(0, 1), t.abs_(), t.pow_(2), t.add_(1), t.sub_(0.5), t.div_(2), t.mul_(4))

s = torch.zeros(2)
s += torch.tensor([1., 1.], requires_grad=True)
print(s, s.is_leaf)

p = torch.tensor([1., -1.], requires_grad=True)
with torch.no_grad():
    p -= 0.1 * torch.tensor([2., 2.])
    p *= 2
print(p, p.requires_grad, p.is_leaf)
count = 3
count += 2
count *= 2
count //= 3
count **= 2
print(count)
