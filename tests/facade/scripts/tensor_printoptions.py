# torch.set_printoptions as PyTorch has it: precision, threshold, edgeitems, linewidth, the profiles 'default', 'short'
# and 'full', and sci_mode (set by every call); the last line puts the defaults back (the scripts share one process).
import torch
x = torch.arange(12.) / 7
torch.set_printoptions(precision=2)
print(x)
torch.set_printoptions(threshold=5)
print(torch.arange(10), x)
torch.set_printoptions(profile="short")
print(torch.arange(100.).reshape(10, 10) / 3)
torch.set_printoptions(profile="full")
print(torch.arange(1200)[-5:], torch.arange(1200).shape)
torch.set_printoptions(linewidth=40)
print(torch.arange(30.) * 1.5)
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.0]), torch.tensor([0., 0.]), torch.tensor([3.0, 4.0]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-8, 1e9]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-8, 1e9]), torch.arange(2000.))
torch.set_printoptions(edgeitems=1, threshold=3)
print(torch.ones(4, 5), torch.tensor([[1.5]], requires_grad=True) * 2)
torch.set_printoptions(profile="default")
