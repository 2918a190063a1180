"""autodiff.grammar: the language. `syntax` turns a program's text into its syntax tree (the grammar is
autodiff.lark); `interpreter` runs the tree against a backend: the engine's, so the autograd graph is built
as the program runs, or another (autodiff diff records the same operations on symbols)."""
