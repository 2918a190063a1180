"""The house rules, checked on the source: dependencies point one way (cli -> app -> grammar -> engine), each
layer uses the others' public modules only, nothing outside engine/ touches an engine object's private
attributes or assigns engine state, command-line words stay in the CLI, and no source file grows past
800 lines. See the README's layout section."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["engine", "grammar", "app", "cli"]  # each may import only the ones before it
# The modules of a layer that the layers above may import (the rest are its own business).
PUBLIC = {
    "engine": {"autodiff.engine", "autodiff.engine.errors", "autodiff.engine.formatting", "autodiff.engine.allocator"},
    "grammar": {"autodiff.grammar", "autodiff.grammar.parser", "autodiff.grammar.evaluate", "autodiff.grammar.syntax"},
    "app": {"autodiff.app", "autodiff.app.session", "autodiff.app.checking", "autodiff.app.explain",
            "autodiff.app.graph", "autodiff.app.symbolic", "autodiff.app.derivatives",
            "autodiff.app.table", "autodiff.app.exact", "autodiff.app.pointwise", "autodiff.app.tangent",
            "autodiff.app.gradient", "autodiff.app.newton", "autodiff.app.critical", "autodiff.app.extrema",
            "autodiff.app.critical_exact", "autodiff.app.critical_nd", "autodiff.app.limits",
            "autodiff.app.noise"},
}
THIRD_PARTY = {  # what each layer may import besides the standard library and the layers below it
    "engine": {"numpy"},
    "grammar": {"numpy", "lark"},  # lark only in generate.py, at development time (checked below)
    "app": {"numpy", "sympy"},  # sympy in app/symbolic.py only, imported by `autodiff diff` (checked below)
    "cli": {"numpy", "click", "rich", "uniplot", "matplotlib"},  # the last two only in cli/plot_cmd.py
}
MAX_LINES = 800
GENERATED = {"grammar/_generated_parser.py"}


def _sources(layer: str) -> list[Path]:
    return sorted(p for p in (ROOT / layer).glob("*.py") if f"{layer}/{p.name}" not in GENERATED)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative imports resolved."""
    layer = path.parent.name
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = f"autodiff.{layer}" + (f".{module}" if module else "")
            if module == "autodiff":  # `from autodiff import engine`
                found += [(node.lineno, f"autodiff.{alias.name}") for alias in node.names]
                continue
            found.append((node.lineno, module))
            # `from autodiff.engine import errors` imports a module too
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names
                      if module.startswith("autodiff.") and f"{module}.{alias.name}".count(".") == 2
                      and (ROOT / module.split(".")[1] / f"{alias.name}.py").exists()]
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_dependencies_point_one_way_through_public_modules(layer):
    below = LAYERS[:LAYERS.index(layer)]
    stdlib = sys.stdlib_module_names
    problems = []
    for path in _sources(layer):
        for line, module in _imports(path):
            where = f"{layer}/{path.name}:{line} imports {module}"
            top = module.split(".")[0]
            if top == "autodiff":
                target = module.split(".")[1] if module.count(".") else ""
                if target == layer:
                    continue
                if target not in below:
                    problems.append(f"{where}: {layer} may not depend on {target or 'autodiff'}")
                elif module not in PUBLIC[target]:
                    problems.append(f"{where}: not a public module of {target} ({sorted(PUBLIC[target])})")
            elif top not in stdlib and top not in THIRD_PARTY[layer] and top != "__future__":
                problems.append(f"{where}: {top} is not a dependency of {layer}")
    assert not problems, "\n".join(problems)


def test_lark_is_imported_only_by_the_generator():
    for path in _sources("grammar"):
        if path.name != "generate.py":
            assert not [m for _, m in _imports(path) if m.split(".")[0] == "lark"], path


@pytest.mark.parametrize("layer", ["grammar", "app", "cli"])
def test_no_private_attribute_of_engine_objects_outside_the_engine(layer):
    problems = []
    for path in _sources(layer):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value.id if isinstance(node.value, ast.Name) else None
                if owner in ("self", "cls", "_os", "_sys", "_signal", "_tables") or (
                        path.name == "generate.py" and node.attr == "_build_scanner"):  # lark's, at generation
                    continue
                problems.append(f"{layer}/{path.name}:{node.lineno}: .{node.attr}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", ["grammar", "app", "cli"])
def test_no_assignment_to_engine_state_outside_the_engine(layer):
    problems = []
    for path in _sources(layer):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                text = ast.unparse(target)
                if text.startswith(("engine.", "E.", "STATE.")):
                    problems.append(f"{layer}/{path.name}:{node.lineno}: {text} = ...")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer", ["engine", "grammar"])
def test_no_command_line_option_in_engine_or_grammar(layer):
    option = re.compile(r"--[a-z][a-z-]+")
    problems = []
    for path in _sources(layer):
        if path.name == "generate.py":  # a development script with its own --check
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if option.search(line):
                problems.append(f"{layer}/{path.name}:{number}: {line.strip()}")
    assert not problems, "\n".join(problems)


def test_no_source_file_over_the_limit():
    long = [f"{layer}/{p.name}: {n} lines" for layer in LAYERS for p in _sources(layer)
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES]
    assert not long, "\n".join(long)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["eval", "--help"]])
def test_help_and_version_do_not_import_numpy(args):
    code = (f"import sys\nfrom autodiff.cli.main import cli\ntry:\n    cli.main({args!r}, standalone_mode=False)\n"
            "except SystemExit:\n    pass\nprint('numpy' in sys.modules, 'rich' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stdout + done.stderr
