"""torch.utils.data.sampler: the orders a DataLoader reads a dataset in, drawn as PyTorch draws them.

RandomSampler without a generator seeds a fresh torch.Generator from the default generator with
`torch.empty((), dtype=torch.int64).random_()` each time it is iterated, then takes randperm(n) from it; with a
generator it takes randperm(n, generator=...) from that one. So after torch.manual_seed (or with the same
generator) the order is PyTorch's, bit for bit, epoch after epoch.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from autodiff.engine import Tensor, empty, multinomial, randint, randperm, tensor
from autodiff.engine.core.dtypes import float64, int64
from autodiff.engine.errors import InvalidArgumentError, WrongTypeError
from autodiff.engine.random.generator import Generator

T_co = TypeVar("T_co", covariant=True)
REPLACEMENT_CHUNK = 32  # RandomSampler(replacement=True) draws its indices 32 at a time


def _positive_int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidArgumentError(f"{what} should be a positive integer value, but got {what}={value}",
                                   reason="arguments")
    return value


def _boolean(value: Any, what: str, error: type = InvalidArgumentError) -> bool:
    if not isinstance(value, bool):
        raise error(f"{what} should be a boolean value, but got {what}={value}", reason="arguments")
    return value


class Sampler(Generic[T_co]):
    """The base of samplers: a subclass defines __iter__ (and usually __len__)."""

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[T_co]:
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def seeded_generator() -> Generator:
    """A fresh generator seeded from the default one, as RandomSampler makes it for each pass."""
    seed = int(empty((), dtype=int64).random_().item())
    return Generator().manual_seed(seed)


class RandomSampler(Sampler[int]):
    """The indices in a random order (randperm), or num_samples drawn with replacement (randint)."""

    def __init__(self, data_source: Any, replacement: bool = False, num_samples: int | None = None,
                 generator: Any = None) -> None:
        self.data_source, self._num_samples, self.generator = data_source, num_samples, generator
        self.replacement = _boolean(replacement, "replacement", WrongTypeError)
        _positive_int(self.num_samples, "num_samples")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = seeded_generator() if self.generator is None else self.generator
        if self.replacement:
            for _ in range(self.num_samples // REPLACEMENT_CHUNK):
                yield from randint(high=n, size=(REPLACEMENT_CHUNK,), generator=generator).tolist()
            yield from randint(high=n, size=(self.num_samples % REPLACEMENT_CHUNK,), generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from randperm(n, generator=generator).tolist()
            yield from randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """num_samples indices drawn with the given weights (multinomial)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        self.num_samples = _positive_int(num_samples, "num_samples")
        self.replacement = _boolean(replacement, "replacement")
        self.weights = weights.to(float64) if isinstance(weights, Tensor) else tensor(weights, dtype=float64)
        if self.weights.ndim != 1:
            raise InvalidArgumentError(f"weights should be a 1d sequence but given weights have shape "
                                       f"{tuple(self.weights.shape)}", reason="arguments")
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Another sampler's indices in lists of batch_size (the last one shorter, or dropped with drop_last)."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        self.batch_size = _positive_int(batch_size, "batch_size")
        self.drop_last = _boolean(drop_last, "drop_last")
        self.sampler = sampler

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch:
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size  # type: ignore[arg-type]


__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler", "SubsetRandomSampler",
           "WeightedRandomSampler"]
