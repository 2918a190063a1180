"""autodiff.app: what the commands do, without click: one eval run (session), checking and gradcheck,
the graph as records and the graph observed through a backward pass, and the explanation of a pass.

It uses the language (autodiff.grammar) and the engine (autodiff.engine) through their public APIs; the
command line (autodiff.cli) turns options into its requests and renders its results."""

