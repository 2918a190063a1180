# The headers and the numpy of "Learning PyTorch with Examples": devices as the CPU, math, numpy arrays made,
# computed and turned into tensors (np.random is numpy's own generator), and back with .numpy().
import numpy as np
import math
import torch

dtype = torch.float
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.device(device), torch.device("cpu"))

# Create random input and output data
np.random.seed(0)
x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)

# Randomly initialize weights
a = np.random.randn()
b = np.random.randn()
c = np.random.randn()
d = np.random.randn()

learning_rate = 1e-6
for t in range(2000):
    # Forward pass: compute predicted y
    # y = a + b x + c x^2 + d x^3
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, loss)

    # Backprop to compute gradients of a, b, c, d with respect to loss
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()

    # Update weights
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')

xs = torch.from_numpy(x[:5])
w = torch.tensor(np.array([0.5, -1.5]), dtype=dtype, device=device, requires_grad=True)
z = (w * 2).sum()
z.backward()
print(xs, w.device, w.to(device), w.grad.numpy(), w.detach().cpu().numpy())
print(torch.zeros(2, 3, device=torch.device("cpu")).to(torch.float64).dtype, xs.to(w).dtype)
