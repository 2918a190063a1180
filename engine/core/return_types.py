"""The named tuples PyTorch's functions return (torch.return_types.sort, .max, .linalg_eigh, ...): a tuple
whose items are also fields (`values`, `indices`), printed as PyTorch prints them."""

from __future__ import annotations

from typing import Any


class ReturnTuple(tuple):
    """A torch.return_types tuple: its items by position or by field name."""

    __slots__ = ()
    type_name = "return_type"
    fields: tuple[str, ...] = ()

    def __new__(cls, *items: Any) -> ReturnTuple:
        if len(items) != len(cls.fields):
            raise TypeError(f"torch.return_types.{cls.type_name} takes {len(cls.fields)} items, got {len(items)}")
        return super().__new__(cls, items)

    def __getattr__(self, name: str) -> Any:
        fields = type(self).fields
        if name in fields:
            return self[fields.index(name)]
        raise AttributeError(name)

    def __repr__(self) -> str:
        items = ",\n".join(f"{name}={value!r}" for name, value in zip(self.fields, self))
        return f"torch.return_types.{self.type_name}(\n{items})"

    def __reduce__(self) -> Any:
        return (type(self), tuple(self))


def return_type(name: str, fields: tuple[str, ...]) -> type[ReturnTuple]:
    """The class of torch.return_types.NAME with these fields."""
    return type(name, (ReturnTuple,), {"__slots__": (), "type_name": name, "fields": tuple(fields)})
