# DataLoader's order: RandomSampler under manual_seed (a fresh seed drawn per pass) and with generator=
import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler, SequentialSampler, TensorDataset

torch.manual_seed(0)
X = torch.arange(26).float().reshape(13, 2)
y = torch.arange(13)
ds = TensorDataset(X, y)
loader = DataLoader(ds, batch_size=4, shuffle=True)
print(len(loader))
for epoch in range(3):
    for xb, yb in loader:
        print(epoch, yb.tolist(), xb.shape, xb.dtype, yb.dtype)
print(torch.rand(3))  # the default generator moved on as PyTorch's did

g = torch.Generator().manual_seed(42)
loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g, drop_last=True)
print(len(loader), [b[1].tolist() for b in loader], [b[1].tolist() for b in loader])
print(torch.rand(2))  # untouched by the loader's own generator

torch.manual_seed(3)
print([b[1].tolist() for b in DataLoader(ds, batch_size=6)])
print([b.tolist() for b in DataLoader(y, batch_size=5, shuffle=True)])
print(list(DataLoader(range(5), batch_size=None, shuffle=True)))
print(list(BatchSampler(SequentialSampler(range(10)), 3, drop_last=True)))
print(list(BatchSampler(SequentialSampler(range(10)), 3, drop_last=False)))
print(list(RandomSampler(range(7), replacement=True, num_samples=40)))
print(list(RandomSampler(range(7), num_samples=17)))
print(list(RandomSampler(range(9), generator=torch.Generator().manual_seed(7))))
print(list(torch.utils.data.SubsetRandomSampler([10, 20, 30, 40])))
print(list(torch.utils.data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5)))
print(list(torch.utils.data.WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False)))
it = iter(DataLoader(ds, batch_size=2, shuffle=True))
print(next(it)[1].tolist(), next(it)[1].tolist())
loader = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), batch_size=3, drop_last=False))
print(len(loader), [b[1].tolist() for b in loader])
loader = DataLoader(ds, sampler=SequentialSampler(ds), batch_size=7, num_workers=2)
print([b[1].tolist() for b in loader])
