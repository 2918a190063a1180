# Lazy layers as d2l's CNN chapters use them: LazyConv2d, LazyBatchNorm2d/1d, LazyLinear and LazyConvTranspose1d
# take their input sizes from the first call, draw their weights then (PyTorch's numbers after manual_seed) and
# become the eager layers; an optimizer made before that call still holds the same parameters.
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
net = nn.Sequential(
    nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(kernel_size=2, stride=2),
    nn.LazyConv2d(16, kernel_size=3), nn.Sigmoid(), nn.Flatten(),
    nn.LazyLinear(12), nn.LazyBatchNorm1d(), nn.ReLU(), nn.LazyLinear(10))
print(net)
print(net[0].weight, type(net[0].weight).__name__, type(net[1].running_mean).__name__)
print(net[0].in_channels, net[1].num_features, net[7].in_features, net[0].has_uninitialized_params())
print(list(net.state_dict()))
try:
    print(sum(p.numel() for p in net.parameters()))
except ValueError as e:
    print("ValueError:", str(e)[:60])

optimizer = torch.optim.SGD(net.parameters(), lr=0.1)  # before the first call: the same Parameter objects after it
X = torch.randn(4, 1, 12, 12)
y = torch.tensor([0, 3, 9, 3])
print(net(X).shape)
print(net)
print(sum(p.numel() for p in net.parameters()), optimizer.param_groups[0]["params"][0] is net[0].weight)
print(net[0].weight[0, 0, 0], net[0].bias, net[4].weight.flatten()[:5], net[7].bias[:4])
print(net[1].running_mean, net[1].num_batches_tracked, net[8].running_var[:4])


def init_cnn(module):
    if type(module) is nn.Linear or type(module) is nn.Conv2d:
        nn.init.xavier_uniform_(module.weight)


net.apply(init_cnn)
for step in range(3):
    loss = F.cross_entropy(net(X), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 0:  # later steps print fewer digits: float32's last bits grow through the updates
        print(step, loss.item(), net[0].weight.grad.abs().sum().item(), net[10].bias.grad[:3])
    else:
        print(step, f"{loss.item():.2f} {net[0].weight.grad.abs().sum().item():.1f}")
print(net[1].running_var)

up = nn.LazyConvTranspose1d(4, 3, stride=2)
print(up)
print(up(torch.randn(2, 3, 5)).shape, up, up.weight.shape)
grouped = nn.LazyConv1d(4, 3, groups=2, bias=False)
print(grouped(torch.randn(2, 6, 7)).shape, grouped, grouped.weight.shape, grouped.bias)
three = nn.LazyBatchNorm3d(affine=False)
print(three, three(torch.ones(2, 3, 1, 1, 2)).shape, three, three.weight)
try:
    nn.LazyConv2d(6, 5)(torch.randn(3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.LazyConv1d(4, 3, groups=2)(torch.randn(2, 5, 7))
except ValueError as e:
    print("ValueError:", e)
