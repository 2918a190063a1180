# CosineSimilarity, PairwiseDistance, KLDivLoss, GaussianNLLLoss, PoissonNLLLoss, MarginRankingLoss, CosineEmbeddingLoss,
# TripletMarginLoss, SoftMarginLoss, RMSNorm, InstanceNorm1d/2d, PixelShuffle/Unshuffle and their functions: values,
# gradients, node names, buffers, printed forms and the errors of bad calls
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
def kind(e):
    for cls in (TypeError, ValueError, IndexError, NotImplementedError, RuntimeError):
        if isinstance(e, cls):
            return cls.__name__
    return type(e).__name__
def names(t):
    return t.grad_fn.name(), [n.name().removeprefix("torch::autograd::") if n else None for n, _ in t.grad_fn.next_functions]
a = torch.randn(4, 5, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
c = torch.randn(4, 5, requires_grad=True)
y = torch.tensor([1.0, -1.0, -1.0, 1.0])
p = torch.softmax(torch.randn(4, 5), 1)
calls = [
    ("cosine_similarity", lambda: F.cosine_similarity(a, b)),
    ("cosine_similarity_dim0_eps", lambda: F.cosine_similarity(a, b * 0, dim=0, eps=1e-3)),
    ("cosine_similarity_broadcast", lambda: F.cosine_similarity(a, b[:1], dim=1)),
    ("torch.cosine_similarity", lambda: torch.cosine_similarity(a, b, 0)),
    ("pairwise_distance", lambda: F.pairwise_distance(a, b)),
    ("pairwise_distance_p1_keepdim", lambda: F.pairwise_distance(a, b, p=1.0, keepdim=True)),
    ("pairwise_distance_p3", lambda: F.pairwise_distance(a, b, 3, 1e-3)),
    ("kl_div_batchmean", lambda: F.kl_div(a.log_softmax(1), p, reduction="batchmean")),
    ("kl_div_sum", lambda: F.kl_div(a.log_softmax(1), p, reduction="sum")),
    ("kl_div_none", lambda: F.kl_div(a.log_softmax(1), p, reduction="none")),
    ("kl_div_log_target", lambda: F.kl_div(a.log_softmax(1), b.log_softmax(1), reduction="batchmean", log_target=True)),
    ("gaussian_nll", lambda: F.gaussian_nll_loss(a, b, c.exp())),
    ("gaussian_nll_homoscedastic_full_sum", lambda: F.gaussian_nll_loss(a, b, c[:, 0].exp(), full=True, reduction="sum")),
    ("gaussian_nll_float_var", lambda: F.gaussian_nll_loss(a, b, 0.5, reduction="none")),
    ("gaussian_nll_small_var", lambda: F.gaussian_nll_loss(a, b, (c * 0).detach(), eps=0.1)),
    ("poisson_nll", lambda: F.poisson_nll_loss(a, p * 3)),
    ("poisson_nll_full", lambda: F.poisson_nll_loss(a.exp(), p * 6, log_input=False, full=True, reduction="sum")),
    ("margin_ranking", lambda: F.margin_ranking_loss(a[:, 0], b[:, 0], y, margin=0.3)),
    ("margin_ranking_none", lambda: F.margin_ranking_loss(a[:, 0], b[:, 0], y, reduction="none")),
    ("cosine_embedding", lambda: F.cosine_embedding_loss(a, b, y, margin=0.1)),
    ("cosine_embedding_1d_sum", lambda: F.cosine_embedding_loss(a[0], b[0], torch.tensor(-1.0), reduction="sum")),
    ("triplet", lambda: F.triplet_margin_loss(a, b, c)),
    ("triplet_swap_p1", lambda: F.triplet_margin_loss(a, b, c, margin=2.0, p=1, swap=True, reduction="sum")),
    ("soft_margin", lambda: F.soft_margin_loss(a, torch.sign(torch.randn(4, 5)))),
    ("soft_margin_none", lambda: F.soft_margin_loss(a, torch.sign(torch.randn(4, 5)), reduction="none")),
    ("soft_margin_sum", lambda: F.soft_margin_loss(a, torch.sign(torch.randn(4, 5)), reduction="sum")),
    ("rms_norm", lambda: F.rms_norm(a, (5,))),
    ("rms_norm_weight_eps", lambda: F.rms_norm(a.reshape(2, 2, 5), (2, 5), c[:2], eps=1e-2)),
    ("torch.rms_norm", lambda: torch.rms_norm(a, [5])),
    ("instance_norm", lambda: F.instance_norm(a.reshape(2, 2, 5))),
    ("instance_norm_affine", lambda: F.instance_norm(a.reshape(1, 4, 5), weight=b[0, :4], bias=c[0, :4], eps=1e-3)),
    ("pixel_shuffle", lambda: F.pixel_shuffle(a.reshape(1, 4, 5, 1), 2)),
    ("pixel_unshuffle", lambda: F.pixel_unshuffle(a.reshape(1, 1, 4, 5)[..., :4], 2)),
    ("torch.pixel_shuffle", lambda: torch.pixel_shuffle(a.reshape(4, 5, 1), 2)),
]
for name, fn in calls:
    out = fn()
    weights = torch.linspace(-1, 2, out.numel()).reshape(out.shape)
    (out * weights).sum().backward()
    print(name, names(out), out.flatten()[:5])
    print("  grads", a.grad.flatten()[:6], None if b.grad is None else b.grad.flatten()[:4], None if c.grad is None else c.grad.flatten()[:4])
    a.grad = b.grad = c.grad = None
modules = [nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-3), nn.PairwiseDistance(), nn.PairwiseDistance(1.0, keepdim=True),
           nn.KLDivLoss(reduction="batchmean"), nn.KLDivLoss(reduction="sum", log_target=True), nn.GaussianNLLLoss(),
           nn.GaussianNLLLoss(full=True, eps=1e-3, reduction="sum"), nn.PoissonNLLLoss(), nn.PoissonNLLLoss(False, True),
           nn.MarginRankingLoss(0.5), nn.CosineEmbeddingLoss(margin=0.2), nn.TripletMarginLoss(), nn.TripletMarginLoss(2.0, 1, swap=True),
           nn.SoftMarginLoss(reduction="none"), nn.SoftMarginLoss(size_average=False), nn.PixelShuffle(2), nn.PixelUnshuffle(2)]
for m in modules:
    print(m, m.reduction if hasattr(m, "reduction") else "")
print(nn.PoissonNLLLoss(False, True).log_input, nn.TripletMarginLoss(2.0).margin, nn.CosineSimilarity(0).dim)
print(modules[0](a, b), modules[3](a, b), modules[4](a.log_softmax(1), p), modules[6](a, b, c.exp()), modules[8](a, p),
      modules[10](a[:, 0], b[:, 0], y), modules[11](a, b, y), modules[13](a, b, c), modules[15](a, torch.ones(4, 5)))
print(modules[16](a.reshape(1, 4, 5, 1)).shape, modules[17](a.reshape(1, 1, 4, 5)[..., :4]).shape)
for norm in [nn.RMSNorm(5), nn.RMSNorm([2, 5], eps=1e-5, elementwise_affine=False), nn.InstanceNorm1d(4), nn.InstanceNorm1d(4, affine=True),
             nn.InstanceNorm2d(2, affine=True, track_running_stats=True), nn.InstanceNorm1d(4, momentum=None, track_running_stats=True)]:
    x = a.reshape(2, 2, 5) if isinstance(norm, nn.RMSNorm) and norm.normalized_shape == (2, 5) else a if not isinstance(norm, nn.InstanceNorm2d) else a.reshape(1, 2, 2, 5)
    if isinstance(norm, nn.InstanceNorm1d):
        x = a.reshape(1, 4, 5) if norm.affine else a
    out = norm(x)
    (out * torch.linspace(-1, 2, out.numel()).reshape(out.shape)).sum().backward()
    print(norm, list(norm.state_dict().keys()), names(out))
    print("  ", out.flatten()[:5], a.grad.flatten()[:5], [p.grad for p in norm.parameters()])
    a.grad = None
    if getattr(norm, "track_running_stats", False):
        print("  running", norm.running_mean, norm.running_var, norm.num_batches_tracked)
        norm.eval()
        print("  eval", norm(x).flatten()[:5])
for bad in [lambda: F.triplet_margin_loss(a, b, c[0]), lambda: F.triplet_margin_loss(a, b, c, margin=0),
            lambda: F.margin_ranking_loss(a, b[:, 0], y), lambda: F.cosine_embedding_loss(a, b, torch.ones(4, 1)),
            lambda: F.cosine_embedding_loss(a[0], b[0], y), lambda: F.gaussian_nll_loss(a, b, torch.ones(3)),
            lambda: F.gaussian_nll_loss(a, b, -torch.ones(4, 5)), lambda: F.kl_div(a, p, reduction="avg"),
            lambda: F.soft_margin_loss(a, b), lambda: F.poisson_nll_loss(a, p, reduction="avg"),
            lambda: F.rms_norm(a, (4,)), lambda: F.rms_norm(a, (5,), torch.ones(4)),
            lambda: F.instance_norm(torch.randn(2, 3, 1)), lambda: F.instance_norm(torch.randn(2, 3, 4), weight=torch.ones(2)),
            lambda: nn.InstanceNorm1d(3)(torch.randn(2, 3, 4, 5)), lambda: nn.InstanceNorm1d(4, affine=True)(torch.randn(2, 3, 4)),
            lambda: F.pixel_shuffle(torch.randn(1, 5, 2, 2), 2), lambda: F.pixel_shuffle(torch.randn(5, 2), 2),
            lambda: F.pixel_unshuffle(torch.randn(1, 1, 3, 4), 2), lambda: nn.KLDivLoss(reduction="avg")]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(kind(e), str(e).splitlines()[0])
