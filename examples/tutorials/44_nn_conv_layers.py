# torch.nn's convolution and pooling layers: PyTorch's initialisation under the seed, its repr, and the
# gradients of a small convolutional network (the model of PyTorch's per-sample-gradients tutorial, smaller).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv2d(1, 4, 3)
print(conv)
print(conv.weight.shape, conv.bias)
x = torch.randn(2, 1, 6, 6)
y = conv(x)
print(y.shape, y.grad_fn)
print(nn.Conv2d(4, 6, kernel_size=(3, 2), stride=2, padding=1, bias=False, groups=2))
print(nn.Conv1d(2, 3, 3, padding='same', padding_mode='reflect', dilation=2))
print(nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1))
print(nn.MaxPool2d(2), nn.AvgPool2d(2, stride=1), nn.MaxPool1d(3), nn.AvgPool1d(2))


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 8, 3, 1)
        self.fc1 = nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc1(x), dim=1)


model = SimpleCNN()
print(model)
data = torch.randn(3, 1, 8, 8)
targets = torch.tensor([1, 0, 7])
loss = F.nll_loss(model(data), targets)
loss.backward()
print(loss)
print(model.conv1.weight.grad.sum(), model.conv2.bias.grad)
print(model.fc1.weight.grad.abs().sum())
