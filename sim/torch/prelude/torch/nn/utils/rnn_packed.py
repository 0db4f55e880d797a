# PackedSequence, pack_padded_sequence, pad_packed_sequence, pack_sequence,
# unpack_sequence, unpad_sequence (torch/nn/utils/rnn.py of PyTorch 2.11).
# The device work is PyTorch's: the sort of enforce_sorted=False runs on the
# lengths' device, sorted_indices is copied to the input's device,
# index_select reorders the batch, invert_permutation makes unsorted_indices
# (empty_like + arange + scatter_), torch._pack_padded_sequence copies the
# blocks and cats them (sim/torch/ops_packed.go), _pad_packed_sequence is
# composite (torch.full, one copy_ into a slice per run of equal batch
# sizes, a transposed view for batch_first) and written here the same way.
# Values are not simulated: the lengths and batch sizes travel as Python
# ints beside their CPU tensors (PackedSequence._sizes); lengths given as a
# tensor are read only where the executor computed them.
import torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pack_sequence", "unpack_sequence", "unpad_sequence"]


def _host_ints(t, what):
    # the numbers of a host tensor or sequence
    if isinstance(t, torch.Tensor):
        if not torch._sim.computes():
            raise NotImplementedError(
                f"{what}: the values of a lengths tensor are not simulated; pass the lengths as a "
                "Python list of ints")
        return [int(v) for v in t.tolist()]
    return [int(v) for v in t]


def _batch_sizes_of(lengths):
    # batch size per time step of lengths sorted in decreasing order
    if not lengths:
        return []
    return [sum(1 for n in lengths if n > t) for t in range(lengths[0])]


class PackedSequence:
    """Holds the data and list of batch_sizes of a packed sequence (a
    4-field tuple in PyTorch: data, batch_sizes, sorted_indices,
    unsorted_indices)."""

    def __init__(self, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise ValueError(
                    "batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                    "created manually. They should be instantiated by functions like pack_sequence "
                    "and pack_padded_sequences in nn.utils.rnn. "
                    "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
            self.data = data
            self.batch_sizes = batch_sizes
        else:
            if not isinstance(data, (list, tuple)) or len(data) != 2:
                raise TypeError("PackedSequence(data, batch_sizes): expected data and batch_sizes")
            self.data = data[0]
            self.batch_sizes = data[1]
        self.sorted_indices = sorted_indices
        self.unsorted_indices = unsorted_indices
        self._sizes = None  # the batch sizes as Python ints, when known

    def _fields(self):
        return (self.data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def __iter__(self):
        return iter(self._fields())

    def __getitem__(self, i):
        return self._fields()[i]

    def __len__(self):
        return 4

    def __repr__(self):
        return (f"PackedSequence(data={self.data!r}, batch_sizes={self.batch_sizes!r}, "
                f"sorted_indices={self.sorted_indices!r}, unsorted_indices={self.unsorted_indices!r})")

    def _sim_sizes(self):
        # the batch sizes as ints (known from packing, else read)
        if self._sizes is None:
            known = _KNOWN.get(id(self.batch_sizes))
            if known is not None and known[0] is self.batch_sizes:
                self._sizes = known[1]
            else:
                self._sizes = _host_ints(self.batch_sizes, "PackedSequence")
        return self._sizes

    def _with(self, data, sorted_indices, unsorted_indices):
        p = PackedSequence(data, self.batch_sizes, sorted_indices, unsorted_indices)
        p._sizes = self._sizes
        return p

    def pin_memory(self):
        return self._with(self.data.pin_memory(), _opt(self.sorted_indices, "pin_memory"),
                          _opt(self.unsorted_indices, "pin_memory"))

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        kw = {k: v for k, v in kwargs.items() if k in ("non_blocking", "copy")}
        sorted_indices = None if self.sorted_indices is None else self.sorted_indices.to(data.device, **kw)
        unsorted_indices = None if self.unsorted_indices is None else self.unsorted_indices.to(data.device, **kw)
        return self._with(data, sorted_indices, unsorted_indices)

    def cuda(self, *args, **kwargs):
        ex = torch.empty(0, dtype=self.data.dtype, device=self.data.device).cuda(*args, **kwargs)
        if ex.device == self.data.device:
            return self
        return self.to(ex.device)

    def cpu(self, *args, **kwargs):
        if self.data.device.type == "cpu":
            return self
        return self.to("cpu")

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def bfloat16(self):
        return self.to(dtype=torch.bfloat16)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def short(self):
        return self.to(dtype=torch.short)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _opt(t, method):
    return None if t is None else getattr(t, method)()


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.empty_like(permutation, memory_format=torch.contiguous_format)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


# the batch sizes of every batch_sizes tensor packing made, by id (the
# tensor is kept so that its id is not reused): a PackedSequence rebuilt
# from another's fields (PackedSequence(out, p.batch_sizes, ...)) finds them
_KNOWN = {}


def _packed(data, batch_sizes, sizes, sorted_indices):
    _KNOWN[id(batch_sizes)] = (batch_sizes, sizes)
    p = PackedSequence(data, batch_sizes, sorted_indices, None)
    p._sizes = sizes
    return p


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    if not isinstance(lengths, torch.Tensor):
        vals = [int(v) for v in lengths]
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    else:
        vals = None
        lengths = lengths.to(dtype=torch.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        if vals is None:
            vals = _host_ints(lengths, "pack_padded_sequence")
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        order = sorted(range(len(vals)), key=lambda i: -vals[i])
        vals = [vals[i] for i in order]
        sorted_indices = sorted_indices.to(input.device)
        batch_dim = 0 if batch_first else 1
        input = input.index_select(batch_dim, sorted_indices)
    if vals is None:
        if lengths.dim() != 1 or lengths.device.type != "cpu":
            # torch._pack_padded_sequence raises checkLongTensor's message
            return torch._pack_padded_sequence(input, lengths, batch_first)
        vals = _host_ints(lengths, "pack_padded_sequence")
    data, batch_sizes = torch._pack_padded_sequence(input, vals, batch_first)
    return _packed(data, batch_sizes, _batch_sizes_of(vals), sorted_indices)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    max_seq_length = sequence.batch_sizes.size(0)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, "
                f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    padded_output, lengths = _pad_packed(sequence.data, sequence._sim_sizes(), batch_first,
                                         padding_value, max_seq_length)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        batch_dim = 0 if batch_first else 1
        unsorted_cpu = unsorted_indices.cpu()
        return padded_output.index_select(batch_dim, unsorted_indices), lengths[unsorted_cpu]
    return padded_output, lengths


def _pad_packed(data, sizes, batch_first, padding_value, total_length):
    # at::_pad_packed_sequence (CompositeImplicitAutograd): full, one copy_
    # per run of equal batch sizes, transpose for batch_first
    max_batch = sizes[0]
    max_real = len(sizes)
    out_size = [max(total_length, max_real), max_batch] + list(data.shape[1:])
    output = torch.full(out_size, padding_value, dtype=data.dtype, device=data.device)
    lengths = [0] * max_batch
    off, prev_b, prev_i = 0, max_batch, 0
    for i in range(max_real + 1):
        b = sizes[i] if i != max_real else 0
        if b != prev_b:
            n = prev_b * (i - prev_i)
            tmp = data[off:off + n].view([i - prev_i, prev_b] + list(data.shape[1:]))
            output[prev_i:i, :prev_b].copy_(tmp)
            off += n
            prev_i = i
        for j in range(b, prev_b):
            lengths[j] = i
        prev_b = b
    if batch_first:
        output = output.transpose(0, 1)
    return output, torch.tensor(lengths, dtype=torch.int64)


def pack_sequence(sequences, enforce_sorted=True):
    lengths = [v.size(0) for v in sequences]
    return pack_padded_sequence(torch.nn.utils.rnn.pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths):
        mask = idx < length
        unpacked_seq = seq[mask]
        unpadded_sequences.append(unpacked_seq)
    return unpadded_sequences
