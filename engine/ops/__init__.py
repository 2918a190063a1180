"""The operations by kind, each module declaring its ops (forward, backward formulas, PyTorch's node names) and
its built-ins: arithmetic, elementwise functions, reductions and moments, cumulative ops, sorting and counting,
shapes and rearrangements, joins, gathers, indexing, comparisons and logic, linear algebra and decompositions,
einsum, constructors."""
