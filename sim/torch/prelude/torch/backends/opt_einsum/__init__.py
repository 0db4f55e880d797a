# torch.backends.opt_einsum as measured with PyTorch 2.11 (q18): opt_einsum
# installed and enabled, strategy "auto" (torch.einsum orders 3+ operands
# with opt_einsum's path; see sim/torch einsum_path.go).
enabled = True
strategy = "auto"


def is_available():
    return True


def get_opt_einsum():
    return None
