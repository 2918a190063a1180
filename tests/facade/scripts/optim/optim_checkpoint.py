# An optimizer's and a scheduler's state_dict() loaded into new ones (load_state_dict), training on, against
# PyTorch (a deep copy stands for torch.save and torch.load)
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=10)
x = torch.randn(4, 3)
for _ in range(3):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()
    sched.step()
ckpt = copy.deepcopy({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict()})
print(sorted(ckpt["opt"]["state"][0]), ckpt["opt"]["param_groups"][0]["lr"], ckpt["sched"]["last_epoch"])
model2 = nn.Linear(3, 2)
model2.load_state_dict(ckpt["model"])
opt2 = torch.optim.AdamW(model2.parameters(), lr=0.01)
opt2.load_state_dict(ckpt["opt"])
sched2 = torch.optim.lr_scheduler.OneCycleLR(opt2, max_lr=0.05, total_steps=10, last_epoch=2)
sched2.load_state_dict(ckpt["sched"])
for _ in range(3):
    for m, o, s in ((model, opt, sched), (model2, opt2, sched2)):
        o.zero_grad()
        m(x).pow(2).mean().backward()
        o.step()
        s.step()
    print(sched.get_last_lr(), sched2.get_last_lr(), opt2.param_groups[0]["betas"], torch.equal(model.weight, model2.weight))
print(opt2.state_dict()["state"][0]["step"], model2.bias)
try:
    opt2.load_state_dict({"state": {}, "param_groups": []})
except ValueError as error:
    print("ValueError:", error)
torch.optim.lr_scheduler.StepLR(torch.optim.SGD([nn.Parameter(torch.ones(1))]), 2, last_epoch=3)
