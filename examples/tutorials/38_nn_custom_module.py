# "Learning PyTorch with Examples", custom nn Modules: the polynomial as a subclass of nn.Module whose four
# coefficients are Parameters assigned in __init__ (so parameters() finds them), with a method of its own,
# trained by optim.SGD.
import math

import torch


class Polynomial3(torch.nn.Module):
    def __init__(self):
        """Four coefficients, each a Parameter: the module registers them in the order they are assigned."""
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    def string(self):
        return f"y = {self.a.item():.4f} + {self.b.item():.4f} x + {self.c.item():.4f} x^2 + {self.d.item():.4f} x^3"


torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

model = Polynomial3()
print(model)
print([name for name, _ in model.named_parameters()])
print(model.a)
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
for t in range(2000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 400 == 399:
        print(t, f"{loss.item():.2f}")
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(f"Result: {model.string()}")
print(loss.grad_fn, model.d.grad is None)
optimizer.zero_grad(set_to_none=False)
print(model.d.grad)
