"""The house rules, checked on the source: dependencies point one way (cli -> app -> grammar -> engine), each
layer uses the others' public modules only, no folder has an import cycle (imports inside functions count),
nothing outside engine/ touches an engine object's private attributes or assigns engine state, no module
imports another's private names, command-line words stay in the CLI, and files and functions stay small.
See the README's layout section."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["engine", "grammar", "app", "cli"]  # each may import only the ones before it
# The modules of a layer that the layers above may import (the rest are its own business). The syntax tree
# (autodiff.grammar.syntax.tree) is not among them: only the interpreter reads a program's tree.
PUBLIC = {
    "engine": {"autodiff.engine", "autodiff.engine.errors", "autodiff.engine.core.formatting",
               "autodiff.engine.kernels.allocator", "autodiff.engine.facade"},
    "grammar": {"autodiff.grammar", "autodiff.grammar.syntax", "autodiff.grammar.interpreter"},
    "app": {"autodiff.app", "autodiff.app.session", "autodiff.app.checking", "autodiff.app.comparison",
            "autodiff.app.gradcheck", "autodiff.app.explain", "autodiff.app.graph", "autodiff.app.derivatives",
            "autodiff.app.residue", "autodiff.app.noise", "autodiff.app.config", "autodiff.app.precision",
            "autodiff.app.script", "autodiff.app.passes", "autodiff.app.batch", "autodiff.app.names",
            "autodiff.app.stacking", "autodiff.app.notices",
            "autodiff.app.symbolic", "autodiff.app.calculus", "autodiff.app.textbook",  # the rooms' packages
            *(f"autodiff.app.symbolic.{m}" for m in ("program", "diff", "printing", "sympymath", "exact", "steps")),
            *(f"autodiff.app.calculus.{m}" for m in (
                "table", "pointwise", "lagrange", "rates", "inverse", "tangent", "lines", "gradient", "newton",
                "critical", "extrema", "critical_exact", "critical_nd", "limits", "implicit")),
            "autodiff.app.textbook.notation"},
}
THIRD_PARTY = {  # what each layer may import besides the standard library and the layers below it
    "engine": {"numpy"},
    "grammar": {"numpy", "lark"},  # lark only in generate.py, at development time (checked below)
    "app": {"numpy", "sympy"},  # sympy only in the symbolic modules, imported by their commands (checked below)
    "cli": {"numpy", "click", "rich", "uniplot", "matplotlib", "sympy"},  # uniplot and matplotlib only in
    # cli/commands/plot_cmd.py; sympy only in cli/calculus.py (sympy_first: the commands that use SymPy import it
    # first, at a shallow depth of the frame stack, and use it through the app's symbolic modules)
}
SYMPY_MODULES = {"sympymath.py", "printing.py", "program.py", "diff.py", "exact.py", "critical_exact.py",
                 "gradient.py", "limits.py", "tangent.py", "steps.py", "bookform.py", "implicit.py", "lines.py",
                 "lagrange.py", "rates.py", "inverse.py", "simplest.py"}
# Standard-library modules whose names start with '_' but are documented public API (the library reference has a
# page for each): _thread's allocate_lock is threading.Lock without the threading module's import.
DOCUMENTED_UNDERSCORE_MODULES = {"_thread"}
MAX_LINES = 500
MAX_FUNCTION_LINES = 60
GENERATED = {"grammar/syntax/tables.py"}
# The house issue's last steps (removed as each is done): app modules still spelling command-line flags, and
# files and functions still over the limits.
PENDING_FLAGS: set[str] = set()
PENDING_SIZE: set[str] = set()


def _sources(layer: str) -> list[Path]:
    return sorted(p for p in (ROOT / layer).rglob("*.py") if p.relative_to(ROOT).as_posix() not in GENERATED)


def _package(path: Path) -> str:
    """The package a source file belongs to: grammar/syntax/lexer.py is in autodiff.grammar.syntax."""
    return ".".join(["autodiff", *path.parent.relative_to(ROOT).parts])


def _is_module(name: str) -> bool:
    parts = name.split(".")[1:]
    return bool(parts) and ((ROOT.joinpath(*parts).with_suffix(".py")).exists() or ROOT.joinpath(*parts).is_dir())


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """The lines of `if TYPE_CHECKING:` blocks: imports there are for type hints only, never run."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


@functools.cache
def _tree(path: Path) -> ast.Module:
    """The file's syntax tree, parsed once for all the tests of a process (they only read it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.cache
def _imports(path: Path) -> tuple[tuple[int, str, list[str]], ...]:
    """(line, absolute module name, names taken) of every import in the file, anywhere in it (inside
    functions too), relative imports resolved; `from package import module` counts as importing the module."""
    tree = _tree(path)
    skipped = _type_checking_lines(tree)
    found = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = _package(path).split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base) + (f".{module}" if module else "")
            names = [alias.name for alias in node.names]
            found.append((node.lineno, module, names))
            found += [(node.lineno, f"{module}.{name}", []) for name in names
                      if module.startswith("autodiff") and _is_module(f"{module}.{name}")]
    return tuple(found)


@pytest.mark.parametrize("layer", LAYERS)
def test_dependencies_point_one_way_through_public_modules(layer):
    below = LAYERS[:LAYERS.index(layer)]
    stdlib = sys.stdlib_module_names
    problems = []
    for path in _sources(layer):
        for line, module, _ in _imports(path):
            where = f"{path.relative_to(ROOT)}:{line} imports {module}"
            top = module.split(".")[0]
            if top == "autodiff":
                target = module.split(".")[1] if module.count(".") else ""
                if target == layer or (not target and module == "autodiff"):
                    continue
                if target not in below:
                    problems.append(f"{where}: {layer} may not depend on {target or 'autodiff'}")
                elif module not in PUBLIC[target]:
                    problems.append(f"{where}: not a public module of {target} ({sorted(PUBLIC[target])})")
            elif top not in stdlib and top not in THIRD_PARTY[layer] and top != "__future__":
                problems.append(f"{where}: {top} is not a dependency of {layer}")
            elif top == "sympy" and path.name not in (SYMPY_MODULES if layer == "app" else {"calculus.py"}):
                problems.append(f"{where}: sympy belongs to the symbolic modules ({sorted(SYMPY_MODULES)})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", LAYERS)
def test_no_import_cycle_inside_a_folder(layer):
    """Within a layer, the modules import each other in one direction only, counting imports inside functions."""
    modules = {_package(p) + ("" if p.name == "__init__.py" else f".{p.stem}"): p for p in _sources(layer)}
    graph = {name: {m for _, m, _ in _imports(path) if m in modules and m != name and not _is_package(m, name)}
             for name, path in modules.items()}
    cycles = _cycles(graph)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def _is_package(module: str, importer: str) -> bool:
    """A package's __init__ re-exporting its modules is not an import of the package by them."""
    return importer.startswith(module + ".")


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_no_private_name_imported_from_another_module(layer):
    problems = [f"{path.relative_to(ROOT)}:{line} imports {name} from {module}"
                for path in _sources(layer) for line, module, names in _imports(path)
                for name in names if name.startswith("_") and not name.startswith("__")]
    problems += [f"{path.relative_to(ROOT)}:{line} imports the private module {module}"
                 for path in _sources(layer) for line, module, _ in _imports(path)
                 if module not in DOCUMENTED_UNDERSCORE_MODULES
                 and any(part.startswith("_") and not part.startswith("__") for part in module.split("."))]
    assert not problems, "\n".join(problems)


def test_lark_is_imported_only_by_the_generator():
    for path in _sources("grammar"):
        if path.name != "generate.py":
            assert not [m for _, m, _ in _imports(path) if m.split(".")[0] == "lark"], path


@pytest.mark.parametrize("layer", ["grammar", "app", "cli"])
def test_no_private_attribute_of_engine_objects_outside_the_engine(layer):
    problems = []
    for path in _sources(layer):
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value.id if isinstance(node.value, ast.Name) else None
                if isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "super":
                    owner = "super"  # the parent's own hook that a subclass overrides (SymPy's printers' _print_X)
                if owner in ("self", "cls", "super", "_os", "_sys", "_signal", "_tables") or (
                        path.name == "generate.py" and node.attr == "_build_scanner"):  # lark's, at generation
                    continue
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", ["grammar", "app", "cli"])
def test_no_assignment_to_engine_state_outside_the_engine(layer):
    problems = []
    for path in _sources(layer):
        for node in ast.walk(_tree(path)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                text = ast.unparse(target)
                if text.startswith(("engine.", "E.", "STATE.")):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text} = ...")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", ["engine", "grammar", "app"])
def test_no_command_line_option_in_engine_grammar_or_app(layer):
    option = re.compile(r"--[a-z][a-z-]+")
    problems = []
    for path in _sources(layer):
        if path.name == "generate.py" or path.relative_to(ROOT).as_posix() in PENDING_FLAGS:
            continue  # (generate.py: a development script with its own --check)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if option.search(line):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_no_source_file_over_the_limit():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for layer in LAYERS for p in _sources(layer)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
            and p.relative_to(ROOT).as_posix() not in PENDING_SIZE]
    assert not long, "\n".join(long)


def test_no_function_over_the_limit():
    long = []
    for layer in LAYERS:
        for path in _sources(layer):
            for node in ast.walk(_tree(path)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    where = f"{path.relative_to(ROOT).as_posix()}:{node.name}"
                    if lines > MAX_FUNCTION_LINES and where not in PENDING_SIZE:
                        long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {lines} lines")
    assert not long, "\n".join(long)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["eval", "--help"]])
def test_help_and_version_do_not_import_numpy(args):
    code = (f"import sys\nfrom autodiff.cli.group import cli\ntry:\n    cli.main({args!r}, standalone_mode=False)\n"
            "except SystemExit:\n    pass\nprint('numpy' in sys.modules, 'rich' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stdout + done.stderr


def test_every_option_is_declared_once():
    """A flag is declared by one call of cli.options.option (commands share the functions of cli/options.py),
    so it has one name, type and help wherever it appears; click.option itself is called only there."""
    sites: dict[str, list[str]] = {}
    for path in _sources("cli"):
        for node in ast.walk(_tree(path)):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            if called == "click.option":
                assert path.name in ("options.py", "group.py"), f"{path.name}:{node.lineno}: use option()"
            if called in ("option", "click.option"):
                flags = [a.value for a in node.args if isinstance(a, ast.Constant) and str(a.value).startswith("--")]
                for flag in flags:
                    sites.setdefault(flag, []).append(f"{path.name}:{node.lineno}")
    twice = {flag: where for flag, where in sites.items() if len(where) > 1}
    assert not twice, twice


def test_errors_name_settings_that_the_command_line_words_as_options():
    from autodiff.cli.errors import worded
    from autodiff.engine.errors import UsageError

    error = UsageError("{order} cannot be combined with {backward}", fields=("order", "backward"))
    assert error.message == "order cannot be combined with backward"  # what a library user reads
    assert worded(error).message == "--order cannot be combined with --backward"


# ------------------------------------------------------------------ the house's plain-code rules (round three)
MAX_MODULES_PER_FOLDER = 30
# Every folder of these trees is held to the rule: the package's layers, the tests (whose rooms mirror the
# package: tests/engine/{core,ops,transforms,...}, tests/cli/{commands,batch,scripts,hardening}), the docs'
# generators, the benchmarks and the examples (in rooms by where their code comes from: seeds/, basics/, tutorials/).
FOLDER_TREES = [*LAYERS, "tests", "docs", "benchmarks", "examples"]


def crowded_folders(root: Path, tree: str) -> dict[str, int]:
    """The folders of ROOT/TREE (itself included) holding more than MAX_MODULES_PER_FOLDER modules, with their
    counts. Every .py file but __init__.py counts: conftest.py, case tables, golden generators and helpers too."""
    crowded = {}
    top = root / tree
    for folder in [top, *sorted(p for p in top.rglob("*") if p.is_dir())]:
        if "__pycache__" in folder.parts:
            continue
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > MAX_MODULES_PER_FOLDER:
            crowded[folder.relative_to(root).as_posix()] = len(modules)
    return crowded


@pytest.mark.parametrize("tree", FOLDER_TREES)
def test_no_folder_holds_more_than_30_modules(tree):
    """Subpackages by what they serve (engine/core, engine/ops, app/calculus, cli/commands, ...), and test rooms
    by what their tests serve, not one flat folder: a folder past 30 modules is split into rooms."""
    assert crowded_folders(ROOT, tree) == {}


def test_the_folder_rule_counts_every_module_and_fails_past_30(tmp_path):
    """The rule above can fail: 31 modules (conftest.py and helpers among them) in a folder at any depth are
    reported; 30 modules, __init__.py, non-Python files and __pycache__ are not."""
    def fill(folder: Path, names: list[str]) -> None:
        folder.mkdir(parents=True)
        for name in names:
            (folder / name).write_text("")

    tests = [f"test_{i}.py" for i in range(28)]
    fill(tmp_path / "tests" / "engine" / "ops", [*tests, "conftest.py", "cases.py", "caseload.py"])  # 31
    fill(tmp_path / "tests" / "cli", [*tests, "conftest.py", "schemas.py", "__init__.py", "golden.json"])  # 30
    fill(tmp_path / "tests" / "cli" / "__pycache__", [f"m{i}.py" for i in range(40)])
    assert crowded_folders(tmp_path, "tests") == {"tests/engine/ops": 31}
    (tmp_path / "tests" / "cli" / "helpers.py").write_text("")
    assert crowded_folders(tmp_path, "tests") == {"tests/cli": 31, "tests/engine/ops": 31}


def _calls_and_attributes(path: Path) -> list[tuple[int, str]]:
    """(line, dotted text) of every attribute read in the file: `sys.meta_path`, `os._exit`, ..."""
    tree = _tree(path)
    return [(node.lineno, ast.unparse(node)) for node in ast.walk(tree) if isinstance(node, ast.Attribute)]


@pytest.mark.parametrize("layer", LAYERS)
def test_nothing_patches_the_import_system_or_exits_without_cleanup(layer):
    """No finder on sys.meta_path (or path_hooks) and no os._exit: imports are Python's, and a command ends
    as a Python program ends (atexit handlers run, buffers flush)."""
    problems = []
    for path in _sources(layer):
        text = path.read_text(encoding="utf-8")
        problems += [f"{path.relative_to(ROOT)}:{line}: {attr}" for line, attr in _calls_and_attributes(path)
                     if attr.endswith(("meta_path", "path_hooks", "path_importer_cache", "._exit"))]
        if re.search(r"\bfrom os import [^\n]*\b_exit\b", text):
            problems.append(f"{path.relative_to(ROOT)}: from os import _exit")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", LAYERS)
def test_one_command_line_parser(layer):
    """click reads every command line (cli/group.py and the commands' modules); no second reader beside it."""
    problems = [f"{path.relative_to(ROOT)}:{line}: {module}" for path in _sources(layer)
                for line, module, _ in _imports(path) if module.split(".")[0] in ("argparse", "optparse", "getopt")]
    assert not problems, "\n".join(problems)
    if layer != "cli":
        assert not [p for p in _sources(layer) if any(m.split(".")[0] == "click" for _, m, _ in _imports(p))]
