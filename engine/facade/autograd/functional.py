"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp."""

from autodiff.engine.transforms.autograd_functional import hessian, hvp, jacobian, jvp, vhp, vjp

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]
