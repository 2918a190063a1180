# torch.func.vmap after PyTorch's "Model ensembling" and "Per-sample-gradients" tutorials, smaller (MLPs of
# Linear layers, 4 models, 8 samples) and without copy.deepcopy(...).to('meta'): functional_call takes the
# first model itself. vmap's values are PyTorch's; a vmapped result's grad_fn is StackBackward0 (a loop).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, stack_module_state, vmap
torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(6, 5)
        self.fc2 = nn.Linear(5, 3)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


num_models = 4
data = torch.randn(num_models, 8, 2, 3)
models = [SimpleMLP() for _ in range(num_models)]
loop = torch.stack([model(minibatch) for model, minibatch in zip(models, data)])

params, buffers = stack_module_state(models)
print([p.size(0) for p in params.values()], buffers)


def fmodel(params, buffers, x):
    return functional_call(models[0], (params, buffers), (x,))


predictions = vmap(fmodel)(params, buffers, data)
print(predictions.shape, torch.allclose(predictions, loop, atol=1e-6))
same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, data[0])
print(same[:, 0])

# Per-sample gradients of the first model
model = models[0]
targets = torch.randint(3, (8,))
weights = {k: v.detach() for k, v in model.named_parameters()}


def compute_loss(params, sample, target):
    prediction = functional_call(model, params, (sample.unsqueeze(0),))
    return F.cross_entropy(prediction, target.unsqueeze(0))


per_sample = vmap(grad(compute_loss), in_dims=(None, 0, 0))(weights, data[0], targets)
for name, g in per_sample.items():
    print(name, g.shape, g.sum(0))
loss = F.cross_entropy(model(data[0]), targets, reduction="sum")
loss.backward()
print(torch.allclose(model.fc2.bias.grad, per_sample["fc2.bias"].sum(0), atol=1e-6))
