# torch.equal (at::equal): True when both tensors have the same size and
# elements. On CUDA it is at::eq(...).all().item() after the shape and
# alias shortcuts (cuda_equal): a bool tensor of the inputs' size and a
# 0-dim result, both freed before it returns. The simulator computes no
# values, so there (like .item()) the answer is False unless a shortcut
# decides it.
import torch

__all__ = ["equal"]


def equal(input, other):
    if not isinstance(input, torch.Tensor) or not isinstance(other, torch.Tensor):
        raise TypeError(
            "equal(): argument 'other' (position 2) must be Tensor, not " + type(other).__name__
            if isinstance(input, torch.Tensor) else
            "equal(): argument 'input' (position 1) must be Tensor, not " + type(input).__name__
        )
    if input.device != other.device:
        raise RuntimeError(
            f"Cannot compare two tensors on different devices. Got: {input.device} and {other.device}"
        )
    if input.shape != other.shape:
        return False
    if input.numel() == 0:
        return True
    if (input.data_ptr() == other.data_ptr() and input.dtype == other.dtype
            and input.stride() == other.stride()):
        return True
    return bool((input == other).all().item())
