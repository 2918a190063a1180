# d2l's probability chapter: a fair die with Multinomial, relative frequencies converging, and the other
# distributions that chapter and the statistics one sample from
import torch
from torch.distributions import Bernoulli, Categorical, Exponential, Uniform
from torch.distributions.multinomial import Multinomial

torch.manual_seed(0)
fair_probs = torch.ones([6]) / 6
print(Multinomial(1, fair_probs).sample())
print(Multinomial(10, fair_probs).sample())
counts = Multinomial(1000, fair_probs).sample()
print(counts / 1000)
counts = Multinomial(10, fair_probs).sample((500,))
cum_counts = counts.cumsum(dim=0)
estimates = cum_counts / cum_counts.sum(dim=1, keepdims=True)
print(estimates[-1], estimates[:2])
m = Multinomial(100, torch.tensor([0.5, 0.5]))
print(m.sample((3,)), m.mean, m.variance, m.log_prob(torch.tensor([50.0, 50.0])))
print(Multinomial(4, logits=torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).sample((2,)))

b = Bernoulli(torch.tensor([0.1, 0.5, 0.9]))
print(b.sample(), b.sample((4,)).mean(0), b.log_prob(torch.tensor([1.0, 1.0, 0.0])), b.entropy(), b.mode)
print(Bernoulli(logits=torch.tensor(0.3)).probs, Bernoulli(0.25).sample((5,)), b.enumerate_support())
c = Categorical(torch.tensor([0.1, 0.2, 0.3, 0.4]))
s = c.sample((1000,))
print(s[:10], torch.bincount(s) / 1000, c.entropy(), c.mode, c.enumerate_support())
u = Uniform(torch.tensor([0.0, -1.0]), torch.tensor([1.0, 3.0]))
print(u.sample(), u.sample((3,)), u.mean, u.stddev, u.log_prob(torch.tensor([0.5, 2.5])), u.entropy(), u)
e = Exponential(torch.tensor([1.0, 4.0]))
print(e.sample(), e.sample((2,)), e.log_prob(torch.tensor([0.5, 0.5])), e.cdf(torch.tensor([1.0, 1.0])),
      e.icdf(torch.tensor([0.5, 0.5])), e.entropy(), e.mean)
print(Exponential(2.0).sample((5,)).mean())
try:
    Categorical(torch.tensor([0.5, -0.5]))
except ValueError as error:
    print("ValueError", str(error).splitlines()[0])
print(Uniform(0.0, 1.0, validate_args=False).log_prob(torch.tensor([0.5, 1.5])))
Categorical(torch.tensor(0.5))
