"""torch.backends.mps: not available (autodiff runs on the CPU)."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
