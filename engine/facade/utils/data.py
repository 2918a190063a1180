"""torch.utils.data: datasets (Dataset, IterableDataset, TensorDataset, ConcatDataset, Subset), random_split,
the samplers (samplers.py), the collate functions (collate.py) and a DataLoader that reads a dataset as
PyTorch's single-process loader does: same batches, same order after torch.manual_seed or with generator=.

Each pass over a DataLoader draws a base seed from its generator (the default one when it has none) before
its sampler draws: PyTorch draws it for the worker processes; here it is drawn and kept (num_workers is
accepted and the data is read in this process) so that the random numbers that follow are PyTorch's.
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from autodiff.engine import Tensor, empty, randperm
from autodiff.engine.core.dtypes import int64
from autodiff.engine.errors import InvalidArgumentError

from .collate import collate, default_collate, default_collate_fn_map, default_convert
from .samplers import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: a script's subclass defines __getitem__ (and __len__)."""

    def __getitem__(self, index: Any) -> T_co:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co]):
    """A dataset read by iterating over it: a script's subclass defines __iter__."""

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Any) -> ChainDataset:
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are the tensors' rows: dataset[i] is (t0[i], t1[i], ...)."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """Several datasets one after the other."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise InvalidArgumentError("absolute value of index should not exceed dataset length",
                                           reason="arguments")
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class ChainDataset(IterableDataset):
    """Several iterable datasets one after the other."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[Any]:
        for dataset in self.datasets:
            yield from dataset

    def __len__(self) -> int:
        return sum(len(d) for d in self.datasets)


class Subset(Dataset):
    """The samples of dataset at the given indices."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> list:
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def _split_lengths(total: int, fractions: Sequence[float]) -> list[int]:
    """Fractions of total as whole lengths, the remainder given out one by one from the first, as PyTorch."""
    lengths = []
    for i, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise InvalidArgumentError(f"Fraction at index {i} is not between 0 and 1", reason="random_split")
        lengths.append(math.floor(total * fraction))
    for i in range(total - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty dataset.",
                          UserWarning, stacklevel=3)
    return lengths


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Subsets of the given lengths (or fractions) over randperm of the dataset's indices, as PyTorch splits."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _split_lengths(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise InvalidArgumentError("Sum of input lengths does not equal the length of the input dataset!",
                                   reason="random_split")
    indices = randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, indices[end - length:end]) for end, length in zip(ends, lengths)]


def get_worker_info() -> None:
    """None: the data is read in the script's own process (there are no worker processes)."""
    return None


def _check_options(dataset: Any, options: dict) -> None:
    """DataLoader's refusals of options that do not go together, with PyTorch's messages."""
    if options["num_workers"] < 0:
        raise InvalidArgumentError("num_workers option should be non-negative; use num_workers=0 to disable "
                                   "multiprocessing.", reason="arguments")
    if isinstance(dataset, IterableDataset):
        for option in ("shuffle", "sampler", "batch_sampler"):
            if options[option] not in (None, False):
                raise InvalidArgumentError(f"DataLoader with IterableDataset: expected unspecified {option} option, "
                                           f"but got {option}={options[option]}", reason="arguments")
    if options["sampler"] is not None and options["shuffle"]:
        raise InvalidArgumentError("sampler option is mutually exclusive with shuffle", reason="arguments")
    if options["batch_sampler"] is not None and (options["batch_size"] != 1 or options["shuffle"]
                                                 or options["sampler"] is not None or options["drop_last"]):
        raise InvalidArgumentError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                   "and drop_last", reason="arguments")
    if options["batch_sampler"] is None and options["batch_size"] is None and options["drop_last"]:
        raise InvalidArgumentError("batch_size=None option disables auto-batching and is mutually exclusive with "
                                   "drop_last", reason="arguments")


class _InfiniteConstantSampler(Sampler[None]):
    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


class DataLoader(Generic[T_co]):
    """Batches of a dataset, in order or shuffled (a new permutation each pass), as PyTorch's DataLoader."""

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Callable | None = None, multiprocessing_context: Any = None,
                 generator: Any = None, **ignored: Any) -> None:
        _check_options(dataset, dict(num_workers=num_workers, shuffle=shuffle, sampler=sampler,
                                     batch_sampler=batch_sampler, batch_size=batch_size, drop_last=drop_last))
        self.iterable = isinstance(dataset, IterableDataset)
        if batch_sampler is not None:
            batch_size, drop_last = None, False
        if sampler is None:
            sampler = _InfiniteConstantSampler() if self.iterable else \
                RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last, self.generator = dataset, batch_size, drop_last, generator
        self.sampler, self.batch_sampler, self.num_workers = sampler, batch_sampler, num_workers
        self.pin_memory, self.timeout, self.worker_init_fn = pin_memory, timeout, worker_init_fn
        self.collate_fn = collate_fn or (default_collate if batch_sampler is not None else default_convert)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator[Any]:
        indices = iter(self._index_sampler)
        self._base_seed = int(empty((), dtype=int64).random_(generator=self.generator).item())
        return self._iterable_batches() if self.iterable else self._map_batches(indices)

    def _map_batches(self, indices: Iterator[Any]) -> Iterator[Any]:
        getitems = getattr(self.dataset, "__getitems__", None)
        for index in indices:
            if not self._auto_collation:
                yield self.collate_fn(self.dataset[index])
            elif callable(getitems):
                yield self.collate_fn(getitems(index))
            else:
                yield self.collate_fn([self.dataset[i] for i in index])

    def _iterable_batches(self) -> Iterator[Any]:
        samples = iter(self.dataset)
        if not self._auto_collation:
            yield from (self.collate_fn(sample) for sample in samples)
            return
        while True:
            batch = list(itertools.islice(samples, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if not self.iterable:
            return len(self._index_sampler)
        count = len(self.dataset)
        if self.batch_size is None:
            return count
        return count // self.batch_size if self.drop_last else math.ceil(count / self.batch_size)


__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "collate", "default_collate", "default_collate_fn_map", "default_convert",
           "get_worker_info", "random_split"]
