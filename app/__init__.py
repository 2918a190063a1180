"""autodiff.app: what the commands do, without click: one eval run (session), checking and gradcheck,
the graph as records and the graph observed through a backward pass, and the explanation of a pass.

It uses the language (autodiff.grammar) and the engine (autodiff.engine) through their public APIs; the
command line (autodiff.cli) turns options into its requests and renders its results."""


class Record:
    """A record of this layer, written out rather than made by `dataclasses` (whose class creation costs every
    start-up: README, start-up): its fields are its `__slots__`, and repr() shows them. A record that compares
    by its fields sets `__eq__ = Record.same_fields` (and is then unhashable, as a dataclass with eq is)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"

    def same_fields(self, other: object) -> bool:
        """Equal when of the same class with equal fields (as a dataclass's __eq__)."""
        if type(other) is not type(self):
            return NotImplemented
        return tuple(getattr(self, n) for n in self.__slots__) == tuple(getattr(other, n) for n in self.__slots__)
