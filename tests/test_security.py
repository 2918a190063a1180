"""No Python is ever evaluated, no pickle is ever loaded, no process is ever started, and `.` reaches only
what the language allows: checked on the source of the installed package (its syntax trees), and on the
command's behaviour."""

from __future__ import annotations

import ast
import os
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import autodiff.app
import autodiff.cli
import autodiff.engine
import autodiff.grammar
from autodiff.cli.main import main
from autodiff.grammar.interpreter import NODE_METHODS, TENSOR_ATTRIBUTES, TENSOR_METHODS

PACKAGES = {name: Path(module.__file__).parent for name, module in
            (("engine", autodiff.engine), ("grammar", autodiff.grammar), ("cli", autodiff.cli))}
SOURCES = sorted((name, path) for name, root in PACKAGES.items() for path in root.rglob("*.py"))
# The one module that runs the user's own Python file (autodiff run and repl), as `python` does: not a sandbox, and
# marked as such (the app layer, which holds it, is not in the scan above: it parses nothing and runs SymPy)
TRUST_MARKER = "# trust: runs the user's own Python file (autodiff run/repl), not a sandbox"

FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "breakpoint"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "dill", "cloudpickle", "joblib", "shelve",
                     "subprocess", "pty", "ctypes", "glob", "code", "codeop", "runpy"}
FORBIDDEN_OS = {"system", "popen", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp",
                "spawnvpe", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe", "fork",
                "forkpty", "posix_spawn", "posix_spawnp", "startfile", "expanduser", "expandvars"}

# Forbidden modules that one file may use, and why (nothing user-controlled reaches them).
# (file, attribute): where a dangerous attribute is used on purpose, with why it is safe
ALLOWED_ATTRIBUTES = {
    ("cli/group.py", "import_module"),  # a command's module, from cli.group.COMMANDS' fixed names (never user text)
}
ALLOWED_MODULES = {
    ("engine/kernels/allocator.py", "ctypes"): "calls glibc's mallopt with constant arguments (opt-in malloc caching)",
}

# getattr/setattr/delattr with a computed name, where the name cannot come from a user, and why.
# Keyed by (file, enclosing function, call as written); each entry allows that many occurrences.
DYNAMIC_ATTRIBUTES = {
    ("engine/nn/more_layers.py", "_Options.__init__", "setattr(self, key, value)"):
        (1, "a module's options as attributes: names of its class's fixed OPTIONS table (a keyword not in it is "
            "refused first)"),
    ("engine/nn/more_layers.py", "_Options.settings", "getattr(self, key)"):
        (1, "reads back the options set from the class's fixed OPTIONS table"),
    ("engine/core/api.py", "install_methods", "setattr(Tensor, name, entry.fn)"):
        (1, "installs the BUILTINS table's functions as Tensor methods, at import and once the rooms imported on "
            "first use have registered theirs"),
    ("engine/core/api.py", "_set_operators", "setattr(T, name, method)"):
        (1, "installs the Tensor's operators made of the array operations (a fixed table, _array_operators)"),
    ("engine/core/api.py", "install", "setattr(T, name, method)"):
        (2, "installs the in-place methods and the Python protocols (fixed tables, INPLACE and protocols.METHODS) at "
            "import time"),
    ("engine/core/api.py", "install", "setattr(T, name, prop)"):
        (1, "installs the properties of protocols.PROPERTIES (a fixed table) at import time"),
    ("engine/core/api.py", "install", "setattr(T, name, _conversion(dtype))"):
        (1, "installs the dtype conversions (.long(), .int(), ...: a fixed table of dtypes) at import time"),
    ("engine/core/api.py", "_install_operators", "setattr(T, name, INPLACE[method])"):
        (1, "installs the in-place operators (+=, -=, ...: a fixed tuple of names) at import time"),
    ("engine/core/multi_output.py", "MultiNode._context_of", "setattr(ctx, name, output)"):
        (1, "name is one of the op's saved-value names in the op table (Op.outputs), never user text"),
    ("grammar/syntax/nodes.py", "moved", "getattr(node, name)"):
        (1, "name is one of the syntax node class's own fields (__match_args__), never user text"),
    ("grammar/syntax/builder.py", "TreeBuilder.__init__", "getattr(self, action)"):
        (1, "the rule actions of the generated parser tables (the grammar's aliases), never user text"),
    ("grammar/interpreter/members.py", "attribute", "getattr(value, attr)"):
        (2, "only after `attr in NODE_METHODS` or attr in ('values', 'indices'): fixed allow-lists without '_' "
            "names (checked below)"),
    ("grammar/interpreter/members.py", "_tensor_member", "getattr(value, attr)"):
        (1, "only after `attr in TENSOR_METHODS`: the engine's fixed allow-list without '_' names (checked below)"),
    ("grammar/interpreter/members.py", "", "getattr(t, name)"):
        (1, "name is one of the engine's TENSOR_PROPERTIES, a fixed tuple without '_' names (checked below)"),
    ("engine/facade/distributions/distribution.py", "Distribution._check_parameters", "getattr(self, param)"):
        (1, "param is a key of the distribution class's arg_constraints (PyTorch's fixed parameter names, or those "
            "of a Distribution subclass in the user's own Python script run by autodiff run)"),
    ("engine/facade/distributions/distribution.py", "Distribution._check_parameters",
     "getattr(type(self), param, None)"):
        (1, "param is a key of the distribution class's arg_constraints, as above"),
    ("engine/nn/containers.py", "ParameterList.__getitem__", "getattr(self, key)"):
        (1, "nn.ParameterList of a user's own Python script (autodiff run); key is the str of an int index"),
    ("engine/nn/containers.py", "ParameterList.__setitem__", "setattr(self, self._key(idx), _as_parameter(value))"):
        (1, "nn.ParameterList of a user's own Python script (autodiff run); the key is the str of an int index"),
    ("engine/nn/containers.py", "ParameterDict.__getitem__", "getattr(self, key)"):
        (1, "nn.ParameterDict of a user's own Python script (autodiff run), as PyTorch's: the script's own keys"),
    ("engine/nn/containers.py", "ParameterDict.__setitem__", "setattr(self, key, _as_parameter(value))"):
        (1, "nn.ParameterDict of a user's own Python script (autodiff run), as PyTorch's: the script's own keys"),
    ("engine/nn/containers.py", "ParameterDict.__delitem__", "delattr(self, key)"):
        (1, "nn.ParameterDict of a user's own Python script (autodiff run), as PyTorch's: the script's own keys"),
    ("engine/nn/recurrent_layers.py", "RNNBase.__init__", "setattr(self, name, _empty(shape, dtype))"):
        (1, "the recurrent layers' parameter names (weight_ih_l0, ...), made from layer numbers, never user text"),
    ("engine/nn/recurrent_layers.py", "RNNBase.all_weights", "getattr(self, name)"):
        (1, "the recurrent layers' parameter names (weight_ih_l0, ...), made from layer numbers, never user text"),
    ("cli/main.py", "_standard_streams", "getattr(sys, name)"):
        (1, "name is one of the constants 'stdin', 'stdout', 'stderr'"),
    ("cli/main.py", "_standard_streams", "setattr(sys, name, open(os.devnull, mode, encoding='utf-8'))"):
        (1, "name is one of the constants 'stdin', 'stdout', 'stderr'"),
}


class _Finder(ast.NodeVisitor):
    """Collects the forbidden constructs of one file, and its dynamic attribute accesses."""

    def __init__(self, relative: str) -> None:
        self.relative = relative
        self.problems: list[str] = []
        self.dynamic: Counter = Counter()
        self.scope: list[str] = []

    def _where(self, node: ast.AST) -> str:
        return f"{self.relative}:{node.lineno}"

    def _scoped(self, node: ast.AST) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def _forbidden(self, module: str | None) -> bool:
        return module in FORBIDDEN_MODULES and (self.relative, module) not in ALLOWED_MODULES

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if self._forbidden(alias.name.split(".")[0]):
                self.problems.append(f"{self._where(node)} import {alias.name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = (node.module or "").split(".")[0]
        if self._forbidden(module):
            self.problems.append(f"{self._where(node)} from {node.module} import ...")
        if module == "os" and any(a.name in FORBIDDEN_OS for a in node.names):
            self.problems.append(f"{self._where(node)} from os import {[a.name for a in node.names]}")
        if module == "builtins":
            self.problems.append(f"{self._where(node)} from builtins import ...")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_CALLS or node.id == "__builtins__":
            self.problems.append(f"{self._where(node)} uses {node.id}")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        base = node.value.id if isinstance(node.value, ast.Name) else None
        if self._forbidden(base):
            self.problems.append(f"{self._where(node)} {base}.{node.attr}")
        if base == "os" and node.attr in FORBIDDEN_OS:
            self.problems.append(f"{self._where(node)} os.{node.attr}")
        if base == "path" and node.attr in ("expanduser", "expandvars"):
            self.problems.append(f"{self._where(node)} path.{node.attr}")
        if node.attr in FORBIDDEN_CALLS and base in ("builtins", "__builtins__"):
            self.problems.append(f"{self._where(node)} {base}.{node.attr}")
        if node.attr in ("import_module", "__import__", "__subclasses__", "__globals__", "__builtins__") and (
                self.relative, node.attr) not in ALLOWED_ATTRIBUTES:
            self.problems.append(f"{self._where(node)} .{node.attr}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        for keyword in node.keywords:
            if keyword.arg == "allow_pickle" and not (isinstance(keyword.value, ast.Constant)
                                                      and keyword.value.value is False):
                self.problems.append(f"{self._where(node)} allow_pickle={ast.unparse(keyword.value)}")
        fn = node.func
        if isinstance(fn, ast.Attribute) and fn.attr == "load" and ast.unparse(fn.value) in ("np", "numpy"):
            pickle_kw = [k for k in node.keywords if k.arg == "allow_pickle"]
            if not pickle_kw:
                self.problems.append(f"{self._where(node)} np.load without an explicit allow_pickle=False")
        if isinstance(fn, ast.Name) and fn.id in ("getattr", "setattr", "delattr") and len(node.args) >= 2:
            name = node.args[1]
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                self.dynamic[(self.relative, ".".join(self.scope), ast.unparse(node))] += 1
        self.generic_visit(node)


def _scan() -> tuple[list[str], Counter]:
    problems: list[str] = []
    dynamic: Counter = Counter()
    for package, path in SOURCES:
        relative = f"{package}/{path.relative_to(PACKAGES[package]).as_posix()}"
        finder = _Finder(relative)
        finder.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        problems += finder.problems
        dynamic += finder.dynamic
    return problems, dynamic


def test_the_package_is_where_the_scan_looks():
    assert {name for name, _ in SOURCES} == {"engine", "grammar", "cli"}
    assert len(SOURCES) > 15


def test_only_the_script_runner_runs_python_and_it_says_so():
    roots = [*PACKAGES.values(), Path(autodiff.app.__file__).parent]
    trusted = [path for root in roots for path in root.rglob("*.py")
               if TRUST_MARKER in path.read_text(encoding="utf-8")]
    assert [(path.parent.name, path.name) for path in trusted] == [("app", "script.py")]


def test_no_eval_no_pickle_no_processes():
    problems, _ = _scan()
    assert not problems, "\n".join(problems)


def test_computed_attribute_names_are_the_allowed_ones():
    _, dynamic = _scan()
    unexpected = {key: n for key, n in dynamic.items() if key not in DYNAMIC_ATTRIBUTES
                  or n > DYNAMIC_ATTRIBUTES[key][0]}
    assert not unexpected, ("getattr/setattr/delattr with a computed name; if the name cannot come from a user, "
                            f"add it to DYNAMIC_ATTRIBUTES with the reason: {unexpected}")
    stale = sorted(set(DYNAMIC_ATTRIBUTES) - set(dynamic))
    assert not stale, f"DYNAMIC_ATTRIBUTES entries whose code is gone: remove them: {stale}"


def test_the_allow_lists_behind_getattr_hold_no_private_names():
    for name in (*TENSOR_METHODS, *TENSOR_ATTRIBUTES, *NODE_METHODS):
        assert not name.startswith("_"), name


# ---------------------------------------------------------------------------- behaviour
def _run(*args: str) -> tuple[int, str, str]:
    runner = CliRunner()
    with runner.isolation() as (out, err, _):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()


@pytest.mark.parametrize("program", [
    "__import__('os').system('echo pwned')", "eval('1')", "exec('x=1')", "open('/etc/passwd')",
    "x.__class__.__mro__", "x.__dict__", "().__class__.__bases__[0].__subclasses__()", "x.grad_fn.__init__",
    "x.sum.__globals__", "torch.__dict__", "getattr(x, '__class__')", "getattr(print, '__self__')",
    "setattr(x, '_data', 1)", "getattr(getattr, '__globals__')", "globals()", "compile('1', 'a', 'eval')",
    "np.load('x.npy', allow_pickle=True)", "import os\nos.system('echo pwned')", "x._data",
    "x.grad_fn._saved", "torch.autograd.__name__", "print.__self__",
])
def test_python_is_out_of_reach(program):
    """eval and check parse programs with the grammar: no Python is reachable from them (`autodiff run` is Python,
    and says so: it is not part of this boundary)."""
    for command in (["eval", program, "x=1"], ["check", program, "--expect", "x=1", "x=1"]):
        runner = CliRunner()
        with runner.isolation(input=f"import torch\nx = torch.ones(1, requires_grad=True)\ny = x * 2\n{program}\n") \
                as (out, err, _):
            try:
                main(command)
                code = 0
            except SystemExit as done:
                code = done.code
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
        assert code in (1, 2), (command, program, stdout, stderr)
        assert "pwned" not in stdout and "root:" not in stdout
        assert stderr.startswith(("autodiff: name error", "autodiff: syntax error", "autodiff: value error",
                                  "autodiff: usage error")), stderr


def test_a_path_is_read_as_named(tmp_path):
    """@PATH reads exactly the file named: no globbing (`*`, `?`, `[...]` are characters), no `~` or `$VAR`
    expansion, and the suffix decides the format."""
    (tmp_path / "a1.csv").write_text("1,1\n")
    (tmp_path / "[a]1.csv").write_text("2,2\n")
    (tmp_path / "~").mkdir()
    (tmp_path / "~" / "v.csv").write_text("3,3\n")
    (tmp_path / "$HOME.csv").write_text("4,4\n")
    cases = {"a*.csv": None, "a?.csv": None, "[a]1.csv": 4.0, "~/v.csv": 6.0, "$HOME.csv": 8.0, "a1.csv": 2.0}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        for path, total in cases.items():
            code, stdout, stderr = _run("eval", "x.sum()", f"x=@{path}", "--format", "json")
            if total is None:
                assert code == 2 and "does not exist" in stderr, (path, stderr)
            else:
                assert code == 0 and f'"value": {total}' in stdout, (path, stdout, stderr)
    finally:
        os.chdir(cwd)


def test_pickled_npy_files_are_refused_unread(tmp_path):
    import numpy as np

    path = tmp_path / "evil.npy"
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    code, _, stderr = _run("eval", "x", f"x=@{path}")
    assert code == 2 and "never loads pickles" in stderr, stderr
