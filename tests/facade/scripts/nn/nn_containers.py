# ModuleDict, ParameterList, ParameterDict, Unflatten, Dropout1d/2d, LazyLinear, clip_grad_norm_ and
# clip_grad_value_ against PyTorch
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
md["out"] = nn.Linear(3, 1)
print(md, list(md.keys()), len(md), "act" in md, [type(m).__name__ for m in md.values()])
x = torch.randn(4, 2)
print(md["out"](md["act"](md["lin"](x))))
print([n for n, _ in md.named_parameters()])
md.pop("act")
print(md)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.randn(2, 2)) for _ in range(2)])
        self.bs = nn.ParameterDict({"first": nn.Parameter(torch.zeros(2)), "second": torch.ones(2)})
        self.layers = nn.ModuleDict({"a": nn.Linear(2, 2)})

    def forward(self, x):
        for w, b in zip(self.ws, self.bs.values()):
            x = torch.tanh(x @ w + b)
        return self.layers["a"](x)


net = Net()
print(net, [n for n, _ in net.named_parameters()], net.bs["second"].requires_grad)
out = net(x).sum()
out.backward()
print(out, net.ws[1].grad, net.bs["first"].grad)
pl = nn.ParameterList([torch.ones(3)])
pl.append(nn.Parameter(torch.zeros(1, 2)))
print(pl, len(pl), type(pl[0]).__name__, list(net.state_dict().keys()))

un = nn.Unflatten(1, (2, 3))
print(un, un(torch.arange(12.0).reshape(2, 6)).shape)
seq = nn.Sequential(nn.Linear(4, 6), un, nn.Flatten())
print(seq, seq(torch.ones(1, 4)).shape)
d2 = nn.Dropout2d(0.5)
print(d2, d2(torch.ones(2, 4, 2, 2))[:, :, 0, 0])
print(F.dropout1d(torch.ones(1, 3, 2), 0.4), F.dropout2d(torch.ones(3, 2, 2), 0.5, training=False).sum())
lazy = nn.LazyLinear(3)
print(lazy)
print(lazy(torch.ones(2, 5)), lazy, lazy.weight.shape)
print(torch.rand(1))

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
loss = (model(torch.randn(5, 3)) ** 2).sum() * 10
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total, model[0].weight.grad, sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5)
total = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf"))
print(total, model[2].bias.grad)
nn.utils.clip_grad_value_(model.parameters(), 0.05)
print(model[0].bias.grad, nn.utils.parameters_to_vector(model.parameters()).shape)
print(nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0))
