# F.interpolate (nearest, nearest-exact, linear, bilinear, area; size, scale_factor, align_corners,
# recompute_scale_factor), F.upsample, nn.Upsample, UpsamplingNearest2d, UpsamplingBilinear2d: values, gradients, node
# names, printed forms and the errors of bad calls
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
def kind(e):
    for cls in (TypeError, ValueError, IndexError, NotImplementedError, RuntimeError):
        if isinstance(e, cls):
            return cls.__name__
    return type(e).__name__
x = torch.randn(2, 3, 4, 5, requires_grad=True)
r = torch.randn(2, 3, 5, requires_grad=True)
calls = [
    ("nearest_scale2", lambda: F.interpolate(x, scale_factor=2)),
    ("nearest_size", lambda: F.interpolate(x, size=(7, 3))),
    ("nearest_scale_1.7", lambda: F.interpolate(x, scale_factor=1.7)),
    ("nearest_scale_tuple", lambda: F.interpolate(x, scale_factor=(0.5, 2.5))),
    ("nearest_recompute", lambda: F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True)),
    ("nearest_exact", lambda: F.interpolate(x, size=(6, 7), mode="nearest-exact")),
    ("nearest_1d", lambda: F.interpolate(r, size=8)),
    ("nearest_exact_1d", lambda: F.interpolate(r, scale_factor=1.5, mode="nearest-exact")),
    ("linear", lambda: F.interpolate(r, size=8, mode="linear")),
    ("linear_align", lambda: F.interpolate(r, size=8, mode="linear", align_corners=True)),
    ("linear_scale", lambda: F.interpolate(r, scale_factor=2.3, mode="linear")),
    ("linear_down", lambda: F.interpolate(r, size=3, mode="linear")),
    ("bilinear", lambda: F.interpolate(x, size=(6, 9), mode="bilinear")),
    ("bilinear_align", lambda: F.interpolate(x, size=(6, 9), mode="bilinear", align_corners=True)),
    ("bilinear_scale", lambda: F.interpolate(x, scale_factor=2, mode="bilinear")),
    ("bilinear_scale_frac", lambda: F.interpolate(x, scale_factor=(1.3, 0.7), mode="bilinear")),
    ("bilinear_down_align", lambda: F.interpolate(x, size=(2, 3), mode="bilinear", align_corners=True)),
    ("bilinear_one", lambda: F.interpolate(x, size=(1, 1), mode="bilinear", align_corners=True)),
    ("area", lambda: F.interpolate(x, size=(3, 2), mode="area")),
    ("area_scale", lambda: F.interpolate(r, scale_factor=0.5, mode="area")),
    ("upsample", lambda: F.upsample(x, scale_factor=2, mode="bilinear", align_corners=False)),
]
for name, fn in calls:
    out = fn()
    (out * torch.linspace(-1, 2, out.numel()).reshape(out.shape)).sum().backward()
    print(name, out.shape, out.grad_fn.name(), out.flatten()[:6])
    g = x.grad if x.grad is not None else r.grad
    print("  grad", g.flatten()[:8], f"{float(g.sum()):.3f}")
    x.grad = r.grad = None
for m in [nn.Upsample(scale_factor=2), nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True), nn.Upsample(scale_factor=(2, 1.5), mode="bilinear"),
          nn.Upsample(size=7, mode="linear"), nn.UpsamplingNearest2d(scale_factor=3), nn.UpsamplingBilinear2d(size=(5, 6))]:
    out = m(r if m.mode == "linear" else x)
    print(m, out.shape, out.flatten()[:4], m.scale_factor, m.size, m.align_corners)
for bad in [lambda: F.interpolate(x, size=3, scale_factor=2), lambda: F.interpolate(x), lambda: F.interpolate(x, size=(3,)),
            lambda: F.interpolate(x, scale_factor=(2, 2, 2)), lambda: F.interpolate(x, size=3, align_corners=True),
            lambda: F.interpolate(r, size=3, mode="bilinear"), lambda: F.interpolate(x, size=3, mode="linear"),
            lambda: F.interpolate(x, size=(2.5, 3)), lambda: F.interpolate(x, size=3, recompute_scale_factor=True),
            lambda: F.interpolate(x[0, 0], size=3)]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(kind(e), str(e).splitlines()[0])
