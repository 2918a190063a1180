# nn.MultiheadAttention (parameters and their init after manual_seed, need_weights, average_attn_weights, attn_mask,
# key_padding_mask, batch_first, bias=False, unbatched input, dropout, eval) and torch.baddbmm: values, gradients, node
# graphs, printed forms; an embed_dim that num_heads does not divide
import torch, torch.nn as nn
torch.manual_seed(0)
def kind(e):
    for cls in (TypeError, ValueError, IndexError, NotImplementedError, RuntimeError):
        if isinstance(e, cls):
            return cls.__name__
    return type(e).__name__
def graph(t):
    seen, out, stack = set(), [], [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen: continue
        seen.add(fn); out.append(fn.name().replace("torch::autograd::", ""))
        stack.extend(reversed([n for n, _ in fn.next_functions]))
    return out
mha = nn.MultiheadAttention(8, 2)
print(mha, [(n, tuple(p.shape)) for n, p in mha.named_parameters()])
print(mha.in_proj_weight[:2], mha.out_proj.weight[0], mha.in_proj_bias[:3])
x = torch.randn(5, 3, 8, requires_grad=True)
out, w = mha(x, x, x)
print(out.shape, w.shape, out[0, 0], w[0, 0])
print(graph(out))
(out.pow(2).sum() + (w * torch.linspace(0, 1, w.numel()).reshape(w.shape)).sum()).backward()
print(x.grad[0, 0], mha.in_proj_weight.grad[0], mha.out_proj.bias.grad)
mha.zero_grad(); x.grad = None
out, w = mha(x, x, x, need_weights=False)
print(w, out[1, 2], graph(out))
mask = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
out, w = mha(x, x, x, attn_mask=mask)
print(out[4, 1], w[1, 3])
pad = torch.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
out, w = mha(x, x, x, key_padding_mask=pad, average_attn_weights=False)
print(w.shape, w[1, 0, 2], out[2, 1])
out, w = mha(x, x, x, attn_mask=mask, key_padding_mask=pad, need_weights=False)
print(out[3, 2])
torch.manual_seed(3)
bf = nn.MultiheadAttention(6, 3, batch_first=True, bias=False)
print(bf, [n for n, _ in bf.named_parameters()])
q = torch.randn(2, 4, 6, requires_grad=True)
kv = torch.randn(2, 7, 6)
out, w = bf(q, kv, kv)
print(out.shape, w.shape, out[1, 3], graph(out)[:8])
out.sum().backward()
print(q.grad[0, 0], bf.in_proj_weight.grad[0])
out, w = bf(q, kv, kv * 2)
print(out[0, 0])
u = torch.randn(4, 6)
out, w = bf(u, u, u)
print(out.shape, w.shape, out[0])
dm = nn.MultiheadAttention(4, 1, dropout=0.5)
torch.manual_seed(5)
print(dm(x[..., :4], x[..., :4], x[..., :4])[0][0, 0])
dm.eval()
print(dm(x[..., :4], x[..., :4], x[..., :4])[0][0, 0])
print(torch.baddbmm(torch.ones(2, 3, 4), torch.ones(2, 3, 5), torch.ones(2, 5, 4), beta=0.5, alpha=2)[0, 0])
for bad in [lambda: mha(x, x, x, is_causal=True), lambda: nn.MultiheadAttention(6, 0)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(kind(e), str(e).splitlines()[0])
