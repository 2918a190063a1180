# Seed tutorial "Understanding backward() in PyTorch" (Linlin): a scalar output, f(x) = mean((2x)^3),
# needs no gradient argument.
# The tutorial drew x with T.randn(2, 2, requires_grad=True); the numbers it printed are fixed here.
import torch as T

x = T.tensor([[ 1.8528,  0.2083], [-1.5296,  0.3136]], requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
#define an operation on x
y = 2 * x
#print('y', y)
#define one more operation to check the chain rule
z = y ** 3
out = z.mean()
print('out', out)
out.backward(retain_graph=True)
print('x gradient:\n', x.grad)
