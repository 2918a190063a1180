# Seed tutorial "How does PyTorch calculate gradient: a programming perspective": only AccumulateGrad
# nodes have a variable; asking AddBackward0 for one stops the script (PyTorch: AttributeError).
import torch

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = a + b
d = torch.tensor(4.0, requires_grad=True)
e = c * d

ag = e.grad_fn.next_functions[0][0] #<AddBackward0 at 0x268c6d3e668>
print(ag.next_functions)
print(ag.variable)
