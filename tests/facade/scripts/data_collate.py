# default_collate as PyTorch's: numbers, tuples, lists, dicts, named tuples, strings, numpy arrays
from collections import namedtuple

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, default_collate

Point = namedtuple("Point", ["x", "y"])


class Samples(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"n": i, "f": i / 2, "pair": (i, [i, i + 1]), "name": f"s{i}", "flag": i % 2 == 0,
                "arr": np.arange(3) * i, "f32": np.float32(i) / 3, "t": torch.full((2,), float(i))}


torch.manual_seed(1)
for batch in DataLoader(Samples(), batch_size=2, shuffle=True):
    print(batch)
print(list(DataLoader(Samples(), batch_size=None))[1])
print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([[1, 2], [3, 4]]))
print(default_collate([Point(0, 0.5), Point(1, 1.5)]))
print(default_collate(["a", "b"]))
print(default_collate([torch.tensor([1, 2]), torch.tensor([3, 4])]))
print(default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
print(default_collate([{"a": 1}, {"a": 2}]))
print(torch.utils.data.default_convert((np.zeros(2), 3)))
try:
    default_collate([[1, 2], [3]])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    default_collate([object(), object()])
except TypeError as e:
    print("TypeError", str(e).split(";")[0])
default_collate([[1, 2], [3]])
