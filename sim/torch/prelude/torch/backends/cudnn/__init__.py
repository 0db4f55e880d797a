# torch.backends.cudnn flags (PyTorch 2.11's defaults).
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return True
