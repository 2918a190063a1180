"""Transforms of functions: forward-mode AD (dual tensors, their tangents, forward-over-reverse, nested levels),
torch.func (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call) with its pytrees,
torch.autograd.functional's Jacobians and Hessians, and gradcheck."""
