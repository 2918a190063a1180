# Seed tutorial "Understanding backward() in PyTorch" (Linlin): "We will get complaints if the
# grad_tensors is specified for the scalar function." The script stops at the second backward with an
# autograd error (exit 1), as PyTorch stops with a RuntimeError.
import torch as T

x = T.tensor([[ 1.8528,  0.2083], [-1.5296,  0.3136]], requires_grad=True) #x is a leaf created by user, thus grad_fn is none
print('x', x)
y = 2 * x
z = y ** 3
out = z.mean()
print('out', out)
out.backward(retain_graph=True)
print('x gradient:\n', x.grad)

x.grad.data.zero_()
out.backward(T.FloatTensor([[1, 1], [1, 1]]), retain_graph=True)
print('x gradient', x.grad)
