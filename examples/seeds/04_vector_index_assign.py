# Seed tutorial "How Pytorch tensors' backward() accumulates gradient" (Yang Zhang), vector version:
# y is a vector written element by element; backward with a gradient of ones.
# The tutorial drew x with torch.rand((2, 1), requires_grad = True); the numbers it printed are fixed here.
import torch
x = torch.tensor([[0.3725], [0.4378]], requires_grad = True); print(x)

y = torch.zeros(3, 1)
y[0] = x[0]**2
y[1] = x[1]**3
y[2] = x[1]**4
y.backward(gradient=torch.ones(y.size()))

# Cumulative grad of x[0] and x[1] respectively.
print(x.grad)

# Now manually calculate the gradient and compare.
print((2*x[0], 3*x[1]**2, 4*x[1]**3))

print((2*x[0], 3*x[1]**2 + 4*x[1]**3))
