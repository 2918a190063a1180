"""autodiff.grammar: the language's grammar, its parser, and the evaluator that turns programs into
engine calls (so the autograd graph is built as the program runs)."""
