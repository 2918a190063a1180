# A script's own Optimizer subclass (PyTorch's Optimizer.__init__(params, defaults), self.state as a defaultdict)
# under StepLR, against PyTorch
import torch
import torch.nn as nn


class SignSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.01, momentum=0.5):
        defaults = dict(lr=lr, momentum=momentum)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["buf"] = torch.zeros_like(p)
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                p.add_(buf.sign(), alpha=-group["lr"])
        return loss


torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = SignSGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
x, y = torch.randn(6, 2), torch.randn(6, 1)
for _ in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(round(loss.item(), 4), sched.get_last_lr())
print(model.weight, opt.defaults, sorted(opt.state_dict()["state"][0]))
print(opt)
