# torch.func's transforms: grad, vjp and jacrev in reverse mode, jvp and jacfwd in forward mode, and hessian
# (jacfwd of jacrev); they compose.
import torch
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp

x = torch.tensor([0.5, 1.0, 2.0])


def f(x):
    return (x.sin() * x ** 2).sum()


print(grad(f)(x))
print(grad(grad(lambda t: t ** 3))(torch.tensor(2.0)))
print(hessian(f)(x))
print(jacrev(torch.sin)(x))
print(jacfwd(torch.sin)(x))
print(torch.allclose(jacrev(lambda t: t.exp() * t)(x), jacfwd(lambda t: t.exp() * t)(x)))

primal_out, tangent_out = jvp(lambda a, b: a ** 2 + b ** 2, (x, x + 1), (torch.ones(3), torch.zeros(3)))
print(primal_out, tangent_out)

out, vjp_fn = vjp(lambda t: t ** 2, x)
print(out, vjp_fn(torch.ones(3)))


def g(a, b):
    return (a * b.exp()).sum()


print(grad(g, argnums=(0, 1))(x, x))
print(jacrev(g, argnums=1)(x, x))
