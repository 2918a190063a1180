# Forward-mode AD, after PyTorch's tutorial "Forward-mode Automatic Differentiation (Beta)": dual tensors carry
# a tangent, and every operation computes its result's tangent as the forward pass goes (a Jacobian-vector
# product, computed eagerly).
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    # a tangent with another layout (tangent.T) is copied into the primal's
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    print(dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(torch.allclose(jvp, 2 * primal * tangent))

# leaving the level drops the tangents
print(fwAD.unpack_dual(dual_output).tangent is None)
print(dual_output)

# a directional derivative through the whole graph: softmax, matmul, reductions
w = torch.randn(3, 3, dtype=torch.float64)
x = torch.randn(3, dtype=torch.float64)
v = torch.tensor([1.0, 0.0, 0.0], dtype=torch.float64)
with fwAD.dual_level():
    out = torch.softmax(w @ fwAD.make_dual(x, v), dim=0).log().sum()
    value, directional = fwAD.unpack_dual(out)
    print(value, directional)


# Custom Functions give their own forward formula: jvp(ctx, *tangents)
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        return gI * ctx.result


primal = torch.randn(2, 2, dtype=torch.double, requires_grad=True)
tangent = torch.randn(2, 2)
with fwAD.dual_level():
    dual_output = Fn.apply(fwAD.make_dual(primal, tangent))
    print(fwAD.unpack_dual(dual_output).tangent)
