"""Random numbers as PyTorch's CPU generator draws them: the generator (numpy's MT19937 in PyTorch's order) and
the distributions (rand, randn, normal_, bernoulli, multinomial, randperm, ...)."""
