# The loss functions of torch.nn.functional, their reductions and gradients, and a line fitted by hand.
import torch
import torch.nn.functional as F

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
for reduction in ["mean", "sum", "none"]:
    losses = [F.mse_loss(x, y, reduction=reduction), F.l1_loss(x, y, reduction=reduction),
              F.binary_cross_entropy_with_logits(x, y, reduction=reduction),
              F.binary_cross_entropy(torch.sigmoid(x), y, reduction=reduction)]
    for loss in losses:
        x.grad = None
        loss.sum().backward()
        print(reduction, loss.grad_fn.name(), loss.detach(), x.grad)

p = torch.tensor([0.0, 1.0, 0.5], requires_grad=True)
loss = F.binary_cross_entropy(p, y)
loss.backward()
print(loss, p.grad)

# y = 2x + 1 from four points, by gradient descent on the mean squared error
xs = torch.tensor([0.0, 1.0, 2.0, 3.0])
ys = 2 * xs + 1
w = torch.tensor(0.0, requires_grad=True)
c = torch.tensor(0.0, requires_grad=True)
for step in range(200):
    loss = F.mse_loss(w * xs + c, ys)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        c -= 0.1 * c.grad
    w.grad.zero_()
    c.grad.zero_()
    if step % 50 == 0:
        print(f"step {step}: loss {loss.item():.6f}")
print(f"w = {w.item():.4f}, c = {c.item():.4f}")
