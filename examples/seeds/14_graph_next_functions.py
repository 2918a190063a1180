# Seed tutorial "How does PyTorch calculate gradient: a programming perspective": walking the backward
# graph of e = (a + b) * d through grad_fn, next_functions and AccumulateGrad's variable.
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a + b
d = torch.tensor(4.0, requires_grad=True)
e = c * d

print(e)
print(e.grad_fn)
print(e.grad_fn.next_functions)

ag = e.grad_fn.next_functions[0][0] #<AddBackward0 at 0x268c6d3e668>
print(ag.next_functions)

ag = e.grad_fn.next_functions[1][0]
print(ag.variable)

e.backward()
print(a.grad, b.grad, d.grad)
