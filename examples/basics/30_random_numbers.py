# Random numbers as tutorials draw them: after torch.manual_seed(s) every tensor below is PyTorch's own,
# bit for bit (d2l's synthetic regression data, weights initialised with normal_ and uniform_, ...).
import torch

torch.manual_seed(0)
print(torch.randn(3))
print(torch.rand(2, 3))
print(torch.randn(2, 2, dtype=torch.float64))


def synthetic_data(w, b, num_examples):
    """y = Xw + b + noise (Dive into Deep Learning, linear regression from scratch)."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print('features:', features[0], '\nlabel:', labels[0])
print(features.mean(), labels.std())

w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(w)

torch.manual_seed(42)
W = torch.zeros(3, 4, requires_grad=True)
with torch.no_grad():
    W.normal_(0, 0.1)
print(W)
W.data.uniform_(-0.5, 0.5)
print(W)
print(torch.randint(0, 10, (8,)))
print(torch.randperm(6))
print(torch.bernoulli(torch.full((6,), 0.5)))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True))
x = torch.randn(100)
print(x.mean(), x.std())
print(torch.randn_like(x[:3]), torch.rand_like(W))
