# torch.optim.swa_utils against PyTorch: AveragedModel (SWA, EMA by multi_avg_fn and by avg_fn with use_buffers),
# SWALR after CosineAnnealingLR, update_bn, SWALR's state_dict, get_ema_avg_fn's ValueError
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn, update_bn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
swa_sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(4)]
for epoch in range(8):
    for x, y in data:
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        ema_model.update_parameters(model)
    if epoch >= 4:
        swa_model.update_parameters(model)
        swa_sched.step()
    else:
        sched.step()
    print(epoch, opt.param_groups[0]["lr"], int(swa_model.n_averaged))
update_bn(data, swa_model)
print(swa_model.module[0].weight, swa_model.module[1].running_mean, ema_model.module[3].bias)
print(swa_model(data[0][0])[:3], swa_sched.state_dict())
buffered = AveragedModel(model, avg_fn=torch.optim.swa_utils.get_ema_avg_fn(0.5), use_buffers=True)
for x, _ in data:
    model(x)
    buffered.update_parameters(model)
print(buffered.module[1].running_var, buffered.module[1].num_batches_tracked, buffered.module[0].bias)
torch.optim.swa_utils.get_ema_avg_fn(1.5)
