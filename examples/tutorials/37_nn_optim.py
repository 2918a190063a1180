# "Learning PyTorch with Examples", the optim part: the same polynomial model, updated by an optimizer of
# torch.optim (RMSprop, then SGD with momentum) instead of a loop over the parameters; the learning rate halves
# every 500 steps (lr_scheduler.StepLR).
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
features = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
loss_fn = torch.nn.MSELoss(reduction="sum")


def show(value):
    """A coefficient to 3 decimals (RMSprop ends near 0 for two of them: no '-0.000')."""
    return f"{round(value, 3) + 0.0:.3f}"


for name in ["RMSprop", "SGD"]:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
    if name == "RMSprop":
        optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    else:
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-6, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=500, gamma=0.5)
    print(optimizer)
    for t in range(2000):
        y_pred = model(features)
        loss = loss_fn(y_pred, y)
        if t % 250 == 249:
            print(name, t, f"{loss.item():.2f}", scheduler.get_last_lr())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
    layer = model[0]
    print(f"Result: y = {show(layer.bias.item())} + {show(layer.weight[:, 0].item())} x + "
          f"{show(layer.weight[:, 1].item())} x^2 + {show(layer.weight[:, 2].item())} x^3")
    print(optimizer.param_groups[0]["lr"], len(optimizer.state), sorted(optimizer.state[layer.weight].keys()))
