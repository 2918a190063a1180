# Linear regression f(x) = w * x by hand: the loop every gradient-descent tutorial starts with.
import torch

X = torch.tensor([1.0, 2.0, 3.0, 4.0])
Y = torch.tensor([2.0, 4.0, 6.0, 8.0])
w = torch.tensor(0.0, requires_grad=True)


def forward(x):
    return w * x


def loss(y, y_predicted):
    return ((y_predicted - y) ** 2).mean()


print(f"Prediction before training: f(5) = {forward(5).item():.3f}")

learning_rate = 0.01
n_iters = 20
for epoch in range(n_iters):
    y_pred = forward(X)
    l = loss(Y, y_pred)
    l.backward()
    with torch.no_grad():
        w -= learning_rate * w.grad
    w.grad.zero_()
    if epoch % 2 == 0:
        print(f"epoch {epoch + 1}: w = {w:.3f}, loss = {l:.8f}")

print(f"Prediction after training: f(5) = {forward(5).item():.3f}")
print(w)
