"""torch.utils.data: Dataset, TensorDataset, Subset, random_split and a DataLoader that batches a dataset
(batch_size, shuffle, drop_last, collate of tensors, numbers, tuples and dicts)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from autodiff.engine import Tensor, randperm, stack, tensor
from autodiff.engine.errors import BadValueError


class Dataset:
    """A dataset: a script's subclass defines __getitem__ (and __len__)."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Samples are the tensors' rows: dataset[i] is (t0[i], t1[i], ...)."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise BadValueError("Size mismatch between tensors", reason="dataset")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of dataset at the given indices."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, list(indices)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return [self.dataset[self.indices[i]] for i in index]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Subsets of the given lengths (or fractions) over a random permutation of the dataset's indices."""
    total = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = [math.floor(total * fraction) for fraction in lengths]
        for i in range(total - sum(counts)):
            counts[i % len(counts)] += 1
    else:
        counts = [int(n) for n in lengths]
    if sum(counts) != total:
        raise BadValueError("Sum of input lengths does not equal the length of the input dataset!",
                            reason="random_split")
    order = randperm(total).tolist()
    out, start = [], 0
    for count in counts:
        out.append(Subset(dataset, order[start:start + count]))
        start += count
    return out


def default_collate(batch: list) -> Any:
    """Samples stacked into a batch: tensors stacked, numbers made a tensor, tuples and dicts field by field."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch)
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return tensor(batch)
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return [default_collate(list(field)) for field in zip(*batch)]
    return batch


class DataLoader:
    """Batches of a dataset, in order or shuffled (a new permutation each epoch)."""

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool = False, sampler: Any = None,
                 batch_sampler: Any = None, num_workers: int = 0, collate_fn: Any = None, pin_memory: bool = False,
                 drop_last: bool = False, generator: Any = None, **ignored: Any) -> None:
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.sampler, self.drop_last, self.generator = sampler, drop_last, generator
        self.collate_fn = collate_fn or default_collate

    def _indices(self) -> list[int]:
        if self.sampler is not None:
            return list(self.sampler)
        count = len(self.dataset)
        return randperm(count).tolist() if self.shuffle else list(range(count))

    def __iter__(self) -> Iterator[Any]:
        indices = self._indices()
        if self.batch_size is None:
            for i in indices:
                yield self.dataset[i]
            return
        for start in range(0, len(indices), self.batch_size):
            chunk = indices[start:start + self.batch_size]
            if len(chunk) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn([self.dataset[i] for i in chunk])

    def __len__(self) -> int:
        count = len(self.sampler) if self.sampler is not None else len(self.dataset)
        if self.batch_size is None:
            return count
        return count // self.batch_size if self.drop_last else -(-count // self.batch_size)


__all__ = ["DataLoader", "Dataset", "Subset", "TensorDataset", "default_collate", "random_split"]
