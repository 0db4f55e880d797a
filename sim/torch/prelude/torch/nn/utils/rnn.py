# torch.nn.utils.rnn.pad_sequence (torch/nn/utils/rnn.py and ATen's
# PackedSequence.cpp of PyTorch 2.11): one torch.full of the padded shape,
# each sequence copied into a view of it (CopySlices in autograd).
# PackedSequence, pack_padded_sequence & co. live in rnn_packed.py.
import torch
from torch.nn.utils.rnn_packed import (
    PackedSequence, invert_permutation, pack_padded_sequence, pad_packed_sequence, pack_sequence,
    unpack_sequence, unpad_sequence,
)

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "pack_sequence", "unpack_sequence", "unpad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    else:
        try:
            sequences = tuple(sequences)
        except TypeError:
            raise RuntimeError(
                "pad_sequence: Expected iterable for input sequences, but got arg of type: "
                f"{type(sequences)}"
            ) from None
    # torch._C._nn.pad_sequence
    if len(sequences) == 0:
        raise RuntimeError("received an empty list of sequences")
    first = sequences[0]
    trailing = list(first.shape[1:])
    max_len = max(s.size(0) for s in sequences)
    if batch_first:
        dims = [len(sequences), max_len] + trailing
    else:
        dims = [max_len, len(sequences)] + trailing
    out = torch.full(dims, padding_value, dtype=first.dtype, device=first.device)
    if padding_side != "left" and padding_side != "right":
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    for i, seq in enumerate(sequences):
        n = seq.size(0)
        start = max_len - n if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, n).copy_(seq)
        else:
            out.narrow(0, start, n).select(1, i).copy_(seq)
    return out
