# A training loop with lr_scheduler's schedulers, the new optimizers and LBFGS against PyTorch: the learning rates
# after every step printed in full (PyTorch's arithmetic is Python floats), parameters to 4 decimals, a scheduler's
# state_dict, and a bad argument's ValueError
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(0)
model = nn.Linear(3, 1)
x, y = torch.randn(8, 3), torch.randn(8, 1)
opt = torch.optim.SGD(model.parameters(), 0.1, momentum=0.9)
warmup = lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
cosine = lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)
schedule = lr_scheduler.SequentialLR(opt, [warmup, cosine], milestones=[3])
for epoch in range(9):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    schedule.step()
    print(epoch, round(loss.item(), 4), schedule.get_last_lr())
print(model.weight, {k: v for k, v in cosine.state_dict().items() if k != "_get_lr_called_within_step"})

for name, options, make in [("Adam", {"lr": 0.05}, lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=6)),
                            ("RMSprop", {"lr": 0.01, "momentum": 0.5},
                             lambda o: lr_scheduler.CyclicLR(o, 0.001, 0.01, step_size_up=2)),
                            ("NAdam", {"lr": 0.02}, lambda o: lr_scheduler.ExponentialLR(o, 0.8)),
                            ("RAdam", {"lr": 0.02}, lambda o: lr_scheduler.MultiStepLR(o, [2, 4], 0.5)),
                            ("Rprop", {}, lambda o: lr_scheduler.StepLR(o, 2, 0.5)),
                            ("Adadelta", {}, lambda o: lr_scheduler.PolynomialLR(o, total_iters=4)),
                            ("Adamax", {}, lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, 2, 2)),
                            ("ASGD", {}, lambda o: lr_scheduler.LambdaLR(o, lambda e: 1 / (1 + e)))]:
    torch.manual_seed(1)
    model = nn.Linear(3, 1)
    opt = getattr(torch.optim, name)(model.parameters(), **options)
    schedule = make(opt)
    rates = []
    for _ in range(6):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        schedule.step()
        rates.append(schedule.get_last_lr()[0])
    print(name, type(schedule).__name__, rates, model.weight.detach())

plateau = lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
for metric in [1.0, 0.8, 0.9, 0.85, 0.7, 0.75, 0.76]:
    plateau.step(metric)
    print(plateau.get_last_lr(), plateau.num_bad_epochs)

torch.manual_seed(2)
w = nn.Parameter(torch.randn(3))
lbfgs = torch.optim.LBFGS([w], lr=1, max_iter=10, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    loss = ((w - torch.tensor([1.0, -2.0, 0.5])) ** 2).sum()
    loss.backward()
    return loss


for _ in range(2):
    print(round(lbfgs.step(closure).item(), 4), w.detach())
lr_scheduler.OneCycleLR(opt, max_lr=0.1)
