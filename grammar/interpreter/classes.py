"""Classes of the script, as Python has them where tutorials use them: a class statement's body makes the
class's attributes (methods, class attributes, @staticmethod and @classmethod functions); calling the class
makes an instance and runs its `__init__`; `obj.method(...)` passes the instance as `self`; calling an
instance runs its `__call__`; inheritance from other classes of the script (Python's method order) and from
the torch bases autodiff provides: `torch.autograd.Function`, whose subclasses' `apply` records one node
named as PyTorch names it (`ExpBackward`), with the class's static forward and backward.

These are the language's own values, never Python classes: `__init__` and `__call__` may be defined and are
run by the interpreter, but no name with two leading underscores can be read (`obj.__dict__`,
`Exp.__init__`), apart from `super().__init__(...)`.
"""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.engine.errors import BadValueError, UnknownNameError
from autodiff.grammar.interpreter.callables import bind
from autodiff.grammar.interpreter.nnmembers import is_module, module_member
from autodiff.grammar.interpreter.values import Function, UserFunction, kind, second

ALLOWED_DUNDERS = ("__init__", "__call__")  # the special methods a class body may define (run by the interpreter)


class TorchBase:
    """A base class autodiff provides (torch.autograd.Function), or Python's `object`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<class '{self.name}'>"


AUTOGRAD_FUNCTION = TorchBase("torch.autograd.function.Function")
NN_MODULE = TorchBase("torch.nn.modules.module.Module")
OBJECT = TorchBase("object")


class StaticMethod:
    """@staticmethod around a function: read from the class or an instance, it is the function itself."""

    __slots__ = ("function",)

    def __init__(self, function: Any) -> None:
        self.function = function

    def __repr__(self) -> str:
        return f"<staticmethod({self.function!r})>"


class ClassMethod:
    """@classmethod around a function: read from the class or an instance, it takes the class first."""

    __slots__ = ("function",)

    def __init__(self, function: Any) -> None:
        self.function = function

    def __repr__(self) -> str:
        return f"<classmethod({self.function!r})>"


class UserClass:
    """A class of the script: its name, its bases, its attributes and its method resolution order."""

    __slots__ = ("bases", "interpreter", "members", "mro", "name")

    def __init__(self, name: str, bases: tuple, members: dict[str, Any], interpreter: Any) -> None:
        self.name, self.bases, self.members, self.interpreter = name, bases, members, interpreter
        self.mro = _linearize(self)

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.interpreter.call_value(self, list(args), kwargs)

    @property
    def is_function(self) -> bool:
        """True for a subclass of torch.autograd.Function."""
        return AUTOGRAD_FUNCTION in self.mro

    def find(self, attr: str) -> tuple[bool, Any, UserClass]:
        """(found, value, the class that has it) of a class attribute, along the method resolution order."""
        for cls in self.mro:
            if isinstance(cls, UserClass) and attr in cls.members:
                return True, cls.members[attr], cls
        return False, None, self


class Instance:
    """An object of a class of the script: its class and its own attributes (`self.w = ...`)."""

    __slots__ = ("attributes", "cls")

    def __init__(self, cls: UserClass) -> None:
        self.cls, self.attributes = cls, {}

    def __repr__(self) -> str:
        return f"<__main__.{self.cls.name} object at {id(self):#x}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.cls.interpreter.call_value(self, list(args), kwargs)


_MODULE_OBJECT: list[type] = []  # the class below, made when a script's class first derives from nn.Module


def module_object_class() -> type:
    """The class of objects of a script's nn.Module subclasses (made on first use: it derives from the engine's
    Module, which `autodiff eval` never needs to load)."""
    if _MODULE_OBJECT:
        return _MODULE_OBJECT[0]

    class ModuleObject(Instance, engine.Module):
        """An object of a script's nn.Module subclass: an Instance of its class, and an engine Module whose
        registered parameters and submodules are the ones its attributes were assigned (nn.Module's __setattr__);
        calling it runs the class's forward."""

        def __init__(self, cls: UserClass) -> None:
            Instance.__init__(self, cls)
            engine.Module.__init__(self)
            self.initialized = False  # nn.Module.__init__ ran (super().__init__()): parameters may be assigned

        __call__ = Instance.__call__
        __repr__ = engine.Module.__repr__

        def type_name(self) -> str:
            return self.cls.name

        def extra_repr(self) -> str:
            found, method, where = self.cls.find("extra_repr")
            if not found:
                return ""
            text = self.cls.interpreter.call_value(_bound(method, self, where), [], {})
            if not isinstance(text, str):
                raise BadValueError(f"{self.cls.name}.extra_repr() must return a string, not {kind(text)}",
                                    reason="class")
            return text

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            return self.cls.interpreter.call_value(self, list(args), kwargs)

    _MODULE_OBJECT.append(ModuleObject)
    return ModuleObject


def is_module_object(value: Any) -> bool:
    """Whether value is an object of a script's nn.Module subclass."""
    return bool(_MODULE_OBJECT) and isinstance(value, _MODULE_OBJECT[0])


class BoundMethod:
    """A function of a class read from an instance (or, for a classmethod, from the class): it takes the owner
    first. `cls` is the class that defines it (where `super()` inside it starts looking)."""

    __slots__ = ("cls", "function", "owner")

    def __init__(self, function: Any, owner: Any, cls: UserClass) -> None:
        self.function, self.owner, self.cls = function, owner, cls

    def __repr__(self) -> str:
        name = self.function.name if isinstance(self.function, (UserFunction, Function)) else "method"
        return f"<bound method {name} of {self.owner!r}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _interpreter(self.owner).call_value(self, list(args), kwargs)


class Super:
    """`super()` in a method: the owner's attributes from the class after `cls` in its method order."""

    __slots__ = ("cls", "owner")

    def __init__(self, cls: UserClass, owner: Any) -> None:
        self.cls, self.owner = cls, owner

    def __repr__(self) -> str:
        return f"<super: <class '{self.cls.name}'>, <{kind(self.owner)} object>>"


CALLABLE = (UserClass, Instance, BoundMethod)
OBJECTS = (UserClass, Instance, Super)  # the values whose attributes this module reads


def _interpreter(owner: Any) -> Any:
    return owner.interpreter if isinstance(owner, UserClass) else owner.cls.interpreter


def _linearize(cls: UserClass) -> list:
    """Python's C3 method resolution order, without recursion (each base already has its own)."""
    sequences = [list(b.mro) if isinstance(b, UserClass) else [b] for b in cls.bases] + [list(cls.bases)]
    order: list = [cls]
    while True:
        sequences = [s for s in sequences if s]
        if not sequences:
            break
        for sequence in sequences:
            head = sequence[0]
            if not any(head in s[1:] for s in sequences):
                break
        else:
            raise BadValueError(f"Cannot create a consistent method resolution order (MRO) for bases of {cls.name}",
                                reason="class")
        order.append(head)
        for s in sequences:
            if s[0] is head:
                del s[0]
    if OBJECT not in order:
        order.append(OBJECT)
    return order


def make_class(interp: Any, name: str, bases: list, members: dict[str, Any]) -> UserClass:
    """The class of a class statement, its body's names given."""
    for base in bases:
        if not isinstance(base, (UserClass, TorchBase)):
            hint = None
            if isinstance(base, Function) and base.name.startswith("torch.nn"):
                hint = ("a script's class may subclass nn.Module (not the layers autodiff provides): hold the layer as "
                        "an attribute, self.layer = nn.Linear(...)")
            raise BadValueError(f"class {name}: a base class must be a class, not {kind(base)}", hint=hint,
                                reason="class")
    for attr in members:
        if attr.startswith("__") and attr not in ALLOWED_DUNDERS:
            raise BadValueError(f"class {name}: the special method {attr} is not part of the language (only "
                                f"{' and '.join(ALLOWED_DUNDERS)} are)", reason="class")
    return UserClass(name, tuple(bases), members, interp)


def attribute(value: Any, attr: str) -> Any:
    """`obj.attr` on a class of the script, an instance, a bound method's owner or super()."""
    if attr.startswith("__") and not (isinstance(value, Super) and attr == "__init__"):
        raise UnknownNameError(f"'{attr}': names starting with '__' are not part of the language", reason="private")
    if isinstance(value, Instance):
        if attr in value.attributes:
            return value.attributes[attr]
        found, member, where = value.cls.find(attr)
        if found:
            return _bound(member, value, where)
        if is_module_object(value):  # nn.Module's methods, then its registered parameters and submodules
            return module_member(value, attr)
        raise _missing(f"'{value.cls.name}' object", attr)
    if isinstance(value, UserClass):
        found, member, where = value.find(attr)
        if found:
            return _bound(member, None, where)
        if attr == "apply" and value.is_function:
            return _apply_of(value)
        raise _missing(f"type object '{value.name}'", attr)
    if isinstance(value, Super):
        return _super_attribute(value, attr)
    raise _missing(kind(value), attr)


def _bound(member: Any, instance: Any, cls: UserClass) -> Any:
    if isinstance(member, StaticMethod):
        return member.function
    if isinstance(member, ClassMethod):
        return BoundMethod(member.function, cls, cls)
    if instance is not None and isinstance(member, (UserFunction, Function)):
        return BoundMethod(member, instance, cls)
    return member


def _super_attribute(value: Super, attr: str) -> Any:
    owner_cls = value.owner.cls if isinstance(value.owner, Instance) else value.owner
    order = owner_cls.mro
    start = order.index(value.cls) + 1 if value.cls in order else len(order)
    for cls in order[start:]:
        if isinstance(cls, UserClass) and attr in cls.members:
            member = cls.members[attr]
            if isinstance(value.owner, UserClass) and isinstance(member, (UserFunction, Function)):
                return member
            return _bound(member, value.owner if isinstance(value.owner, Instance) else None, cls)
    if attr == "__init__":  # object.__init__ (or a torch base's): nothing to do; nn.Module's readies the module
        owner = value.owner
        if is_module_object(owner) and NN_MODULE in order[start:]:
            return Function("__init__", lambda: setattr(owner, "initialized", True), "__init__()")
        return Function("__init__", lambda: None, "__init__()")
    raise _missing("'super' object", attr)


def _missing(owner: str, attr: str) -> UnknownNameError:
    return UnknownNameError(f"{owner} has no attribute '{attr}'", reason="attribute")


def set_attribute(owner: Any, attr: str, value: Any) -> None:
    """`obj.attr = value` on an instance or a class of the script."""
    if attr.startswith("__"):
        raise BadValueError(f"'{attr}': names starting with '__' cannot be assigned", reason="attribute")
    if is_module_object(owner) and (is_module(value) or isinstance(value, second("Parameter"))) \
            and not owner.initialized:
        what = "module" if is_module(value) else "parameters"
        raise BadValueError(f"cannot assign {what} before Module.__init__() call",
                            hint="call super().__init__() first in __init__", reason="module_init")
    if is_module_object(owner) and owner.assign(attr, value):
        owner.attributes.pop(attr, None)
    elif isinstance(owner, Instance):
        owner.attributes[attr] = value
    else:
        owner.members[attr] = value


def _apply_of(cls: UserClass) -> Function:
    """`MyFunction.apply`: the class's forward and backward as a custom autograd Function."""
    forward = _static(cls, "forward")
    found, setup, _ = cls.find("setup_context")
    setup_context = _callable(setup) if found else None
    found, jvp_member, _ = cls.find("jvp")
    jvp = _callable(jvp_member) if found else None
    backward = _static(cls, "backward") if jvp is None or cls.find("backward")[0] else _no_backward

    def apply(*args: Any, **kwargs: Any) -> Any:
        if setup_context is not None and isinstance(forward, UserFunction):
            # PyTorch gives setup_context every input of forward, its defaults included
            scope = bind(forward, args, kwargs)
            star = scope.get(forward.params.star, ()) if forward.params.star else ()
            args, kwargs = (*(scope[n] for n in forward.params.names), *star), {}
        return engine.apply_function(f"{cls.name}Backward", forward, backward, args, kwargs, setup_context, jvp)

    return Function(f"{cls.name}.apply", apply, "apply(*args)")


def _no_backward(ctx: Any, *grads: Any) -> Any:
    """The backward of a Function that defines only jvp (forward mode): reached only by a backward pass."""
    raise engine.AutogradError("You must implement either the backward or vjp method for your custom "
                               "autograd.Function to use it with backward mode AD.", reason="custom_function")


def _static(cls: UserClass, name: str) -> Any:
    found, member, _ = cls.find(name)
    if not found:
        raise BadValueError(f"{cls.name}.apply: the class defines no {name}(ctx, ...) (a torch.autograd.Function "
                            f"subclass needs a static forward and backward)", reason="class")
    return _callable(member)


def _callable(member: Any) -> Any:
    """The Python callable the engine calls for a forward, backward or setup_context."""
    if isinstance(member, (StaticMethod, ClassMethod)):
        member = member.function
    if isinstance(member, Function):
        return member.fn
    return member


def construct(interp: Any, cls: UserClass, args: list, kwargs: dict) -> Instance:
    """`Cls(...)`: a new instance, its `__init__` run."""
    instance = module_object_class()(cls) if NN_MODULE in cls.mro else Instance(cls)
    found, init, where = cls.find("__init__")
    if found:
        result = interp.call_value(_bound(init, instance, where), args, kwargs)
        if result is not None:
            raise BadValueError(f"__init__() should return None, not '{kind(result)}'", reason="class")
    elif args or kwargs:
        raise BadValueError(f"{cls.name}() takes no arguments", reason="arguments")
    return instance


def call(interp: Any, function: Any, args: list, kwargs: dict) -> Any:
    """Call a class (construct), an instance (its __call__) or a bound method (the owner first)."""
    if isinstance(function, UserClass):
        return construct(interp, function, args, kwargs)
    if isinstance(function, Instance):
        found, method, where = function.cls.find("__call__")
        if not found and is_module_object(function):
            found, method, where = function.cls.find("forward")
            if not found:
                raise BadValueError(f'Module [{function.cls.name}] is missing the required "forward" function',
                                    reason="forward")
        if not found:
            raise BadValueError(f"'{function.cls.name}' object is not callable", reason="not_callable")
        return interp.call_value(_bound(method, function, where), args, kwargs)
    interp.methods.append((function.cls, function.owner))  # for super() inside it
    try:
        return interp.call_value(function.function, [function.owner, *args], kwargs)
    finally:
        interp.methods.pop()


def make_super(interp: Any, *args: Any) -> Super:
    """`super()` inside a method (its class and its first argument), or `super(Cls, obj)`."""
    if args:
        if len(args) != 2 or not isinstance(args[0], UserClass):
            raise BadValueError("super() takes no arguments in a method, or super(Class, object)", reason="arguments")
        return Super(args[0], args[1])
    if not interp.methods:
        raise BadValueError("super(): no arguments, outside a method of a class", reason="arguments")
    cls, owner = interp.methods[-1]
    return Super(cls, owner)
