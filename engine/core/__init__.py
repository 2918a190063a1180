"""The autograd core: the Tensor and its dtypes, settings and grad modes, the op table and the registry of
built-ins, recording a node for each op, the graph, in-place writes and views, the executor of backward passes,
the formulas' vocabularies (on arrays for a pass, on Tensors for create_graph), custom Functions, and the Tensor's
API installed once every operation exists."""
