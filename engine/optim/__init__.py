"""torch.optim on the engine: the optimizers (SGD, Adam, ...) and the learning-rate schedulers."""
