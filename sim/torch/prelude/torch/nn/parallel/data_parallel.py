# nn.DataParallel (torch/nn/parallel/data_parallel.py of PyTorch 2.11) on the
# playground's one simulated GPU: the constructor moves the module to
# cuda:0 (len(device_ids) == 1), forward checks the parameters' device,
# scatters the inputs (Scatter: a view of a CUDA input, a copy of a CPU
# one; its backward, Gather, copies the gradient) and calls the module
# directly, as PyTorch does with one device: no replicas, no gather.
# state_dict keys gain the "module." prefix through the submodule.
import torch
from torch.autograd import Function
from torch.nn.modules.module import Module

__all__ = ["DataParallel", "data_parallel"]


def _device_ids():
    if not torch.cuda.is_available():
        return None
    return list(range(torch.cuda.device_count()))


def _device_index(d):
    if isinstance(d, torch.device):
        if d.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {d}")
        return 0 if d.index is None else d.index
    if isinstance(d, str):
        return _device_index(torch.device(d))
    return int(d)


class Scatter(Function):
    # torch.nn.parallel._functions.Scatter for one target device
    @staticmethod
    def forward(ctx, target_gpus, chunk_sizes, dim, input):
        ctx.dim = dim
        ctx.input_device = input.get_device() if input.device.type != "cpu" else -1
        (out,) = input.chunk(1, dim)
        if ctx.input_device != target_gpus[0]:
            # comm.scatter's copy (PyTorch makes it on a side stream)
            out = out.to(torch.device("cuda", target_gpus[0]), non_blocking=True)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return None, None, None, Gather.apply(ctx.input_device, ctx.dim, grad_output)


class Gather(Function):
    # torch.nn.parallel._functions.Gather of one tensor: comm.gather's
    # at::empty of the result and its copy
    @staticmethod
    def forward(ctx, target_device, dim, input):
        ctx.target_device = target_device
        ctx.dim = dim
        ctx.input_gpus = (input.get_device(),)
        device = torch.device("cpu") if target_device == -1 else torch.device("cuda", target_device)
        out = torch.empty(input.shape, dtype=input.dtype, device=device)
        out.copy_(input)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return None, None, Scatter.apply(list(ctx.input_gpus), None, ctx.dim, grad_output)


def _scatter(obj, target_gpus, dim):
    # scatter_gather.scatter for one device: one element per device
    if isinstance(obj, torch.Tensor):
        return [Scatter.apply(target_gpus, None, dim, obj)]
    if isinstance(obj, tuple) and len(obj) > 0:
        return [tuple(x[0] for x in (_scatter(o, target_gpus, dim) for o in obj))]
    if isinstance(obj, list) and len(obj) > 0:
        return [[x[0] for x in (_scatter(o, target_gpus, dim) for o in obj)]]
    if isinstance(obj, dict) and len(obj) > 0:
        return [type(obj)((k, _scatter(v, target_gpus, dim)[0]) for k, v in obj.items())]
    return [obj for _ in target_gpus]


def _scatter_kwargs(inputs, kwargs, target_gpus, dim):
    scattered_inputs = _scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = _scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if not torch.cuda.is_available():
            self.module = module
            self.device_ids = []
            return
        if device_ids is None:
            device_ids = _device_ids()
        if output_device is None:
            output_device = device_ids[0]
        self.dim = dim
        self.module = module
        self.device_ids = [_device_index(x) for x in device_ids]
        for d in self.device_ids:
            if d < 0 or d >= torch.cuda.device_count():
                raise RuntimeError(f"CUDA error: invalid device ordinal (device {d})")
        self.output_device = _device_index(output_device)
        self.src_device_obj = torch.device("cuda", self.device_ids[0])
        if len(self.device_ids) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in list(self.module.parameters()) + list(self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(
                    "module must have its parameters and buffers "
                    f"on device {self.src_device_obj} (device_ids[0]) but found one of "
                    f"them on device: {t.device}")
        inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
        if not inputs and not module_kwargs:
            inputs = ((),)
            module_kwargs = ({},)
        return self.module(*inputs[0], **module_kwargs[0])

    def scatter(self, inputs, kwargs, device_ids):
        return _scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    if device_ids is None:
        device_ids = _device_ids()
    if output_device is None:
        output_device = device_ids[0]
    device_ids = [_device_index(x) for x in device_ids]
    src = torch.device("cuda", device_ids[0])
    for t in list(module.parameters()) + list(module.buffers()):
        if t.device != src:
            raise RuntimeError(
                "module must have its parameters and buffers "
                f"on device {src} (device_ids[0]) but found one of "
                f"them on device: {t.device}")
    inputs, module_kwargs = _scatter_kwargs(inputs, module_kwargs, device_ids, dim)
    if not module_kwargs:
        module_kwargs = ({},)
    return module(*inputs[0], **module_kwargs[0])
