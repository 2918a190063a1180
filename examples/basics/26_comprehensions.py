# Comprehensions and generators: their names stay inside them, as in Python 3.
import torch
x = torch.tensor([1., 2., 3.])
print([v.item() * 2 for v in x if v > 1], sum(i * i for i in range(4)), [(a, b) for a, b in zip([1, 2], [3, 4])])
print([[j for j in range(i)] for i in range(3)])
print(max(abs(v.item()) for v in x), [i for i in range(10) if i % 2 if i > 4])
