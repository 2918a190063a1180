# Seed tutorial "Understanding backward() in PyTorch" (Linlin): z = (2x)^3, dz/dx = 24x^2.
# The tutorial drew x with T.randn(1, 1, requires_grad=True); the number it printed is fixed here.
import torch as T
import torch.autograd
import numpy as np

'''
Define a scalar variable, set requires_grad to be true to add it to backward path for computing gradients

It is actually very simple to use backward()

first define the computation graph, then call backward()
'''

x = T.tensor([[-0.6955]], requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
#define an operation on x
y = 2 * x
print('y', y)
#define one more operation to check the chain rule
z = y ** 3
print('z', z)

#yes, it is just as simple as this to compute gradients:
z.backward()
print('z gradient:', z.grad)
print('y gradient:', y.grad)
print('x gradient:', x.grad, 'Requires gradient?', x.grad.requires_grad) # note that x.grad is also a tensor
