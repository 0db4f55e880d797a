# Activation checkpointing (torch/utils/checkpoint.py of PyTorch 2.11).
#
# Non-reentrant (use_reentrant=False): the forward runs under
# saved_tensors_hooks whose pack hook stores a small _Holder instead of the
# tensor; the first unpack in backward recomputes the forward (under
# enable_grad, with a pack hook that keeps detached tensors in the frame)
# and stops as soon as every holder is filled (early stop); each unpack
# hands its recomputed tensor over and forgets it. The inputs stay alive with
# the frame, as PyTorch's _NoopSaveInputs node keeps them.
#
# Reentrant (use_reentrant=True): CheckpointFunction, an autograd.Function
# whose forward runs under no_grad saving only its inputs and whose backward
# recomputes with enable_grad and calls torch.autograd.backward.
#
# preserve_rng_state (the default): the forward saves the CPU generator's
# state and the CUDA generator's once per CUDA tensor argument; the
# recomputation runs inside torch.random.fork_rng with those states set, so
# dropout draws the forward's mask again, and the states from before are
# restored after it. The states are CPU tensors (no GPU memory); setting
# the CUDA state makes PyTorch's next RNN dropout state anew.
import warnings

import torch

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "detach_variable"]


class CheckpointError(RuntimeError):
    pass


class _StopRecomputationError(Exception):
    pass


def detach_variable(inputs):
    if isinstance(inputs, tuple):
        out = []
        for inp in inputs:
            if not isinstance(inp, torch.Tensor):
                out.append(inp)
                continue
            x = inp.detach()
            x.requires_grad = inp.requires_grad
            out.append(x)
        return tuple(out)
    raise RuntimeError(
        "Only tuple of tensors is supported. Got Unsupported input type: ", type(inputs).__name__
    )


def _infer_device_type(*args):
    for arg in args:
        if isinstance(arg, torch.Tensor) and arg.device.type == "cuda":
            return "cuda"
    return "cpu"


def get_device_states(*args):
    fwd_device_ids = []
    for arg in args:
        if isinstance(arg, torch.Tensor) and arg.device.type not in ("cpu", "meta"):
            fwd_device_ids.append(arg.get_device())
    fwd_device_states = [torch.cuda.get_rng_state() for _ in fwd_device_ids]
    return fwd_device_ids, fwd_device_states


def set_device_states(devices, states, *, device_type=None):
    for device, state in zip(devices, states):
        torch.cuda.set_rng_state(state, device)


class _RNGState:
    # What a checkpoint's forward saves to recompute with the same random
    # numbers (ctx.fwd_cpu_state, had_device_in_fwd, fwd_devices,
    # fwd_device_states of PyTorch's two variants).
    def __init__(self, preserve, args):
        self.preserve = preserve
        self.device_type = _infer_device_type(*args)
        self.had_device_in_fwd = False
        self.fwd_devices, self.fwd_device_states = [], []
        if preserve:
            self.fwd_cpu_state = torch.get_rng_state()
            if self.device_type == "cuda":
                self.had_device_in_fwd = True
                self.fwd_devices, self.fwd_device_states = get_device_states(*args)

    def fork(self):
        rng_devices = self.fwd_devices if self.preserve and self.had_device_in_fwd else []
        return torch.random.fork_rng(devices=rng_devices, enabled=self.preserve, device_type=self.device_type)

    def restore(self):
        if self.preserve:
            torch.set_rng_state(self.fwd_cpu_state)
            if self.had_device_in_fwd:
                set_device_states(self.fwd_devices, self.fwd_device_states, device_type=self.device_type)


def check_backward_validity(inputs):
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, torch.Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None")


_checkpoint_function = None


def _get_checkpoint_function():
    # Built on first use: needs the binding's torch.autograd.Function.
    global _checkpoint_function
    if _checkpoint_function is not None:
        return _checkpoint_function

    class CheckpointFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, run_function, preserve_rng_state, *args):
            check_backward_validity(args)
            ctx.run_function = run_function
            ctx.preserve_rng_state = preserve_rng_state
            ctx.rng = _RNGState(preserve_rng_state, args)
            ctx.inputs = []
            ctx.tensor_indices = []
            tensor_inputs = []
            for i, arg in enumerate(args):
                if isinstance(arg, torch.Tensor):
                    tensor_inputs.append(arg)
                    ctx.tensor_indices.append(i)
                    ctx.inputs.append(None)
                else:
                    ctx.inputs.append(arg)

            ctx.save_for_backward(*tensor_inputs)

            with torch.no_grad():
                outputs = run_function(*args)
            return outputs

        @staticmethod
        def backward(ctx, *args):
            inputs = list(ctx.inputs)
            tensor_indices = ctx.tensor_indices
            tensors = ctx.saved_tensors

            for i, idx in enumerate(tensor_indices):
                inputs[idx] = tensors[i]

            with ctx.rng.fork():
                ctx.rng.restore()
                detached_inputs = detach_variable(tuple(inputs))
                with torch.enable_grad():
                    outputs = ctx.run_function(*detached_inputs)

            if isinstance(outputs, torch.Tensor):
                outputs = (outputs,)

            outputs_with_grad = []
            args_with_grad = []
            for i in range(len(outputs)):
                if isinstance(outputs[i], torch.Tensor) and outputs[i].requires_grad:
                    outputs_with_grad.append(outputs[i])
                    args_with_grad.append(args[i])
            if len(outputs_with_grad) == 0:
                raise RuntimeError(
                    "none of output has requires_grad=True, this checkpoint() is not necessary"
                )
            torch.autograd.backward(outputs_with_grad, args_with_grad)
            grads = tuple(
                inp.grad if isinstance(inp, torch.Tensor) else None for inp in detached_inputs
            )

            return (None, None) + grads

    _checkpoint_function = CheckpointFunction
    return CheckpointFunction


def checkpoint(function, *args, use_reentrant=None, context_fn=None, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    if use_reentrant is None:
        # PyTorch warns on stderr (not stdout) and keeps the reentrant default.
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be "
            "passed explicitly. Starting in PyTorch 2.9, calling checkpoint "
            "without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True

    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    if use_reentrant:
        if context_fn is not None:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return _get_checkpoint_function().apply(function, preserve, *args)
    return _checkpoint_without_reentrant(function, preserve, early_stop, *args, **kwargs)


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants."
        )
        use_reentrant = True

    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        # (the parameter is not named `input` as in PyTorch: a sim/py bug
        # would keep checkpoint_sequential's own `input` alive with it)
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(
            run_function(start, end, functions),
            input,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve,
        )
    return run_function(end + 1, len(functions) - 1, functions)(input)


class _Handle:
    pass


class _Holder:
    def __init__(self):
        self.handles = {}


class _CheckpointFrame:
    def __init__(self, recompute_fn, early_stop):
        self.recompute_fn = recompute_fn
        self.saved_args = None
        # PyTorch keeps weak references to the holders and a
        # WeakKeyDictionary of recomputed tensors keyed by handle; here the
        # entry is removed explicitly when its handle is dropped (unpack).
        self.holders = []
        self.recomputed = {}
        self.recomp_counter = {}
        self.is_recomputed = {}
        self.early_stop = early_stop
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def check_recomputed_tensors_match(self, gid):
        if self.ignore_saved_mismatch:
            return
        nb_meta_different = []
        if len(self.holders) != self.recomp_counter.get(gid, 0):
            if not self.early_stop or self.recomp_counter.get(gid, 0) < len(self.holders):
                raise CheckpointError(
                    "torch.utils.checkpoint: A different number of tensors was saved "
                    "during the original forward and recomputation.\n"
                    f"Number of tensors saved during forward: {len(self.holders)}\n"
                    f"Number of tensors saved during recomputation: {self.recomp_counter.get(gid, 0)}.\n"
                )
        return nb_meta_different


def _graph_task_id():
    c = getattr(torch, "_C", None)
    f = getattr(c, "_current_graph_task_id", None) if c is not None else None
    if f is None:
        return 0
    gid = f()
    return gid if gid != -1 else 0


def _recomputation_hooks(frame, gid):
    def pack_hook(x):
        x = x.detach() if x.requires_grad else x
        recomp_idx = frame.recomp_counter.get(gid, 0)
        frame.recomp_counter[gid] = recomp_idx + 1

        if recomp_idx >= len(frame.holders):
            if not frame.forward_completed:
                frame.ignore_saved_mismatch = True
                return x
            raise CheckpointError(
                "torch.utils.checkpoint: trying to save more tensors during "
                "recomputation than during the original forward pass."
            )

        holder = frame.holders[recomp_idx]
        if holder is not None:
            handle = _Handle()
            holder.handles[gid] = handle
            frame.recomputed.setdefault(gid, {})[id(handle)] = x

        if frame.early_stop and frame.recomp_counter[gid] == len(frame.holders):
            raise _StopRecomputationError()
        return x

    def unpack_hook(x):
        return x

    return pack_hook, unpack_hook


def _checkpoint_hooks(frame):
    def pack_hook(x):
        holder = _Holder()
        frame.holders.append(holder)
        return holder

    def unpack_hook(holder):
        gid = _graph_task_id()

        if not frame.is_recomputed.get(gid, False):
            args = frame.saved_args
            kwargs = frame.saved_kwargs
            rpack, runpack = _recomputation_hooks(frame, gid)
            try:
                with torch.autograd.graph.saved_tensors_hooks(rpack, runpack), torch.enable_grad():
                    frame.recompute_fn(*args, **kwargs)
            except _StopRecomputationError:
                pass
            frame.is_recomputed[gid] = True
            frame.check_recomputed_tensors_match(gid)

        handle = holder.handles.get(gid, None)
        if handle is None:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already "
                "unpacked once. If you are calling ctx.saved_tensors in backward, make sure to do "
                "so only once. Otherwise please open an issue with details on your use case."
            )
        ret = frame.recomputed[gid].pop(id(handle))
        holder.handles[gid] = None
        return ret

    return pack_hook, unpack_hook


def _checkpoint_without_reentrant(fn, preserve_rng_state, early_stop, *args, **kwargs):
    rng = _RNGState(preserve_rng_state, args)
    # When grad mode is off, PyTorch's _NoopSaveInputs output has no grad_fn
    # and the function simply runs.
    if not torch.is_grad_enabled():
        return fn(*args, **kwargs)

    def recompute_fn(*inputs, **kw):
        with rng.fork():
            rng.restore()
            fn(*inputs, **kw)

    frame = _CheckpointFrame(recompute_fn, early_stop)
    frame.saved_args = args
    frame.saved_kwargs = kwargs
    pack_hook, unpack_hook = _checkpoint_hooks(frame)
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        ret = fn(*args, **kwargs)
    frame.forward_completed = True
    return ret
