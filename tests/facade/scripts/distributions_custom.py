# A distribution of the script's own (Distribution subclassed, PyTorch's warnings for what it leaves out) and a
# subclass of Normal with a tighter constraint
import warnings
import torch
from torch.distributions import Distribution, Normal
from torch.distributions import constraints

class Coin(Distribution):
    def __init__(self, p):
        self.p = p
        super().__init__(p.shape)
    def sample(self, sample_shape=torch.Size()):
        return torch.bernoulli(self.p.expand(self._extended_shape(sample_shape)))
    def log_prob(self, value):
        self._validate_sample(value)
        return value * self.p.log() + (1 - value) * (1 - self.p).log()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.manual_seed(0)
    c = Coin(torch.tensor([0.3, 0.8]))
    print(c.sample((2,)), c.log_prob(torch.tensor([1.0, 0.0])), c.batch_shape)
    print([str(w.message)[-60:] for w in caught])

class Shifted(Normal):
    arg_constraints = {"loc": constraints.real, "scale": constraints.greater_than(0.5)}
try:
    Shifted(0.0, 0.2)
except ValueError as e:
    print(str(e).splitlines()[0])
print(Shifted(1.0, 2.0).expand([2]).sample().shape, constraints.greater_than(0.5), constraints.interval(0, 1))
