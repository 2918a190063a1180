# Tensor.random_ in every form PyTorch has, drawn as PyTorch draws
import torch

torch.manual_seed(0)
for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.float32, torch.float64]:
    print(dt, torch.empty(5, dtype=dt).random_().tolist())
    print(dt, torch.empty(5, dtype=dt).random_(7).tolist(), torch.empty(3, dtype=dt).random_(-2 if dt != torch.uint8
                                                                                             else 0, 2).tolist())
print(torch.empty(6, dtype=torch.bool).random_().tolist())
for dt in [torch.int64, torch.float32, torch.float64]:
    print(torch.empty(4, dtype=dt).random_(3, 2**40).tolist())
    print(torch.empty(4, dtype=dt).random_(-2**63, None).tolist())
    print(torch.empty(4, dtype=dt).random_(5, None).tolist())
g = torch.Generator().manual_seed(5)
print(torch.empty((), dtype=torch.int64).random_(generator=g).item())
print(torch.zeros(2, 3).random_(to=10), torch.zeros(3).random_(2, to=4))
x = torch.zeros(2, 4, dtype=torch.int64)
x.t().random_(100)
print(x)
try:
    torch.empty(2, dtype=torch.uint8).random_(-3, 5)
except RuntimeError as e:
    print("RuntimeError", e)
torch.empty(2).random_(5, 3)
