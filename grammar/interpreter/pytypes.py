"""Python's types as values of the language: `int`, `float`, `str`, `bool`, `list`, `tuple`, `dict` and
`torch.Tensor` are both constructors and types, so `isinstance(x, torch.Tensor)`, `type(x)` (printed as
`<class 'torch.Tensor'>`) and `type(x) == float` work as in Python; the built-ins that need types and
dictionaries (isinstance, type, dict, sorted, reversed, staticmethod, classmethod, hasattr) and the
two ways of formatting strings tutorials use besides f-strings, `"%.4f" % x` and `"{:.4f}".format(x)`."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import GeneratorType
from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError
from autodiff.grammar.interpreter import classes
from autodiff.grammar.interpreter.numpy_subset import NDArray
from autodiff.grammar.interpreter.pymodules import Counter
from autodiff.grammar.interpreter.values import DType, Function, display, format_field, gathered, hashable, kind, second


class TypeFunction(Function):
    """A type that is also a constructor: `float(x)` converts, `isinstance(x, float)` tests."""

    __slots__ = ("check", "shown")

    def __init__(self, shown: str, fn: Callable[..., Any], signature: str, check: Callable[[Any], bool]) -> None:
        super().__init__(shown.rsplit(".", 1)[-1] if not shown.startswith("torch.") else shown, fn, signature)
        self.shown, self.check = shown, check

    def __repr__(self) -> str:
        return f"<class '{self.shown}'>"


def legacy_tensor(dtype: str | None) -> Callable[..., Tensor]:
    """torch.Tensor / torch.FloatTensor / torch.DoubleTensor: from data, or zeros of the given sizes."""

    def construct(*args: Any) -> Tensor:
        if args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return engine.zeros(*args, dtype=dtype)
        if len(args) != 1:
            raise BadValueError("Tensor() takes the data (a number or nested lists), or sizes")
        data = args[0]
        return engine.tensor(list(data) if isinstance(data, tuple) else data, dtype=dtype)

    return construct


TENSOR_TYPE = TypeFunction("torch.Tensor", legacy_tensor(None), "Tensor(data)", lambda v: isinstance(v, Tensor))
_NUMBER = (int, float)


def _plain(python_type: type) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, python_type) and not isinstance(v, DType) if python_type is str else \
        isinstance(v, python_type)


def _isinstance(value: Any, types: Any) -> bool:
    candidates = types if isinstance(types, tuple) else (types,)
    for t in candidates:
        if isinstance(t, TypeFunction):
            if t.check(value):
                return True
        elif isinstance(t, classes.UserClass):
            if isinstance(value, classes.Instance) and t in value.cls.mro:
                return True
        elif isinstance(t, classes.TorchBase):
            if t is classes.NN_MODULE and isinstance(value, second("Module")):
                return True
            if t is classes.OBJECT or (isinstance(value, classes.UserClass) and t in value.mro):
                return True
        else:
            raise BadValueError(f"isinstance() arg 2 must be a type or tuple of types, not {kind(t)}",
                                reason="arguments")
    return False


def type_of(value: Any, types: dict[str, TypeFunction]) -> Any:
    """type(value): the type value for the language's values (a class for an instance of one)."""
    if isinstance(value, Tensor):
        return TENSOR_TYPE
    if isinstance(value, classes.Instance):
        return value.cls
    for name in ("bool", "int", "float", "str", "list", "tuple", "dict"):
        if types[name].check(value):
            return types[name]
    shown = "NoneType" if value is None else kind(value)
    return TypeFunction(shown, _no_constructor(shown), f"{shown}()", lambda v, s=shown: kind(v) == s)


def _no_constructor(shown: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise BadValueError(f"cannot create '{shown}' instances", reason="arguments")
    return refuse


def _dict(*args: Any, **kwargs: Any) -> dict:
    if len(args) > 1:
        raise BadValueError(f"dict expected at most 1 argument, got {len(args)}", reason="arguments")
    out: dict = {}
    if args:
        source = args[0]
        pairs = source.items() if isinstance(source, dict) else source
        if not isinstance(pairs, (list, tuple, zip, type({}.items()), GeneratorType, enumerate)):
            raise BadValueError(f"'{kind(source)}' object is not iterable as pairs", reason="arguments")
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise BadValueError("dictionary update sequence element has the wrong length; 2 is required",
                                    reason="arguments")
            out[hashable(pair[0])] = pair[1]
    out.update(kwargs)
    return out


def _has_attribute(value: Any, name: str, attribute: Callable[[Any, str], Any]) -> bool:
    if not isinstance(name, str):
        raise BadValueError("hasattr(): attribute name must be string", reason="arguments")
    try:
        attribute(value, name)
    except (BadValueError, engine.UnknownNameError):
        return False
    return True


def type_builtins(base: dict[str, Function], attribute: Callable[[Any, str], Any]) -> dict[str, Any]:
    """The types (replacing the plain constructors of `base`) and the built-ins that work with types."""
    checks = {"bool": _plain(bool), "int": lambda v: isinstance(v, int), "float": _plain(float),
              "str": _plain(str), "list": _plain(list), "tuple": lambda v: isinstance(v, tuple),
              "dict": _plain(dict)}
    types = {name: TypeFunction(name, base[name].fn if name in base else _dict, base[name].signature
                                if name in base else "dict(mapping=(), **kwargs)", check)
             for name, check in checks.items()}
    return {
        **types,
        "isinstance": Function("isinstance", _isinstance, "isinstance(object, type)"),
        "type": Function("type", lambda value: type_of(value, types), "type(object)"),
        "staticmethod": Function("staticmethod", classes.StaticMethod, "staticmethod(function)"),
        "classmethod": Function("classmethod", classes.ClassMethod, "classmethod(function)"),
        "object": classes.OBJECT,
        "sorted": Function("sorted", _sorted, "sorted(iterable, key=None, reverse=False)"),
        "reversed": Function("reversed", _reversed, "reversed(sequence)"),
        "hasattr": Function("hasattr", lambda value, name: _has_attribute(value, name, attribute),
                            "hasattr(object, name)"),
    }


ITERABLES = (range, list, tuple, str, enumerate, zip, dict, type({}.keys()), type({}.values()), type({}.items()),
             Counter, type(reversed(())), type(reversed([])), type(reversed(range(0))), GeneratorType)


def iterable_of(value: Any) -> Any:
    """What `for` and the built-ins may iterate: ranges, lists, tuples, strings, dictionaries (their keys) and
    their views, itertools.count, tensors (along dim 0)."""
    if isinstance(value, ITERABLES):  # engine.Size is a tuple
        return value
    if isinstance(value, NDArray):
        return list(value)
    if isinstance(value, second("ModuleList")):  # nn.Sequential and nn.ModuleList: their modules
        return iter(value)
    if isinstance(value, Tensor):
        if value.ndim == 0:
            raise BadValueError("iteration over a 0-d tensor", reason="iterate")
        return value
    raise BadValueError(f"'{kind(value)}' object is not iterable", reason="iterate")


def _items(iterable: Any) -> list:
    return gathered(iterable_of(iterable), "the iterable")



def _sorted(iterable: Any, key: Any = None, reverse: bool = False) -> list:
    items = _items(iterable)
    if key is not None and not callable(key) and not isinstance(key, Function):
        raise BadValueError(f"sorted(): key must be a function, not {kind(key)}", reason="arguments")
    try:
        return sorted(items, key=None if key is None else _sort_key(key), reverse=bool(reverse))
    except TypeError:
        raise BadValueError("sorted(): the items cannot be compared (numbers or strings only)",
                            reason="arguments") from None


def _sort_key(key: Any) -> Callable[[Any], Any]:
    """sorted's key=: a function of the script or a built-in; a one-element tensor it returns counts as its number."""
    call = key.fn if isinstance(key, Function) else key

    def value(item: Any) -> Any:
        found = call(item)
        return found.item() if isinstance(found, Tensor) and found.numel() == 1 else found

    return value


def _reversed(sequence: Any) -> Any:
    if isinstance(sequence, (list, tuple, range, str)):
        return reversed(sequence)
    raise BadValueError(f"'{kind(sequence)}' object is not reversible", reason="arguments")


# ---------------------------------------------------------------------------- formatting
_PERCENT = (r"%(?:\((?P<key>[^)]*)\))?"  # compiled at the first use of % on a string (re caches it)
            r"(?P<spec>[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%]))")


def percent_format(text: str, values: Any) -> str:
    """`text % values` as Python formats it: a one-element tensor counts as its number for numeric conversions."""
    mapping = values if isinstance(values, dict) else None
    items = list(values) if isinstance(values, tuple) else [values]
    out, last, used = [], 0, 0
    for m in re.finditer(_PERCENT, text):
        out.append(text[last:m.start()])
        last = m.end()
        conv, spec = m.group("conv"), m.group("spec")
        if conv == "%":
            out.append("%")
            continue
        if "*" in spec:
            raise BadValueError("'*' widths are not supported in % formatting: write the width", reason="format")
        if m.group("key") is not None and mapping is not None:
            value = mapping.get(m.group("key"))
        elif used < len(items):
            value, used = items[used], used + 1
        else:
            raise BadValueError("not enough arguments for format string", reason="format")
        out.append(_one_percent(spec, conv, value))
    if mapping is None and used < len(items):
        raise BadValueError("not all arguments converted during string formatting", reason="format")
    out.append(text[last:])
    return "".join(out)


def _one_percent(spec: str, conv: str, value: Any) -> str:
    if conv == "s":
        value = display(value)
    elif conv in "ra":
        value = repr(value)
        spec = spec[:-1] + "s"
    elif isinstance(value, Tensor):
        if value.numel() != 1:
            raise BadValueError(f"%{conv} format: a number is required, not a tensor of {value.numel()} elements",
                                reason="format")
        value = value.item() if value.dtype.kind == "f" else int(value.tolist() if value.ndim == 0 else value.item())
    elif not isinstance(value, _NUMBER):
        raise BadValueError(f"%{conv} format: a real number is required, not {kind(value)}", reason="format")
    try:
        return ("%" + spec) % value
    except (TypeError, ValueError) as error:
        raise BadValueError(f"% formatting: {error}", reason="format") from None


def str_format(text: str, *args: Any, **kwargs: Any) -> str:
    """`text.format(...)`: fields by position (`{}`, `{0}`) or by name, with conversions and format specs; no
    attribute or index inside a field (`{0.grad}`): format the value first."""
    out, auto = [], 0
    try:
        import string  # str.format only (scripts)

        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise BadValueError(f"format(): {error}", reason="format") from None
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if "{" in (spec or ""):
            raise BadValueError("nested fields in a format spec are not supported: write the spec out", reason="format")
        if field == "":
            field, auto = str(auto), auto + 1
        if field.isdigit():
            index = int(field)
            if index >= len(args):
                raise BadValueError(f"Replacement index {index} out of range for positional args tuple",
                                    reason="format")
            value = args[index]
        elif field.isidentifier():
            if field not in kwargs:
                raise BadValueError(f"format(): no keyword argument '{field}'", reason="format")
            value = kwargs[field]
        else:
            raise BadValueError(f"format(): the field '{{{field}}}' reads an attribute or an index; compute the value "
                                "first and pass it", reason="format")
        out.append(format_field(value, conversion or "", spec or ""))
    return "".join(out)


def string_method(text: str, attr: str) -> Function | None:
    """The str methods scripts use: format, join, upper, lower, strip, split, replace, startswith, endswith."""
    methods: dict[str, Callable[..., Any]] = {
        "format": lambda *a, **k: str_format(text, *a, **k),
        "join": lambda items: text.join(_strings(items)),
        "upper": text.upper, "lower": text.lower, "title": text.title, "capitalize": text.capitalize,
        "strip": lambda chars=None: text.strip(chars), "lstrip": lambda chars=None: text.lstrip(chars),
        "rstrip": lambda chars=None: text.rstrip(chars),
        "split": lambda sep=None, maxsplit=-1: text.split(sep, maxsplit),
        "replace": lambda old, new, count=-1: text.replace(old, new, count),
        "startswith": lambda prefix: text.startswith(prefix), "endswith": lambda suffix: text.endswith(suffix),
        "center": lambda width, fill=" ": text.center(width, fill), "ljust": lambda width, fill=" ": text.ljust(
            width, fill), "rjust": lambda width, fill=" ": text.rjust(width, fill),
        "count": lambda sub: text.count(sub), "find": lambda sub: text.find(sub),
    }
    fn = methods.get(attr)
    return None if fn is None else Function(attr, fn, f"str.{attr}(...)")


def _strings(items: Any) -> list[str]:
    values = _items(items)
    for v in values:
        if not isinstance(v, str):
            raise BadValueError(f"sequence item: expected str instance, {kind(v)} found", reason="arguments")
    return values


__all__ = ["ITERABLES", "TENSOR_TYPE", "TypeFunction", "iterable_of", "legacy_tensor", "percent_format",
           "str_format", "string_method", "type_builtins", "type_of"]
