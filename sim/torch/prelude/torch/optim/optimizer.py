# Optimizer base class (torch/optim/optimizer.py of PyTorch 2.11): param
# groups, per-parameter state in a defaultdict(dict) keyed by the parameter,
# zero_grad(set_to_none=True), state_dict/load_state_dict.
from collections import defaultdict

import torch
from torch import _foreach

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _default_to_fused_or_foreach(params, differentiable, use_fused=False):
    # foreach is the default when every parameter is a CUDA tensor.
    if differentiable:
        return False, False
    all_cuda = all(p is None or (isinstance(p, torch.Tensor) and p.device.type == "cuda") for p in params)
    fused = use_fused and all_cuda
    foreach = not fused and all_cuda
    return fused, foreach


def _get_scalar_dtype(is_fused=None):
    if is_fused:
        return torch.float32
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _to_scalar(x):
    # a 1-element hyperparameter tensor as a 0-dim one; numbers unchanged
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_fused_kernels_supported_devices():
    return ["mps", "cuda", "xpu", "hpu", "cpu", "privateuseone"]


def _get_capturable_supported_devices(supports_xla=True):
    devices = ["cuda", "xpu", "hpu", "privateuseone"]
    if supports_xla:
        devices.append("xla")
    return devices


def _device_dtype_check_for_fused(p, cuda_unsupported=False):
    fused_supported_devices = _get_fused_kernels_supported_devices()
    if cuda_unsupported:
        fused_supported_devices.remove("cuda")
    if not (p.device.type in fused_supported_devices and p.is_floating_point()):
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of "
            f"supported devices: {fused_supported_devices} but {p.dtype} and {p.device.type}"
        )


def _view_as_real(params, *state_and_grads):
    for i, p in enumerate(params):
        if p.is_complex():
            params[i] = torch.view_as_real(params[i])
            for s in state_and_grads:
                s[i] = torch.view_as_real(s[i])


def _get_value(x):
    # step counters are CPU tensors; values are not simulated (item() is 0),
    # so a step count never below 1 keeps the bias corrections finite.
    v = x.item() if isinstance(x, torch.Tensor) else x
    return v if v >= 1 else 1.0


def _use_grad_for_differentiable(func):
    def _use_grad(self, *args, **kwargs):
        if self.defaults["differentiable"]:
            with torch.enable_grad():
                return func(self, *args, **kwargs)
        with torch.no_grad():
            return func(self, *args, **kwargs)

    _use_grad.__name__ = func.__name__
    _use_grad.__doc__ = func.__doc__
    return _use_grad


def _typename(o):
    module = type(o).__module__
    if module in ("builtins", None):
        return type(o).__qualname__
    return module + "." + type(o).__qualname__


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + _typename(params)
            )
        self.state = defaultdict(dict)
        self.param_groups = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]

        for param_group in param_groups:
            self.add_param_group(param_group)

        self._warned_capturable_if_run_uncaptured = True

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    @staticmethod
    def _group_tensors_by_device_and_dtype(tensorlistlist, with_indices=False):
        return _foreach.group_tensors_by_device_and_dtype(tensorlistlist, with_indices)

    def _cuda_graph_capture_health_check(self):
        pass

    def _accelerator_graph_capture_health_check(self):
        pass

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {_typename(param_group)}")

        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        extracted_param_tensors = []
        extracted_param_names = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                extracted_param_names.append(param[0])
                extracted_param_tensors.append(param[1])
            else:
                extracted_param_tensors.append(param)
        param_group["params"] = extracted_param_tensors
        if len(extracted_param_names) != 0:
            if len(extracted_param_names) == len(extracted_param_tensors):
                param_group["param_names"] = extracted_param_names
            else:
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")

        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            else:
                param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len(set(params)):
            import warnings
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error",
                stacklevel=3,
            )

        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
        if not param_set.isdisjoint(set(param_group["params"])):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        foreach = self.defaults.get("foreach", False) or self.defaults.get("fused", False)
        per_device_and_dtype_grads = {} if foreach else None
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        if not foreach or p.grad.is_sparse:
                            p.grad.zero_()
                        else:
                            k = (str(p.grad.device), str(p.grad.dtype))
                            per_device_and_dtype_grads.setdefault(k, []).append(p.grad)
        if foreach:
            for grads in per_device_and_dtype_grads.values():
                _foreach.foreach_zero_(grads)

    def state_dict(self):
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start_index):
                if id(p) not in param_mappings:
                    param_mappings[id(p)] = i
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v
            for k, v in self.state.items()
        }
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = [len(g["params"]) for g in groups]
        saved_lens = [len(g["params"]) for g in saved_groups]
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
            )
        id_map = {}
        for g, sg in zip(groups, saved_groups):
            for old_id, p in zip(sg["params"], g["params"]):
                id_map[old_id] = p

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                new_v = {}
                for key, value in v.items():
                    if key != "step" and isinstance(value, torch.Tensor):
                        if param.is_floating_point():
                            value = value.to(dtype=param.dtype, device=param.device)
                        else:
                            value = value.to(device=param.device)
                    new_v[key] = value
                state[param] = new_v
            else:
                state[k] = v

        new_groups = []
        for group, ng in zip(groups, saved_groups):
            new_group = dict(ng)
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            new_groups.append(new_group)
        self.state = state
        self.param_groups = new_groups

    def step(self, closure=None):
        raise NotImplementedError
