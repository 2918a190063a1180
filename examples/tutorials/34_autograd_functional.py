# torch.autograd.functional as its docstrings show it: jacobian, hessian, vjp, jvp, hvp and vhp, with
# tuples of inputs, create_graph and strict; and the functions of the script, lambdas and built-ins as `func`.
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def exp_reducer(x):
    return x.exp().sum(dim=1)

inputs = torch.tensor([[0.5, 1.0], [-1.0, 2.0]])
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))

def exp_adder(x, y):
    return 2 * x.exp() + 3 * y

inputs = (torch.tensor([0.1, 0.2]), torch.tensor([-1.0, 1.0]))
print(jacobian(exp_adder, inputs))

def pow_reducer(x):
    return x.pow(3).sum()

inputs = torch.tensor([[0.5, 1.5], [2.0, -1.0]])
print(hessian(pow_reducer, inputs))
print(hessian(pow_reducer, inputs, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()

inputs = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
print(hessian(pow_adder_reducer, inputs))

inputs = torch.tensor([[0.5, 1.0, 1.5, 2.0], [-1.0, 0.0, 1.0, 0.25], [1.0, 1.0, 1.0, 1.0], [2.0, 3.0, -2.0, 0.25]])
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y

inputs = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
v = torch.ones(2)
print(vjp(adder, inputs, v))

inputs = torch.tensor([[0.5, 1.0, 1.5, 2.0], [-1.0, 0.0, 1.0, 0.25], [1.0, 1.0, 1.0, 1.0], [2.0, 3.0, -2.0, 0.25]])
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))
print(jvp(exp_reducer, inputs, v, create_graph=True)[1].requires_grad)
inputs = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))

inputs = torch.tensor([[0.5, 1.5], [2.0, -1.0]])
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v))
inputs = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))
print(hvp(pow_adder_reducer, inputs, v))

print(jacobian(torch.sin, torch.tensor([0.0, 1.0])))
print(jacobian(lambda x: x ** 2, torch.tensor(3.0)))
