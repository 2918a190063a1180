# "Learning PyTorch with Examples", the nn part: sin(x) on [-pi, pi] fitted by a third-order polynomial, a
# Linear layer over the features (x, x^2, x^3) flattened to one prediction per point, the squared error summed,
# and the gradient step written by hand. Seeded, so the layer starts from PyTorch's numbers; losses and
# coefficients are printed to 3 and 4 decimals (float32 sums of 2,000 terms differ in the 7th digit).
import math

import torch

torch.manual_seed(0)
x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
powers = torch.tensor([1, 2, 3])
features = x.unsqueeze(-1).pow(powers)

model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
print(model)
loss_fn = torch.nn.MSELoss(reduction="sum")
learning_rate = 1e-6
for t in range(2000):
    y_pred = model(features)
    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, f"{loss.item():.3f}")
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

layer = model[0]
print(f"Result: y = {layer.bias.item():.4f} + {layer.weight[:, 0].item():.4f} x + {layer.weight[:, 1].item():.4f} x^2 "
      f"+ {layer.weight[:, 2].item():.4f} x^3")
print(layer.weight.grad.shape, layer.bias.grad.shape)
