# nn.Embedding and F.embedding: PyTorch's weights under manual_seed, lookups, EmbeddingBackward0's gradient
# (repeated indices, padding_idx, scale_grad_by_freq), max_norm, from_pretrained, F.one_hot, the errors
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(10, 3)
print(emb, emb.weight)
idx = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
out = emb(idx)
print(out.shape, out[1], out.grad_fn.name())
(out * torch.arange(24.0).reshape(2, 4, 3)).sum().backward()
print(emb.weight.grad)
pad = nn.Embedding(5, 2, padding_idx=-1)
print(pad, pad.weight)
p = pad(torch.tensor([4, 0, 4, 1]))
p.sum().backward()
print(p, pad.weight.grad)
freq = nn.Embedding(4, 2, scale_grad_by_freq=True)
freq(torch.tensor([0, 0, 0, 2])).sum().backward()
print(freq, freq.weight.grad)
w = torch.randn(6, 4, requires_grad=True)
e = F.embedding(torch.tensor([5, 0, 5]), w, padding_idx=0)
e.pow(2).sum().backward()
print(e, w.grad)
norm = nn.Embedding(4, 3, max_norm=1.0)
print(norm, norm(torch.tensor([1, 3])), norm.weight.norm(dim=1))
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre, pre.weight.requires_grad, pre(torch.tensor([1])))
chars = torch.tensor([0, 3, 1])
print(F.one_hot(chars), F.one_hot(chars, num_classes=5).float() @ torch.arange(10.0).reshape(5, 2))
C = torch.randn((27, 2))
X = torch.randint(0, 27, (4, 3))
print(C[X].shape, C[X][0], torch.nn.functional.one_hot(X, 27).shape)
for bad in (torch.tensor([1.0]), torch.tensor([10])):
    try:
        emb(bad)
    except IndexError as err:
        print("IndexError", err)
    except RuntimeError as err:
        print("RuntimeError", err)
emb(torch.tensor([[-1]]))
