# torch.histogram and torch.histc as makemore part 3 draws its activation histograms (hy, hx = torch.histogram(t,
# density=True)): PyTorch's bins and edges, density, weights, edges given as a tensor, and its refusals.
import torch

torch.manual_seed(0)
t = torch.randn(1000)
hy, hx = torch.histogram(t, density=True)
print(hy.shape, hx.shape, hy.dtype, hy[:5], hx[:3], hx[-1], hy.sum() * (hx[1] - hx[0]))
print(torch.histogram(t, bins=5, range=(-1.0, 1.0)))
print(torch.histogram(torch.tensor([1., 2., 1.]), bins=4, weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([3., 3.]), bins=2))
print(torch.histogram(torch.tensor([1., 2., 5., 6., -1.]), bins=torch.tensor([0., 1.5, 6.])))
print(t.histogram(3), t.histc(4))
print(torch.histc(t, bins=4, min=-1, max=1), torch.histc(torch.tensor([2., 2.]), bins=3))
print(torch.histc(torch.tensor([1., float("nan"), 3., 4.0, 9.0]), bins=2, min=0, max=4))
print(torch.histogram(torch.tensor([1., 2., 3.], dtype=torch.float64), 2))
x = torch.randn(5, requires_grad=True)
print(torch.histc(x, 3).requires_grad)
for bad in [lambda: torch.histogram(torch.tensor([1, 2]), 2), lambda: torch.histc(torch.tensor([1, 2]), 2),
            lambda: torch.histogram(t, bins=0), lambda: torch.histc(t, bins=2, min=2, max=1),
            lambda: torch.histogram(t, 3, range=(1., 0.))]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", str(e)[:64])
