"""torch.nn on the engine: the functions behind its layers (linear, convolution, pooling, padding, activations,
losses and their backward kernels), Module and Parameter, the layers and containers, the modules made of
functions (ReLU, MSELoss, ...), and torch.nn.init."""
