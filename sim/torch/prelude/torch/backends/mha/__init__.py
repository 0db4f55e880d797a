# torch.backends.mha (PyTorch 2.11): the switch of the fast paths of
# nn.MultiheadAttention / nn.TransformerEncoderLayer. With it off, PyTorch
# takes the slow path, which is what the playground simulates.
_is_fastpath_enabled = True


def get_fastpath_enabled():
    return _is_fastpath_enabled


def set_fastpath_enabled(value):
    global _is_fastpath_enabled
    _is_fastpath_enabled = value
