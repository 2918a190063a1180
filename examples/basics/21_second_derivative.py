# Derivatives of derivatives with torch.autograd.grad and create_graph=True.
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
(d2y,) = torch.autograd.grad(dy, x, create_graph=True)
(d3y,) = torch.autograd.grad(d2y, x)
print(dy, d2y, d3y)

t = torch.tensor(0.5, requires_grad=True)
f = torch.sin(t) * t
derivatives = []
g = f
for order in range(1, 4):
    (g,) = torch.autograd.grad(g, t, create_graph=True)
    derivatives.append(round(g.item(), 6))
    print(f"order {order}: {g.item():.6f}")
print(derivatives)

u, v = torch.tensor(1.0, requires_grad=True), torch.tensor(2.0, requires_grad=True)
w = u ** 2 * v
du, dv = torch.autograd.grad(w, [u, v], create_graph=True)
print(du, dv)
(duv,) = torch.autograd.grad(du, v)
print(duv)
