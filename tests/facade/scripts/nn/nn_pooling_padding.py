# AdaptiveAvgPool1d/2d, AdaptiveMaxPool1d/2d (uneven bins, None sizes, return_indices, 1 x 1 as a mean), the
# padding layers: values, gradients, node names, printed forms and the errors of bad shapes
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 7, requires_grad=True)
for o in [(3, 4), (1, 1), (None, 2), 2, (5, 7), (4, 3)]:
    y = F.adaptive_avg_pool2d(x, o)
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(o, y.grad_fn.name(), y[1, 2], x.grad[1, 1])
    x.grad = None
    m, i = F.adaptive_max_pool2d(x, o, return_indices=True)
    (m * torch.arange(m.numel()).reshape(m.shape)).sum().backward()
    print(m.grad_fn.name(), m[0, 1], i[1, 2], x.grad[0, 2])
    x.grad = None
z = torch.randn(3, 7, requires_grad=True)
for mod in [nn.AdaptiveAvgPool1d(3), nn.AdaptiveAvgPool1d(1), nn.AdaptiveMaxPool1d(4), nn.AdaptiveMaxPool1d(5, return_indices=True), nn.AdaptiveAvgPool2d((3, None)), nn.AdaptiveMaxPool2d(2)]:
    print(mod)
    inp = z if '1d' in type(mod).__name__ else z.reshape(1, 3, 7)
    out = mod(inp)
    if isinstance(out, tuple):
        print(out[1]); out = out[0]
    out.pow(2).sum().backward()
    print(out, out.grad_fn.name(), out.grad_fn.next_functions[0][0].name(), z.grad)
    z.grad = None
for p in [nn.ZeroPad2d(1), nn.ZeroPad1d((1, 2)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 2, 3), 1), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 1, 2, 0)), nn.ReplicationPad1d((0, 3)), nn.ReplicationPad2d(1), nn.CircularPad1d(1)]:
    w = p(z.reshape(1, 3, 7)[:, :, :4] if '1d' in type(p).__name__ else z.reshape(1, 3, 7))
    print(p, w.shape, w.grad_fn.name().removeprefix("torch::autograd::"), w[0, 1])
print(nn.ZeroPad2d(1).padding, nn.ConstantPad1d(1, 2.0).value)
for bad in [lambda: F.adaptive_avg_pool2d(torch.randn(5), 2), lambda: F.adaptive_avg_pool2d(x, (1, 2, 3)),
            lambda: F.adaptive_avg_pool1d(torch.randn(2, 3, 4, 5), 2), lambda: F.adaptive_max_pool2d(torch.randn(5), 2),
            lambda: F.adaptive_max_pool1d(torch.randn(5), 2), lambda: F.adaptive_avg_pool1d(z, (2, 3)),
            lambda: nn.ConstantPad1d(2)]:
    try:
        bad()
    except Exception as e:
        print("RuntimeError" if isinstance(e, RuntimeError) else type(e).__name__, e)
