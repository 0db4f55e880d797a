# torch.compile, torch.cuda.Stream/stream/Event/current_stream/default_stream:
# APIs whose memory the playground does not model. They raise
# NotImplementedError with what to do instead, rather than pretend to work
# (or fail with an AttributeError).


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False):
    if disable:
        # torch.compile(..., disable=True) is the identity in PyTorch
        if model is None:
            return lambda m: m
        return model
    raise NotImplementedError(
        "torch.compile is not simulated: a compiled graph's memory is Inductor's "
        "(fused kernels, its own buffer planning, CUDA graphs in some modes), which "
        "the playground does not model. Remove torch.compile to simulate the model "
        "eagerly (PyTorch's eager memory, usually higher than compiled)"
    )


def _streams(what):
    return NotImplementedError(
        f"{what} is not simulated: the playground runs every op on the default CUDA "
        "stream and does not model other streams (their caching-allocator pools, "
        "record_stream, cross-stream frees) or events. Remove the stream/event code "
        "to simulate the script on the default stream"
    )


class Stream:
    def __new__(cls, *args, **kwargs):
        raise _streams("torch.cuda.Stream")


class Event:
    def __new__(cls, *args, **kwargs):
        raise _streams("torch.cuda.Event")


class _NoStream:
    # torch.cuda.stream(None): a no-op context manager in PyTorch
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def stream(stream):
    if stream is None:
        return _NoStream()
    raise _streams("torch.cuda.stream")


def current_stream(device=None):
    raise _streams("torch.cuda.current_stream")


def default_stream(device=None):
    raise _streams("torch.cuda.default_stream")
