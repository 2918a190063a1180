"""The symbolic side, on SymPy (imported only by the commands that need it): a program of the language made a
SymPy expression from our own syntax tree (program.py; never SymPy's parser of user text), the derivative as
a textbook writes it with its steps (diff, steps, bookform, printing), the op table's formulas on SymPy
(sympymath) and time-bounded exact work (exact)."""
