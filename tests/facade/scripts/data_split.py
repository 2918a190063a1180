# random_split (fractions and lengths, generator=), Subset, ConcatDataset and the loader's errors
import torch
from torch.utils.data import ConcatDataset, DataLoader, IterableDataset, Subset, TensorDataset, random_split

torch.manual_seed(0)
ds = TensorDataset(torch.arange(10) * 10)
train, test = random_split(ds, [0.8, 0.2])
print(train.indices, test.indices, len(train), train[0])
parts = random_split(range(11), [0.3, 0.3, 0.4])
print([list(p) for p in parts])
parts = random_split(range(10), [3, 3, 4], generator=torch.Generator().manual_seed(1))
print([list(p) for p in parts])
print(torch.randn(2))
sub = Subset(ds, [9, 0, 5])
print(len(sub), sub[0], [b[0].tolist() for b in DataLoader(sub, batch_size=2)])
both = ConcatDataset([range(3), range(10, 14)])
print(len(both), both[2], both[3], both[-1], list(DataLoader(both, batch_size=3)))
print(len(ds + ds))


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(7))


print([b.tolist() for b in DataLoader(Stream(), batch_size=3)])
print([b.tolist() for b in DataLoader(Stream(), batch_size=3, drop_last=True)])
for bad in (dict(batch_size=0), dict(shuffle=True, sampler=[0, 1]), dict(batch_size=None, drop_last=True),
            dict(num_workers=-1)):
    try:
        DataLoader(ds, **bad)
    except ValueError as e:
        print("ValueError", e)
try:
    random_split(ds, [3, 3])
except ValueError as e:
    print("ValueError", e)
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("AssertionError", e)
DataLoader(Stream(), shuffle=True)
