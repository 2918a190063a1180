# A range inside an index is a sequence, as PyTorch reads it (makemore part 4: logprobs[range(n), Yb]): advanced
# indexing, IndexBackward0, and the same in an assignment.
import torch
x = torch.arange(12.).reshape(3, 4).requires_grad_()
y = x[range(3), [0, 1, 2]]
print(y, y.grad_fn)
print(x[range(1, 3)], x[range(0)].shape, x[:, range(0, 4, 2)])
z = torch.zeros(3, 4)
z[range(3), torch.tensor([1, 2, 3])] = 5.0
print(z)
y.sum().backward(); print(x.grad)
print(x[(range(2),)])
