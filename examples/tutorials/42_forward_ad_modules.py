# The forward-mode AD tutorial's "Usage with Modules" and "Custom autograd Function" sections: a Linear whose
# parameters are replaced by dual tensors (delattr, then setattr), and a Function with a jvp staticmethod,
# checked by gradcheck in forward mode.
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
model = nn.Linear(5, 5)
input = torch.randn(16, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))

    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent

print(jvp.shape)
print(jvp.requires_grad, jvp.grad_fn.name())  # the parameters require grad: the tangent records a graph
print(jvp[0].detach())
print(list(dict(model.named_parameters())))
print(getattr(model, "in_features"), getattr(model, "missing", "no such attribute"))


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)

with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent

print(jvp[0][:3].detach())
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False,
                               check_undefined_grad=False, check_batched_grad=False))
