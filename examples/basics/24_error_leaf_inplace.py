# An in-place update of a leaf that requires grad, outside no_grad: PyTorch refuses it.
import torch

w = torch.tensor([1., 2.], requires_grad=True)
print(w)
w -= 0.1
print(w)
