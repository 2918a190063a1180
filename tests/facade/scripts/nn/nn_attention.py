# F.scaled_dot_product_attention on the CPU (its flash kernel and its math path): masks, is_causal, scale, a row
# masked out entirely, dropout after manual_seed: values, gradients, node graphs and the error of a mask with is_causal
import torch, torch.nn.functional as F
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
q = torch.randn(2, 3, 4, 8, requires_grad=True)
k = torch.randn(2, 3, 5, 8, requires_grad=True)
v = torch.randn(2, 3, 5, 6, requires_grad=True)
m = torch.randn(4, 5, requires_grad=True)
w = torch.randn(2, 3, 5, 8, requires_grad=True)
calls = [
    ("plain", lambda: F.scaled_dot_product_attention(q, k, v)),
    ("causal", lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)),
    ("bool_mask", lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=torch.rand(4, 5) > 0.3)),
    ("masked_row", lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor([[True] * 5, [False] * 5, [True, False] * 2 + [True], [False] * 4 + [True]]))),
    ("float_mask", lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=m)),
    ("scale", lambda: F.scaled_dot_product_attention(q[0], k[0], v[0], scale=0.3)),
    ("negative_scale", lambda: F.scaled_dot_product_attention(q[0], k[0], v[0], scale=-0.5)),
    ("matrices", lambda: F.scaled_dot_product_attention(q[0, 0], k[0, 0], v[0, 0])),
    ("flash", lambda: F.scaled_dot_product_attention(q, k, w)),
    ("flash_causal", lambda: F.scaled_dot_product_attention(q, k, w, is_causal=True)),
    ("flash_bool_mask_scale", lambda: F.scaled_dot_product_attention(q, k, w, attn_mask=torch.rand(4, 5) > 0.3, scale=0.7)),
    ("flash_transposed", lambda: F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2)[:, :4], w.transpose(1, 2)[:, :4])),
]
for name, fn in calls:
    out = fn()
    (out * torch.linspace(-1, 2, out.numel()).reshape(out.shape)).sum().backward()
    print(name, out.shape, graph(out))
    print("  ", out.flatten()[:6])
    print("  ", q.grad.flatten()[8:13], k.grad.flatten()[:5], None if v.grad is None else v.grad.flatten()[:5], None if m.grad is None else m.grad[0])
    if w.grad is not None:
        print("  w", w.grad.flatten()[:5])
    q.grad = k.grad = v.grad = m.grad = w.grad = None
torch.manual_seed(1)
out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
print("dropout", out.shape, out.flatten()[:4])
for bad in [lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=m, is_causal=True)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(kind(e), str(e).splitlines()[0])
