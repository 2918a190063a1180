# Threshold, Hardshrink, Softshrink, Tanhshrink, GLU, PReLU, Softmax2d: values, gradients, node names, parameters,
# printed forms and the errors of bad calls
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
def kind(e):
    for cls in (TypeError, ValueError, IndexError, NotImplementedError, RuntimeError):
        if isinstance(e, cls):
            return cls.__name__
    return type(e).__name__
x = torch.randn(2, 4, 6, requires_grad=True)
w = torch.linspace(-1, 1, 48).reshape(2, 4, 6)
for name, fn in [("threshold", lambda t: F.threshold(t, 0.1, 20.0)), ("hardshrink", lambda t: F.hardshrink(t, 0.6)),
                 ("hardshrink_method", lambda t: t.hardshrink()), ("torch.hardshrink", lambda t: torch.hardshrink(t, 0.3)),
                 ("softshrink", lambda t: F.softshrink(t, 0.3)), ("tanhshrink", F.tanhshrink),
                 ("glu", F.glu), ("glu_dim1", lambda t: F.glu(t, 1)), ("glu_dim0", lambda t: F.glu(t, dim=-3)),
                 ("prelu1", lambda t: F.prelu(t, torch.tensor([0.25]))),
                 ("prelu4", lambda t: F.prelu(t, torch.tensor([0.1, 0.2, 0.3, -0.4]))),
                 ("prelu_method", lambda t: t[0].prelu(torch.linspace(0.1, 0.6, 6))),
                 ("torch.threshold", lambda t: torch.threshold(t, 0.0, -1.0)),
                 ("softmax2d", nn.Softmax2d())]:
    y = fn(x)
    (y * w[..., : y.shape[-1]].reshape(-1)[: y.numel()].reshape(y.shape)).sum().backward()
    print(name, y.grad_fn.name(), [n.name().removeprefix("torch::autograd::") if n else None for n, _ in y.grad_fn.next_functions], y.flatten()[:6], x.grad.flatten()[:8])
    x.grad = None
for m in [nn.Threshold(0.1, 20), nn.Hardshrink(), nn.Softshrink(0.3), nn.Tanhshrink(), nn.GLU(), nn.GLU(1), nn.PReLU(), nn.PReLU(4, 0.1), nn.Softmax2d(), nn.Threshold(0.5, 2.0, inplace=True)]:
    print(m, list(m.state_dict().items()))
p = nn.PReLU(4, 0.1)
out = p(x)
out.sum().backward()
print(out[0], p.weight.grad, x.grad[1])
print(p.weight, p.num_parameters)
for bad in [lambda: F.glu(torch.tensor(1.0)), lambda: F.glu(torch.randn(3)), lambda: F.glu(x[..., :3]),
            lambda: F.prelu(x, torch.ones(3)), lambda: F.prelu(x, torch.ones(1, 4)), lambda: F.prelu(x, torch.ones(4, dtype=torch.float64)),
            lambda: F.softshrink(x, -1.0), lambda: nn.Softmax2d()(torch.randn(3, 3))]:
    try:
        bad()
    except Exception as e:
        print(kind(e), str(e).splitlines()[0])
