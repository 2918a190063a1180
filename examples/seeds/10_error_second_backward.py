# Seed tutorial "Understanding backward() in PyTorch" (Linlin): what retain_graph does. Without it the
# first backward frees the graph, and the second one stops the script with an autograd error (exit 1),
# as PyTorch stops with a RuntimeError.
# The tutorial drew x with T.randn(2, 2, requires_grad=True); the numbers it printed are fixed here.
import torch as T

x = T.tensor([[-0.7452,  1.5727], [ 0.1702,  0.7374]], requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
#define an operation on x
y = 2 * x
#print('y', y)
#define one more operation to check the chain rule
z = y ** 3
out = z.mean()
print('out', out)
out.backward()  #without setting retain_graph to be true, it is alright for first time of backward.
print('x gradient', x.grad)

x.grad.data.zero_()
out.backward() #Now we get complaint saying that no graph is available for tracing back. 
print('x gradient', x.grad)
