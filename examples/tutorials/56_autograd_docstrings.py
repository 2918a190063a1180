# The code examples of torch.autograd's docstrings: Function (Exp), once_differentiable, grad and backward,
# forward_ad (dual_level, make_dual, unpack_dual), gradcheck and gradgradcheck, functional.jacobian and hessian;
# then tensor hooks. (torch.autograd.graph.saved_tensors_hooks is not available: see docs/scripts.md.)
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function
from torch.autograd.function import once_differentiable
torch.manual_seed(0)

# torch.autograd.Function
class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

input = torch.randn(3, requires_grad=True)
output = Exp.apply(input)
print(output)
output.sum().backward()
print(input.grad)

# once_differentiable
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 2 * x

x = torch.tensor([1.0, 2.0], requires_grad=True)
Square.apply(x).sum().backward()
print(x.grad)

# torch.autograd.grad / backward
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x)
print(h)
torch.autograd.backward([y], [torch.tensor(1.0)])
print(x.grad)

# forward_ad
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y
y = torch.ones(10, 10)
with fwAD.dual_level():
    inp = fwAD.make_dual(primal, tangent)
    out = fn(inp, y)
    p, jvp = fwAD.unpack_dual(out)
print(torch.allclose(jvp, 2 * primal * tangent))
print(fwAD.unpack_dual(out).tangent)

# torch.autograd.gradcheck
inputs = (torch.randn(3, dtype=torch.double, requires_grad=True),)
print(torch.autograd.gradcheck(Exp.apply, inputs, eps=1e-6, atol=1e-4))
print(torch.autograd.gradgradcheck(Exp.apply, inputs))

# functional
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(torch.autograd.functional.jacobian(exp_reducer, inputs))
print(torch.autograd.functional.jacobian(exp_reducer, inputs, create_graph=True))
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(torch.autograd.functional.hessian(pow_reducer, inputs))


# hooks (Autograd mechanics)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.register_hook(lambda grad: grad * 2)
b.retain_grad()
b.sum().backward()
print(a.grad, b.grad)
