# A script's own scheduler (a subclass of _LRScheduler, imported as PyTorch's modules name it) and
# torch.optim.optimizer.Optimizer, against PyTorch
from torch.optim.optimizer import Optimizer
from torch.optim.lr_scheduler import _LRScheduler, LRScheduler
import torch


class Warmup(_LRScheduler):
    def __init__(self, optimizer, warmup, last_epoch=-1):
        self.warmup = warmup
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * min(1.0, (self.last_epoch + 1) / self.warmup) for base in self.base_lrs]


p = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([p], lr=0.3)
s = Warmup(opt, 4)
for _ in range(6):
    opt.step()
    s.step()
    print(s.get_last_lr(), s.last_epoch)
print(isinstance(opt, Optimizer), isinstance(s, LRScheduler), s.state_dict())
