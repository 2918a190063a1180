"""torch.nn in scripts: nn.Parameter, a script's nn.Module subclass registering its parameters and submodules,
Linear with PyTorch's initialisation under manual_seed, Sequential, printing a model as PyTorch prints it."""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from scripting import run_script

from autodiff import engine
from autodiff.engine.nn.function_modules import NN_MODULES

MODEL = """\
import torch
import torch.nn as nn

torch.manual_seed(0)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.scale = nn.Parameter(torch.ones(1))
        self.fc2 = nn.Linear(4, 1, bias=False)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) * self.scale

m = Model()
print(m)
for name, p in m.named_parameters():
    print(name, p.shape)
x = torch.randn(4, 3)
out = m(x).sum()
out.backward()
print(out)
print(m.fc1.weight.grad)
print(list(m.parameters())[1])
seq = nn.Sequential(nn.Linear(3, 2), nn.Sequential(nn.Linear(2, 2)), m)
print(seq)
print(seq[0], len(seq), seq[-1] is m)
print(m.state_dict())
print(isinstance(m, nn.Module), isinstance(seq[0], nn.Linear))
print(m.training, m.eval().training, m.fc1.training)
y = seq[0](x)
print(y.grad_fn.name(), y.grad_fn.next_functions[1], y.grad_fn.next_functions[2][0].name())
"""


def run(source: str) -> tuple[int, str]:
    code, stdout, _ = run_script(source)
    return code, stdout


def with_torch(source: str) -> str:
    pytest.importorskip("torch")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<script>", "exec"), {})  # the test's own script, run by real PyTorch
    return out.getvalue()


def normalized(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x...", text)


def test_a_script_model_registers_prints_and_trains_as_pytorch():
    code, ours = run(MODEL)
    assert code == 0, ours
    assert "Model(\n  (fc1): Linear(in_features=3, out_features=4, bias=True)\n" in ours
    assert "scale torch.Size([1])\nfc1.weight torch.Size([4, 3])" in ours
    assert "AddmmBackward0 (None, 0) TBackward0" in ours
    assert normalized(ours) == normalized(with_torch(MODEL))


def test_linear_weights_under_manual_seed_are_pytorchs():
    source = "import torch\ntorch.manual_seed(42)\nlayer = torch.nn.Linear(5, 3)\nprint(layer.weight, layer.bias)\n"
    code, ours = run(source)
    assert code == 0
    assert ours == with_torch(source)


def test_parameters_before_super_init_is_pytorchs_error():
    source = ("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n"
              "        self.fc = nn.Linear(1, 1)\nM()\n")
    code, _ = run(source)
    assert code == 1


@pytest.mark.parametrize(("name", "args", "kwargs", "message"), [
    ("Conv2d", (3, 4, 3), {"groups": 2}, "in_channels must be divisible by groups"),
    ("Conv2d", (4, 3, 3), {"groups": 2}, "out_channels must be divisible by groups"),
    ("Conv2d", (1, 1, 3), {"groups": 0}, "groups must be a positive integer"),
    ("Conv2d", (1, 1, 3), {"padding": "foo"}, "Invalid padding string 'foo', should be one of {'same', 'valid'}"),
    ("Conv2d", (1, 1, 3), {"stride": 2, "padding": "same"},
     "padding='same' is not supported for strided convolutions"),
    ("ConvTranspose2d", (1, 1, 3), {"padding_mode": "reflect"},
     'Only "zeros" padding mode is supported for ConvTranspose2d'),
    ("Conv2d", (1, 1, (3, 3, 3)), {}, "kernel_size must be an integer or a tuple of 2 integers, got (3, 3, 3)"),
])
def test_conv_layers_refuse_what_pytorch_refuses(name, args, kwargs, message):
    with pytest.raises(engine.BadValueError) as error:
        NN_MODULES[name](*args, **kwargs)
    assert error.value.message == message


def test_conv_and_pool_layers_print_and_compute_as_pytorch():
    source = """
import torch
import torch.nn as nn
torch.manual_seed(3)
conv = nn.Conv2d(2, 4, 3, stride=2, padding=1, padding_mode='circular')
pool = nn.MaxPool2d(2, ceil_mode=True)
x = torch.randn(1, 2, 7, 7, requires_grad=True)
y = pool(conv(x)).sum()
y.backward()
print(conv, pool, y, x.grad.sum(), conv.weight.grad.sum())
t = nn.ConvTranspose1d(2, 3, 3, stride=2, groups=1, dilation=2)
print(t, t(torch.randn(1, 2, 5)).shape, t.weight)
print(nn.AvgPool1d(3, stride=2)(torch.arange(10.).reshape(1, 1, 10)))
"""
    code, ours = run(source)
    assert code == 0, ours
    assert normalized(ours) == normalized(with_torch(source))
