# Seed tutorial "Understanding backward() in PyTorch" (Linlin): x is a 2x2 matrix, so z is one too and
# backward needs a gradient; zeros in it select which elements of x get a gradient.
# The tutorial drew x with T.randn(2, 2, requires_grad=True); the numbers it printed are fixed here.
import torch as T

x = T.tensor([[-2.5212,  1.2730], [ 0.0366, -0.0750]], requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
#define an operation on x
y = 2 * x
#define one more operation to check the chain rule
z = y ** 3

print('z shape:', z.size())
z.backward(T.FloatTensor([[1, 1], [1, 1]]), retain_graph=True)
print('x gradient for its all elements:\n', x.grad)

print()
x.grad.data.zero_() #the gradient for x will be accumulated, it needs to be cleared.
z.backward(T.FloatTensor([[0, 1], [0, 1]]), retain_graph=True)
print('x gradient for the second column:\n', x.grad)

print()
x.grad.data.zero_()
z.backward(T.FloatTensor([[1, 1], [0, 0]]), retain_graph=True)
print('x gradient for the first row:\n', x.grad)
