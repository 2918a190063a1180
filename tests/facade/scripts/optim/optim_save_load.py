# A checkpoint through torch.save and torch.load: 0-d tensors (Adam's state['step'], a loss) come back 0-d, so
# training resumes from the loaded optimizer exactly as from the original.
import io

import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x, y = torch.randn(8, 3), torch.randn(8, 2)
for _ in range(3):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "loss": loss.detach()}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer)
print(checkpoint["loss"].shape, checkpoint["opt"]["state"][0]["step"], checkpoint["opt"]["state"][0]["step"].shape)
resumed = torch.nn.Linear(3, 2)
resumed.load_state_dict(checkpoint["model"])
opt2 = torch.optim.Adam(resumed.parameters(), lr=0.05)
opt2.load_state_dict(checkpoint["opt"])
for m, o in ((model, opt), (resumed, opt2)):
    o.zero_grad()
    torch.nn.functional.mse_loss(m(x), y).backward()
    o.step()
print(torch.equal(model.weight, resumed.weight), resumed.bias, opt2.state_dict()["state"][1]["step"])
