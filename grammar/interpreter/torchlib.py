"""The parts of torch that are more than built-ins: the rest of torch.autograd (Function, gradcheck,
gradgradcheck, Variable, functional, forward_ad), torch.func, and devices as no-ops on the CPU (torch.device,
torch.cuda.is_available() is False, `device=` keywords, `x.to(device)`, `x.device`): a CUDA device is a clear
error saying the CPU runs everything."""

from __future__ import annotations

from typing import Any

from autodiff import engine
from autodiff.engine import Tensor
from autodiff.engine.errors import BadValueError
from autodiff.grammar.interpreter.values import PRINTED_AS_STR, DType, Function, Namespace, kind, second

NO_CUDA = ("CUDA is not available: autodiff runs everything on the CPU (its tensors are numpy arrays); "
           "use device='cpu', or leave device= out")


class Device:
    """torch.device("cpu"): printed as PyTorch prints it; any other device type can be named, not used."""

    __slots__ = ("index", "type")

    def __init__(self, type: Any = "cpu", index: int | None = None) -> None:
        if isinstance(type, Device):
            type, index = type.type, type.index
        if not isinstance(type, str):
            raise BadValueError(f"torch.device(): expected a string such as 'cpu', got {kind(type)}", reason="device")
        name, _, number = type.partition(":")
        if name not in ("cpu", "cuda", "mps", "xpu", "meta"):
            raise BadValueError(f"Expected one of cpu, cuda, mps, xpu, meta device type at start of device string: "
                                f"{type}", reason="device")
        self.type = name
        self.index = int(number) if number.isdigit() else index

    def __repr__(self) -> str:
        return f"device(type='{self.type}'" + (f", index={self.index})" if self.index is not None else ")")

    def __str__(self) -> str:
        return self.type + (f":{self.index}" if self.index is not None else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = Device("cpu")
PRINTED_AS_STR.append(Device)


def check_device(device: Any) -> None:
    """A device a tensor may be put on: the CPU (None, 'cpu', torch.device('cpu')); CUDA and others refused."""
    if device is None:
        return
    if isinstance(device, int) and not isinstance(device, bool):
        raise BadValueError(NO_CUDA, reason="device")
    target = device if isinstance(device, Device) else Device(device) if isinstance(device, str) else None
    if target is None:
        raise BadValueError(f"expected a device ('cpu' or torch.device('cpu')), got {kind(device)}", reason="device")
    if target.type != "cpu":
        raise BadValueError(NO_CUDA if target.type == "cuda" else f"the {target.type} device is not available: "
                            "autodiff runs everything on the CPU", reason="device")


def is_device(value: Any) -> bool:
    """A device argument (for x.to(...)): a torch.device or a string naming a device."""
    return isinstance(value, Device) or (isinstance(value, str) and not isinstance(value, DType)
                                         and value.partition(":")[0] in ("cpu", "cuda", "mps", "xpu", "meta"))


def tensor_to(t: Tensor) -> Function:
    """x.to(device), x.to(dtype), x.to(device, dtype), x.to(other_tensor), with non_blocking/copy accepted."""

    def to(*args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False, copy: bool = False) -> Tensor:
        target = dtype
        for arg in args:
            if is_device(arg):
                check_device(arg)
            elif isinstance(arg, Tensor):
                target = arg.dtype.name
            elif target is None:
                target = arg
            else:
                raise BadValueError("to(): too many arguments (usage: to(device), to(dtype), to(device, dtype))",
                                    reason="arguments")
        check_device(device)
        result = t if target is None else engine.to(t, target)
        return engine.clone(result) if copy and result is t else result

    return Function("to", to, "to(device=None, dtype=None, non_blocking=False, copy=False)")


def cpu_or_cuda(t: Tensor, attr: str) -> Any:
    """x.device, x.is_cuda, x.cpu(), x.cuda()."""
    if attr == "device":
        return CPU
    if attr == "is_cuda":
        return False
    if attr == "cpu":
        return Function("cpu", lambda: t, "cpu()")

    def cuda(*args: Any, **kwargs: Any) -> Tensor:
        raise BadValueError(NO_CUDA, hint="remove .cuda(), or write .to(device) with device = torch.device('cpu')",
                            reason="device")

    return Function("cuda", cuda, "cuda()")


TENSOR_DEVICE_MEMBERS = ("device", "is_cuda", "cpu", "cuda")
# The `_as` methods, which take their shape (or dtype) from another tensor, recorded as the op they apply
SHAPED_LIKE = {
    "expand_as": lambda t, other: engine.expand(t, *other.shape),
    "view_as": lambda t, other: engine.view(t, *other.shape),
    "reshape_as": lambda t, other: engine.reshape(t, *other.shape),
    "type_as": lambda t, other: t if t.dtype == other.dtype else engine.to(t, other.dtype.name),
}


def shaped_like(t: Tensor, attr: str) -> Function:
    """x.expand_as(y), x.view_as(y), x.reshape_as(y), x.type_as(y)."""
    method = SHAPED_LIKE[attr]

    def call(other: Any) -> Tensor:
        if not isinstance(other, Tensor):
            raise BadValueError(f"{attr}() needs a tensor, got {kind(other)}", reason="arguments")
        return method(t, other)

    return Function(attr, call, f"{attr}(other)")


def _variable(data: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:
    """torch.autograd.Variable(t, requires_grad=...): deprecated; a new leaf on the same memory, as PyTorch's."""
    if not isinstance(data, Tensor):
        raise BadValueError(f"Variable data has to be a tensor, but got {kind(data)}", reason="arguments")
    return data.detach().requires_grad_(bool(requires_grad))


def _function(name: str, fn: Any, usage: str) -> Function:
    return Function(name, fn, usage)


def autograd_extras() -> dict[str, Any]:
    """Members of torch.autograd besides grad, backward and Function."""
    functional = Namespace("torch.autograd.functional", {
        "jacobian": _function("jacobian", engine.jacobian, "jacobian(func, inputs, create_graph=False, strict=False, "
                              "vectorize=False, strategy='reverse-mode')"),
        "hessian": _function("hessian", engine.hessian, "hessian(func, inputs, create_graph=False, strict=False, "
                             "vectorize=False, outer_jacobian_strategy='reverse-mode')"),
        **{name: _function(name, fn, f"{name}(func, inputs, v=None, create_graph=False, strict=False)")
           for name, fn in (("vjp", engine.vjp), ("jvp", engine.jvp), ("hvp", engine.hvp), ("vhp", engine.vhp))},
    })
    forward_ad = Namespace("torch.autograd.forward_ad", {
        "dual_level": _function("dual_level", engine.dual_level, "dual_level()"),
        "make_dual": _function("make_dual", engine.make_dual, "make_dual(tensor, tangent, *, level=None)"),
        "unpack_dual": _function("unpack_dual", engine.unpack_dual, "unpack_dual(tensor, *, level=None)"),
        "enter_dual_level": _function("enter_dual_level", engine.enter_dual_level, "enter_dual_level()"),
        "exit_dual_level": _function("exit_dual_level", engine.exit_dual_level, "exit_dual_level(*, level=None)"),
    })
    return {
        "functional": functional,
        "forward_ad": forward_ad,
        "gradcheck": _function("gradcheck", engine.gradcheck, "gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, "
                               "rtol=0.001, raise_exception=True)"),
        "gradgradcheck": _function("gradgradcheck", engine.gradgradcheck, "gradgradcheck(func, inputs, "
                                   "grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001)"),
        "Variable": _function("Variable", _variable, "Variable(data, requires_grad=False)"),
    }


def _transform(name: str, make: Any, usage: str) -> Function:
    """A torch.func transform: its result, a function, is a value of the language too."""

    def transform(*args: Any, **kwargs: Any) -> Function:
        return Function(f"{name}(...)", make(*args, **kwargs), "(*args)")

    return Function(name, transform, usage)


def _vjp(*args: Any, **kwargs: Any) -> tuple:
    result = engine.func.vjp(*args, **kwargs)
    return (result[0], Function("vjp_fn", result[1], "vjp_fn(cotangent)"), *result[2:])


def _vmap(func: Any, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
          chunk_size: Any = None) -> Function:
    mapped = engine.func.vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)
    return Function(f"vmap({getattr(func, 'name', 'func')})", mapped, "(*args, **kwargs)")


VMAP = Function("vmap", _vmap, "vmap(func, in_dims=0, out_dims=0, randomness='error', *, chunk_size=None)")


def func_module() -> Namespace:
    """torch.func: grad, vjp, jacrev (reverse mode), jvp, jacfwd (forward mode), hessian, vmap (a loop),
    functional_call and stack_module_state."""
    func = engine.func
    return Namespace("torch.func", {
        "vmap": VMAP,
        "functional_call": _function("functional_call", func.functional_call, "functional_call(module, "
                                     "parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, "
                                     "strict=False)"),
        "stack_module_state": _function("stack_module_state", func.stack_module_state, "stack_module_state(models)"),
        "grad": _transform("grad", func.grad, "grad(func, argnums=0, has_aux=False)"),
        "vjp": _function("vjp", _vjp, "vjp(func, *primals, has_aux=False)"),
        "jacrev": _transform("jacrev", func.jacrev, "jacrev(func, argnums=0, has_aux=False)"),
        "jvp": _function("jvp", func.jvp, "jvp(func, primals, tangents, *, strict=False, has_aux=False)"),
        "jacfwd": _transform("jacfwd", func.jacfwd, "jacfwd(func, argnums=0, has_aux=False)"),
        "hessian": _transform("hessian", func.hessian, "hessian(func, argnums=0)"),
    })


def device_members() -> dict[str, Any]:
    """torch.device, torch.cuda, torch.backends, torch.set_default_device, torch.from_numpy's neighbours."""
    def set_default_device(device: Any) -> None:
        check_device(device)

    cuda = Namespace("torch.cuda", {
        "is_available": Function("torch.cuda.is_available", lambda: False, "is_available()"),
        "device_count": Function("torch.cuda.device_count", lambda: 0, "device_count()"),
    })
    backends = Namespace("torch.backends", {"mps": Namespace("torch.backends.mps", {
        "is_available": Function("torch.backends.mps.is_available", lambda: False, "is_available()")})})
    accelerator = Namespace("torch.accelerator", {  # no accelerator: as PyTorch on a machine without one
        "is_available": Function("torch.accelerator.is_available", lambda: False, "is_available()"),
        "current_accelerator": Function("torch.accelerator.current_accelerator", lambda check_available=False: None,
                                        "current_accelerator(check_available=False)"),
        "device_count": Function("torch.accelerator.device_count", lambda: 0, "device_count()"),
    })
    return {
        "device": Function("torch.device", Device, "device(type, index=None)"),
        "cuda": cuda,
        "accelerator": accelerator,
        "backends": backends,
        "set_default_device": Function("set_default_device", set_default_device, "set_default_device(device)"),
        "get_default_device": Function("get_default_device", lambda: CPU, "get_default_device()"),
    }


NO_TIMINGS = ("the profiler's timings are not available in autodiff (it runs the code inside `with "
              "torch.autograd.profiler.profile()` and records nothing)")


class Profile(Namespace):
    """`with torch.autograd.profiler.profile(...) as prf:` runs its block; what the profiler measured
    (prf.key_averages(), prf.table(), ...) is not available, and says so."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        def refused(*a: Any, **k: Any) -> None:
            raise BadValueError(NO_TIMINGS, hint="drop the timing print; time a script with `time autodiff run "
                                "script.py`", reason="profiler")
        names = ("key_averages", "table", "total_average", "export_chrome_trace", "events", "self_cpu_time_total")
        super().__init__("profile", {name: Function(f"profile.{name}", refused) for name in names})

    def __repr__(self) -> str:
        return "<torch.autograd.profiler.profile object>"

    def __enter__(self) -> Profile:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None


def profiler_module() -> Namespace:
    """torch.autograd.profiler: profile and record_function run their block and measure nothing."""
    return Namespace("torch.autograd.profiler", {
        "profile": Function("torch.autograd.profiler.profile", Profile,
                            "profile(enabled=True, *, use_cuda=False, record_shapes=False, ...)"),
        "record_function": Function("torch.autograd.profiler.record_function", Profile, "record_function(name)"),
    })


def _make_functional(model: Any, buffers: bool) -> tuple:
    """functorch.make_functional[_with_buffers](model): (func, params[, buffers]), func(params[, buffers], *args)
    calling the model with those tensors (torch.func.functional_call)."""
    if not isinstance(model, second("Module")):
        raise BadValueError(f"make_functional: expected a torch.nn.Module, got {kind(model)}", reason="arguments")
    names = [name for name, _ in model.named_parameters()]
    buffer_names = [name for name, _ in model.named_buffers()] if buffers else []
    params = tuple(p for _, p in model.named_parameters())

    def call(params: Any, *rest: Any, **kwargs: Any) -> Any:
        values = dict(zip(names, params))
        args = rest
        if buffers:
            values.update(zip(buffer_names, rest[0] if rest else ()))
            args = rest[1:]
        return engine.func.functional_call(model, values, tuple(args), kwargs)
    func = Function("FunctionalModule", call, "func(params, buffers, *args)" if buffers else "func(params, *args)")
    if buffers:
        return func, params, tuple(b for _, b in model.named_buffers())
    return func, params


def functorch_module() -> Namespace:
    """functorch, PyTorch's deprecated name of torch.func (older tutorials import it): its transforms, and
    make_functional / make_functional_with_buffers over functional_call."""
    members = dict(func_module().members)
    members["make_functional"] = Function("functorch.make_functional", lambda m: _make_functional(m, False),
                                          "make_functional(model)")
    members["make_functional_with_buffers"] = Function(
        "functorch.make_functional_with_buffers", lambda m: _make_functional(m, True),
        "make_functional_with_buffers(model)")
    return Namespace("functorch", members)
