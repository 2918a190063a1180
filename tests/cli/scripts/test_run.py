"""`autodiff run FILE|- [ARGS]`: Python runs the script, with `torch` answered by autodiff's engine. The examples
print what PyTorch printed (numbers within the suite's tolerance); a script's exception prints as Python prints it
(the script's frames, PyTorch's exception names) with exit 1."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from tolerance import numbers_differ

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
# examples/ in rooms (docs/scripts.md): seeds/ the four seed tutorials' snippets, basics/ one feature a script,
# tutorials/ PyTorch's tutorials and notes as written; the numbers run on across the rooms.
ROOMS = ("seeds", "basics", "tutorials")
SCRIPTS = sorted(EXAMPLES.rglob("*.py"), key=lambda path: path.name)
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def normalize(text: str) -> str:
    return ADDRESS.sub("0x...", text)


def script(tmp_path: Path, text: str, name: str = "script.py") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def last_frame_line(stderr: str) -> int:
    """The line number of the innermost frame of a Python traceback."""
    return int(re.findall(r'File ".*", line (\d+)', stderr)[-1])


# ---------------------------------------------------------------------------- the examples against PyTorch
def test_there_are_examples_and_each_has_its_pytorch_output():
    assert len(SCRIPTS) >= 50
    assert {path.parent.relative_to(EXAMPLES).as_posix() for path in SCRIPTS} == set(ROOMS)
    assert len({path.stem for path in SCRIPTS}) == len(SCRIPTS), "two examples of one name"
    for path in SCRIPTS:
        assert path.with_suffix(".expected").is_file(), f"{path.name}: run tests/make_examples_golden.py"
    recordings = [*EXAMPLES.rglob("*.expected"), *EXAMPLES.rglob("*.error.json")]
    recorded = {p.with_name(p.name.split(".")[0]) for p in recordings}
    assert recorded == {p.with_suffix("") for p in SCRIPTS}, "a recorded output without its script beside it"


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_prints_what_pytorch_printed(cli, path):
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    error_file = path.with_name(f"{path.stem}.error.json")
    out = cli("run", str(path))
    difference = numbers_differ(normalize(out.stdout), expected)
    assert difference is None, f"{path.name}: {difference}\n{out.stderr}"
    if not error_file.exists():
        assert (out.code, out.stderr) == (0, ""), out.stderr
        return
    error = json.loads(error_file.read_text(encoding="utf-8"))
    # PyTorch stopped at this line with this exception: so does the script here, printed as Python prints it
    assert out.code == 1
    assert out.stderr.startswith("Traceback (most recent call last):\n")
    assert last_frame_line(out.stderr) == error["line"]
    assert out.stderr.splitlines()[-1].startswith(f"{error['exception']}: ")
    assert "autodiff" not in out.stderr.replace(str(path), "")  # the script's frames only


@functools.cache
def _golden_maker():
    spec = importlib.util.spec_from_file_location("make_examples_golden", ROOT / "tests" / "make_examples_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_recorded_outputs_are_current_with_pytorch(path):
    """Each example run under real PyTorch, now: what it prints equals the recorded output within the tolerance.
    (One test a script, as the maker runs them: default dtype float32 first; one test for all of them ended the
    suite's parallel run alone.)"""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # as tests/conftest.py sets it, for a run where this test imports torch first
    torch.set_default_dtype(torch.float32)
    stdout, error = _golden_maker().record(path)
    difference = numbers_differ(stdout, path.with_suffix(".expected").read_text(encoding="utf-8"))
    assert difference is None, f"{path.name}: stale ({difference}); run tests/make_examples_golden.py"
    error_file = path.with_name(f"{path.stem}.error.json")
    assert error == (json.loads(error_file.read_text(encoding="utf-8")) if error_file.exists() else None)


# ---------------------------------------------------------------------------- Python, as `python FILE ARGS`
def test_the_script_is_main_with_its_arguments_and_folder(cli, tmp_path):
    (tmp_path / "helper.py").write_text("import torch\ndef double(t):\n    return t * 2\n", encoding="utf-8")
    out = cli("run", script(tmp_path, (
        "import sys, os\n"
        "import torch\n"
        "from helper import double\n"
        "print(__name__, os.path.basename(sys.argv[0]), sys.argv[1:])\n"
        "print(double(torch.ones(2)))\n"
    )), "--lr", "0.1", "x")
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == "__main__ script.py ['--lr', '0.1', 'x']\ntensor([2., 2.])\n"


def test_python_constructs_tutorials_use(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch, random\n"
        "from dataclasses import dataclass\n"
        "@dataclass\n"
        "class Config:\n"
        "    lr: float = 0.1\n"
        "def forward(x: torch.Tensor) -> torch.Tensor:\n"
        "    return x * 2\n"
        "def gen():\n"
        "    yield from range(3)\n"
        "pairs = [(i, j) for i in range(2) for j in range(2)]\n"
        "try:\n"
        "    torch.ones(2) @ torch.ones(3)\n"
        "except RuntimeError as error:\n"
        "    print('caught', isinstance(error, RuntimeError))\n"
        "print(Config().lr, '%.4f' % torch.tensor(1 / 3), next(gen()), len(pairs), set([1, 1]),\n"
        "      type(torch.ones(1)).__name__)\n"
        "random.seed(0); print(isinstance(forward(torch.ones(1)), torch.Tensor))\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == "caught True\n0.1 0.3333 0 4 {1} Tensor\nTrue\n"


def test_tensors_work_with_pythons_protocols(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\nimport numpy as np\n"
        "x = torch.tensor([1.0, 2.0, 3.0])\n"
        "print(float(x[0]), int(x[1]), bool(x[2]), len(x), [float(v) for v in x], sum([x, x]))\n"
        "print(np.asarray(x), f'{x.sum():.2f}', 2.0 in x, x == 2, {x: 1}[x], x in [x])\n"
        "y = x\n"
        "y += 1\n"
        "print(x, y is x)\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == ("1.0 2 True 3 [1.0, 2.0, 3.0] tensor([2., 4., 6.])\n"
                          "[1. 2. 3.] 6.00 True tensor([False,  True, False]) 1 True\n"
                          "tensor([2., 3., 4.]) True\n")


def test_a_bare_expression_prints_nothing(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nx = torch.ones(1, requires_grad=True); x\nx.grad\n2 + 3\n"))
    assert (out.code, out.stdout, out.stderr) == (0, "", "")


def test_backward_options_retain_grad_and_autograd_grad(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "h = x * 3\n"
        "h.retain_grad()\n"
        "out = (h ** 2).sum()\n"
        "out.backward(retain_graph=True)\n"
        "print(x.grad, h.grad)\n"
        "x.grad.zero_()\n"
        "out.backward(gradient=torch.tensor(0.5))\n"
        "print(x.grad)\n"
        "w = torch.ones(2)\n"
        "w.requires_grad_()\n"
        "v = (w * w * w).sum()\n"
        "g = torch.autograd.grad(v, w, create_graph=True)\n"
        "print(g, w.is_leaf)\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == ("tensor([18., 36.]) tensor([ 6., 12.])\n"
                          "tensor([ 9., 18.])\n"
                          "(tensor([3., 3.], grad_fn=<AddBackward0>),) True\n")


def test_seed_and_dtype_options(cli, tmp_path):
    path = script(tmp_path, "import torch\nprint(torch.randn(3))\nprint(torch.tensor([1.5]), torch.ones(1).dtype)\n")
    first, second = cli("run", "--seed", "7", path), cli("run", "--seed", "7", path)
    assert first.code == 0 and first.stdout == second.stdout
    out = cli("run", "--dtype", "float64", "--seed", "7", path)
    # as in PyTorch, the repr names the dtype only when it is not the default
    assert out.stdout.splitlines()[1] == "tensor([1.5000]) torch.float64"


def test_a_script_has_no_element_limit_unless_asked(cli, tmp_path):
    # PyTorch has none: makemore part 5's x @ weight of 93,504,000 elements runs as written (np.empty touches no page)
    path = script(tmp_path, "import torch\nprint(torch.empty(60_000_000, dtype=torch.bool).shape)\n")
    out = cli("run", path)
    assert (out.code, out.stdout) == (0, "torch.Size([60000000])\n")
    out = cli("run", "--max-elements", "1000", path)
    assert out.code == 1
    assert out.stderr.splitlines()[-1] == ("RuntimeError: tensor of shape (60000000,) would have 60,000,000 elements, "
                                           "over the limit of 1,000")
    assert "(default: no limit, as in PyTorch)" in " ".join(cli("run", "--help").stdout.split())


def test_float_of_a_tensor_that_requires_grad_warns_once_as_pytorch(tmp_path):
    path = script(tmp_path, "import math, torch\nx = torch.tensor(2.0, requires_grad=True)\n"
                            "print('%.2f' % (x * 3), math.sqrt(x))\nprint(float(x), x.item(), float(x.detach()))\n")
    done = subprocess.run([sys.executable, "-c", "from autodiff.cli.main import main; main()", "run", path],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, "6.00 1.4142135623730951\n2.0 2.0 2.0\n")
    assert done.stderr == (f"{path}:3: UserWarning: Converting a tensor with requires_grad=True to a scalar may lead "
                           "to unexpected behavior.\nConsider using tensor.detach() first.\n"
                           "  print('%.2f' % (x * 3), math.sqrt(x))\n")
    from autodiff import engine

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(engine.tensor(2.0, requires_grad=True)) == 2.0  # outside a script: no warning


def test_options_after_the_file_are_the_scripts(cli, tmp_path):
    path = script(tmp_path, "import sys\nprint(sys.argv[1:])\n")
    out = cli("run", path, "--seed", "7", "--trace")
    assert (out.code, out.stdout) == (0, "['--seed', '7', '--trace']\n")


def test_a_script_from_stdin(cli):
    out = cli("run", "-", input="import torch\nx = torch.ones(2, requires_grad=True)\nx.sum().backward()\n"
                                "print(x.grad)\n")
    assert (out.code, out.stdout) == (0, "tensor([1., 1.])\n")


def test_the_installed_command_runs_an_example():
    example = EXAMPLES / "seeds" / "05_backward_chain.py"
    done = subprocess.run([sys.executable, "-m", "autodiff.cli", "run", str(example)],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0
    assert numbers_differ(done.stdout, example.with_suffix(".expected").read_text(encoding="utf-8")) is None


def test_torch_is_only_there_during_a_run(cli, tmp_path):
    out = cli("run", script(tmp_path, "import torch\nprint(torch.__file__.endswith('facade/__init__.py'))\n"))
    assert out.stdout == "True\n"
    real = sys.modules.get("torch")
    assert real is None or "autodiff" not in real.__name__
    assert "functorch" not in sys.modules or "autodiff" not in sys.modules["functorch"].__name__


def test_every_other_module_is_the_real_one(cli, tmp_path):
    out = cli("run", script(tmp_path, "import numpy, math, random, json\nprint(numpy.__name__, math.sqrt(4), "
                                      "json.dumps([1]))\n"))
    assert (out.code, out.stdout) == (0, "numpy 2.0 [1]\n")


# ---------------------------------------------------------------------------- a script's exceptions, as Python's
def test_an_unknown_name_is_pythons_name_error(cli, tmp_path):
    path = script(tmp_path, "import torch\nx = torch.ones(2)\nprint(x)\ny = z * 2\nprint(y)\n")
    out = cli("run", path)
    assert out.code == 1
    assert out.stdout == "tensor([1., 1.])\n"  # what ran before the error stays printed
    assert out.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 4, in <module>\n'
        "    y = z * 2\n"
        "        ^\n"
        "NameError: name 'z' is not defined\n"
    )


def test_an_engine_error_is_pytorchs_runtime_error_with_the_scripts_frames(cli, tmp_path):
    path = script(tmp_path, (
        "import torch\n"
        "def step(out):\n"
        "    out.backward()\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "out = (x * x).sum()\n"
        "step(out)\n"
        "step(out)\n"
    ))
    out = cli("run", path)
    assert out.code == 1
    assert out.stderr == (
        "Traceback (most recent call last):\n"
        f'  File "{path}", line 7, in <module>\n'
        "    step(out)\n"
        f'  File "{path}", line 3, in step\n'
        "    out.backward()\n"
        "RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after "
        "they have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
        "or autograd.grad(). (hint: Specify retain_graph=True on the first backward if you need to backward through "
        "the graph a second time.)\n"
    )


def test_a_syntax_error_stops_the_script_before_it_starts(cli, tmp_path):
    path = script(tmp_path, "print('before')\nfor i in x\n")
    out = cli("run", path)
    assert (out.code, out.stdout) == (1, "")  # the whole script is compiled first, as Python does
    assert out.stderr.splitlines()[0] == f'  File "{path}", line 2'
    assert out.stderr.splitlines()[-1] == "SyntaxError: expected ':'"


def test_sys_exit_gives_its_status(cli, tmp_path):
    assert cli("run", script(tmp_path, "import sys\nsys.exit(3)\n")).code == 3
    out = cli("run", script(tmp_path, "import sys\nsys.exit('bad input')\n"))
    assert (out.code, out.stderr) == (1, "bad input\n")
    assert cli("run", script(tmp_path, "raise SystemExit\n")).code == 0


def test_a_missing_script_is_an_io_error(cli, tmp_path):
    out = cli("run", str(tmp_path / "missing.py"))
    assert out.code == 2
    assert out.stderr == ("autodiff: io error: the script: cannot read " + str(tmp_path / "missing.py")
                          + " (No such file or directory)\n")


# ---------------------------------------------------------------------------- --trace, --explain, --detect-anomaly
TRACED = ("import torch\n"
          "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
          "y = (x ** 2).sum()\n"
          "y.backward()\n"
          "print(x.grad)\n")


def test_trace_shows_each_pass_with_the_lines_that_recorded_its_nodes(cli, tmp_path):
    out = cli("run", "--trace", script(tmp_path, TRACED))
    assert (out.code, out.stdout) == (0, "tensor([2., 4.])\n")
    assert out.stderr == ("backward 1: y at script.py:4: y.backward()\n"
                          "  SumBackward0  -> y  (script.py:3: y = (x ** 2).sum())\n"
                          "  `-- PowBackward0  (script.py:3: y = (x ** 2).sum())\n"
                          "      `-- AccumulateGrad  x\n")


def test_explain_shows_each_pass_step_by_step(cli, tmp_path):
    out = cli("run", "--explain", script(tmp_path, TRACED))
    assert out.code == 0
    assert out.stderr.splitlines() == [
        "backward 1: y at script.py:4: y.backward()",
        "  [1] SumBackward0 -> y  (node 0)",
        "      received 1.0 (the starting gradient)",
        "      to self: grad expanded to self's shape -> [1.0, 1.0]",
        "  [2] PowBackward0  (node 1)",
        "      received [1.0, 1.0] from [1] SumBackward0 (self)",
        "      to self: grad * exponent * self**(exponent - 1) = [1.0, 1.0] * 2 * [1.0, 2.0]**(2 - 1) = [2.0, 4.0]",
        "  [3] AccumulateGrad x  (node 2)",
        "      received [2.0, 4.0] from [2] PowBackward0 (self)",
        "      x.grad = None + [2.0, 4.0] = [2.0, 4.0]",
    ]


def test_detect_anomaly_names_the_node_and_the_scripts_line(cli, tmp_path):
    path = script(tmp_path, "import torch\nx = torch.tensor([-1.0], requires_grad=True)\ny = x.sqrt()\n"
                            "y.backward()\n")
    out = cli("run", "--detect-anomaly", path)
    assert out.code == 1
    assert out.stderr.splitlines()[-1] == ("RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th "
                                           "output (created by: script.py:3: y = x.sqrt()).")


def test_run_help_states_the_trust_model(cli):
    out = cli("run", "--help")
    assert "not a sandbox" in out.stdout and "with your rights" in out.stdout


# ---------------------------------------------------------------------------- the rest of torch that tutorials use
def test_legacy_tensor_types(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "x = torch.normal(torch.ones(2), 1).type(torch.FloatTensor)\n"
        "print(x.type(), isinstance(x, torch.FloatTensor), isinstance(x, torch.LongTensor), torch.FloatTensor)\n"
        "print(torch.LongTensor([1, 2]), torch.FloatTensor(2, 1).shape,\n"
        "      torch.tensor([1, 2]).type(torch.DoubleTensor))\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == ("torch.FloatTensor True False <class 'torch.FloatTensor'>\n"
                          "tensor([1, 2]) torch.Size([2, 1]) tensor([1., 2.], dtype=torch.float64)\n")


def test_save_and_load_a_checkpoint_without_pickle(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import io, os, torch\n"
        "os.chdir(os.path.dirname(__file__))\n"
        "torch.manual_seed(0)\n"
        "m = torch.nn.Linear(2, 1)\n"
        "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "torch.save({'model': m.state_dict(), 'opt': opt.state_dict(), 'epoch': 3, 't': (1, [2.5, None])}, 'ck.pth')\n"
        "ck = torch.load('ck.pth')\n"
        "print(ck['epoch'], ck['t'], list(ck['model']), ck['opt']['param_groups'][0]['lr'])\n"
        "n = torch.nn.Linear(2, 1)\n"
        "print(n.load_state_dict(ck['model']), torch.equal(n.weight, m.weight))\n"
        "buffer = io.BytesIO()\n"
        "torch.save(torch.arange(3), buffer)\n"
        "buffer.seek(0)\n"
        "print(torch.load(buffer))\n"
        "torch.save(m, 'model.pth')\n"
    )))
    assert out.stdout == ("3 (1, [2.5, None]) ['weight', 'bias'] 0.1\n<All keys matched successfully> True\n"
                          "tensor([0, 1, 2])\n")
    assert out.code == 1 and out.stderr.splitlines()[-1] == (
        "TypeError: torch.save of a whole nn.Module needs pickle, which autodiff does not use: save its state_dict() "
        "and load it into a new model (model.load_state_dict(torch.load(f)))")
    assert (tmp_path / "ck.pth").is_file() and not (tmp_path / "model.pth").exists()


def test_load_refuses_a_pickle(cli, tmp_path):
    import pickle

    (tmp_path / "evil.pt").write_bytes(pickle.dumps({"a": 1}))
    text = "import os, torch\ntorch.load(os.path.join(os.path.dirname(__file__), 'evil.pt'))\n"
    out = cli("run", script(tmp_path, text))
    assert out.code == 1 and "RuntimeError: torch.load: this is not a file autodiff's torch.save wrote" in out.stderr


def test_the_python_constructs_the_interpreter_lacked(cli, tmp_path):
    """Issue 40's list of what stopped tutorials under the old interpreter: each is Python's now."""
    out = cli("run", script(tmp_path, (
        "import torch, os\n"
        "import random\n"
        "count = 0\n"
        "def bump():\n"
        "    global count\n"
        "    count += 1\n"
        "class Value:\n"
        "    def __init__(self, data):\n"
        "        self.data = data\n"
        "    def __add__(self, other):\n"
        "        return Value(self.data + other.data)\n"
        "    def __repr__(self):\n"
        "        return f'Value(data={self.data})'\n"
        "def squares(n):\n"
        "    for i in range(n):\n"
        "        yield torch.tensor(float(i)) ** 2\n"
        "bump(); bump()\n"
        "x = torch.ones(2)\n"
        "print(count, Value(1.0) + Value(2.5), sum(squares(4)), type(x).__name__, next(iter(squares(2))))\n"
        "print(sorted({int(v) for v in torch.tensor([3, 1, 3])}), [a * b for a in range(2) for b in range(3)])\n"
        "random.seed(1); print(random.randint(0, 10), os.path.basename('a/b.py'), '%.4f' % x.sum())\n"
    )))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout == ("2 Value(data=3.5) tensor(14.) Tensor tensor(0.)\n[1, 3] [0, 0, 0, 0, 1, 2]\n"
                          "2 b.py 2.0000\n")


def test_python_ints_beside_integer_tensors_raise_what_pytorch_raises(cli, tmp_path):
    out = cli("run", script(tmp_path, (
        "import torch\n"
        "u8 = torch.tensor([1, 2], dtype=torch.uint8)\n"
        "for case in (lambda: torch.fmod(u8, 300), lambda: torch.clamp(u8, -5, 300), lambda: u8 ** 300,\n"
        "             lambda: torch.where(torch.tensor([True, False]), u8, 300), lambda: u8.clone().fill_(300),\n"
        "             lambda: torch.tensor([1, 2]) + 2**70, lambda: u8 < -2**70, lambda: u8 - 300):\n"
        "    try:\n"
        "        print(case().tolist())\n"
        "    except OverflowError:\n"
        "        print('OverflowError')\n"
        "    except RuntimeError as error:\n"
        "        print('RuntimeError', 'without overflow' in str(error))\n")))
    assert (out.code, out.stderr) == (0, "")
    assert out.stdout.splitlines() == ["[1, 2]", "RuntimeError True", "RuntimeError True", "RuntimeError True",
                                       "RuntimeError True", "OverflowError", "OverflowError", "[213, 214]"]
