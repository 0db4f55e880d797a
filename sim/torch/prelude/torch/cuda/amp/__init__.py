# torch.cuda.amp: the deprecated CUDA-only aliases of torch.amp (their
# FutureWarnings go to stderr, not stdout).
import warnings

import torch
from torch.amp.grad_scaler import GradScaler as _AmpGradScaler


class GradScaler(_AmpGradScaler):
    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        warnings.warn(
            "`torch.cuda.amp.GradScaler(args...)` is deprecated. "
            "Please use `torch.amp.GradScaler('cuda', args...)` instead.",
            FutureWarning,
        )
        _AmpGradScaler.__init__(self, "cuda", init_scale=init_scale, growth_factor=growth_factor,
                         backoff_factor=backoff_factor, growth_interval=growth_interval,
                         enabled=enabled)


def autocast(enabled=True, dtype=torch.float16, cache_enabled=True):
    warnings.warn(
        "`torch.cuda.amp.autocast(args...)` is deprecated. "
        "Please use `torch.amp.autocast('cuda', args...)` instead.",
        FutureWarning,
    )
    return torch.autocast(device_type="cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
