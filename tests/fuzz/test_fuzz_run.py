"""Fuzzing `autodiff run FILE|-`: PyTorch-style scripts (imports, print, backward, zero_, next_functions,
tuples, strings) built from the language, plus token soup and random bytes. Whatever the script, the run
ends in time with exit 0, 1 or 2, no traceback, and at most one `autodiff: KIND error` message on stderr
after what the script printed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

FUZZ = settings.get_profile("fuzz-active")

SCRIPT_STATEMENTS = st.sampled_from([
    "import torch", "import torch as T", "import numpy as np", "import torch.autograd", "import os",
    "x = torch.ones(2, requires_grad=True)", "x = torch.tensor(2.0, requires_grad=True)", "y = x * 2",
    "out = (x * x).sum()", "out.backward()", "out.backward(retain_graph=True)", "out.backward(create_graph=True)",
    "y.backward(torch.ones(2))", "y.backward(gradient=torch.ones(3))", "print(x.grad)", "x.grad.zero_()",
    "x.grad.data.zero_()", "print(out.grad_fn.next_functions[0][0])",
    "print(out.grad_fn.next_functions[0][0].variable)",
    "y.retain_grad()", "print(y.grad)", "x.requires_grad_()", "z = torch.Tensor([[1, 2], [3, 4]])",
    "z = torch.FloatTensor(2, 3)", "print(x, y, sep=', ', end='!')", "print('text', 1, 2.5, None, True, (1, 2))",
    "print((1, 2)[5])", "t = (x, y)", "print(t[0])", "print(T.ones(1))", "np.ones(2)", "print(x.shape, x.size())",
    "print(x.dtype, x.is_leaf, x.requires_grad)", "torch.manual_seed(0)", "torch.manual_seed(-1)",
    "print(torch.randn(2, 2))", "print(torch.autograd.grad(out, x))", "torch.set_grad_enabled(False)",
    "x[0] = 5", "y[0] = 5", "print(x.grad.grad_fn)", "print('\\ud800')", "print('\\udcff')", "print('\\x00\\n')",
    "print(\"\"\"many\nlines\"\"\")", "print(r'x')", "print(f'x')", "del x", "x.foo", "x._data", "print",
])


@st.composite
def scripts(draw: st.DrawFn, fz) -> str:
    lines = draw(st.lists(st.one_of(SCRIPT_STATEMENTS, SCRIPT_STATEMENTS, fz.programs(max_statements=1)),
                          min_size=1, max_size=10))
    return "\n".join(lines) + "\n"


@settings(FUZZ)
@given(data=st.data())
def test_generated_scripts(fz, data):
    script = data.draw(scripts(fz), label="script")
    options = data.draw(st.sampled_from([[], ["--seed", "0"], ["--dtype", "float64"], ["--max-elements", "3"]]),
                        label="options")
    fz.check_run(["run", "-", *options], input=script)


@settings(FUZZ)
@given(data=st.data())
def test_token_soup_and_bytes(fz, data):
    soup = fz.token_soup(max_size=40).map(lambda t: t.encode("utf-8", "surrogateescape"))
    text = fz.any_text().map(lambda t: t.encode("utf-8", "surrogatepass"))
    script = data.draw(st.one_of(soup, st.binary(max_size=200), text), label="script")
    fz.check_run(["run", "-"], input=script)


@settings(FUZZ)
@given(data=st.data())
def test_script_files(fz, data, tmp_path_factory):
    """The same through a file: any bytes, with the file's errors (not UTF-8, ...) typed as io."""
    raw = data.draw(st.one_of(scripts(fz).map(str.encode), st.binary(max_size=100)), label="script")
    path = tmp_path_factory.mktemp("scripts") / "script.autodiff"
    path.write_bytes(raw)
    fz.check_run(["run", str(path)])


@settings(FUZZ)
@given(data=st.data())
def test_repl_sessions(fz, data):
    """`autodiff repl` fed from a pipe: every error is reported and the session goes on to exit 0."""
    session = data.draw(st.one_of(scripts(fz).map(str.encode), st.binary(max_size=100),
                                  fz.token_soup(max_size=30).map(lambda t: t.encode("utf-8", "surrogateescape"))),
                        label="session")
    outcome = fz.check_run(["repl"], input=session, session=True)
    assert outcome.code == 0, outcome
