# A variational autoencoder's step as tutorials write it with torch.distributions: q = Normal(mu, std) from the
# encoder, z = q.rsample(), the decoder's Bernoulli log-likelihood, kl_divergence(q, p) to the prior N(0, 1)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Bernoulli, Independent, Normal, kl_divergence

torch.manual_seed(1)
encoder = nn.Linear(6, 4)
decoder = nn.Linear(2, 6)
opt = torch.optim.SGD(list(encoder.parameters()) + list(decoder.parameters()), lr=0.1)
x = torch.bernoulli(torch.full((3, 6), 0.4))
for step in range(4):
    h = encoder(x)
    mu, log_var = h[:, :2], h[:, 2:]
    std = torch.exp(0.5 * log_var)
    q = Normal(mu, std)
    p = Normal(torch.zeros_like(mu), torch.ones_like(std))
    z = q.rsample()
    recon = Bernoulli(logits=decoder(z)).log_prob(x).sum(-1)
    kl = kl_divergence(q, p).sum(-1)
    loss = (kl - recon).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", z.grad_fn.name(), recon.grad_fn.name(), kl.grad_fn.name())
print(encoder.bias.grad, decoder.weight.grad[0])

# the same with Independent over the latent dims, and a reparametrised Monte-Carlo KL
q1 = Independent(Normal(mu, std), 1)
p1 = Independent(Normal(torch.zeros(2), torch.ones(2)), 1)
z = q1.rsample((5,))
print(z.shape, q1.log_prob(z).shape, kl_divergence(q1, p1), (q1.log_prob(z) - p1.log_prob(z)).mean(0))
print(q1.batch_shape, q1.event_shape, q1.mean, q1.variance.shape, q1.entropy())
n = Normal(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 0.5]))
print(n.sample(), n.sample((2,)), n.log_prob(torch.tensor([0.5, 1.5])), n.cdf(torch.tensor([0.0, 2.5])))
print(n.entropy(), n.stddev, n.variance, n.mean, n.expand((3, 2)).sample(), n)
