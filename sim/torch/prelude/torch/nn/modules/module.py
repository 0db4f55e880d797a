# torch.nn.Module, mirroring torch/nn/modules/module.py of PyTorch 2.11:
# the same dicts, the same registration rules, the same _apply (param.data
# swap), so Python-level lifetimes of parameters and buffers match PyTorch.
from collections import OrderedDict

import torch
from torch import _labels
from torch.nn.parameter import Parameter

__all__ = ["Module"]


def _addindent(s_, numSpaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * " ") + line for line in s]
    s = "\n".join(s)
    return first + "\n" + s


def _typename(o):
    if isinstance(o, torch.Tensor):
        return o.type() if hasattr(o, "type") else "torch.Tensor"
    module = type(o).__module__
    if module in ("builtins", "__builtin__", None):
        return type(o).__qualname__
    return module + "." + type(o).__qualname__


class _IncompatibleKeys:
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])

    def __getitem__(self, i):
        return [self.missing_keys, self.unexpected_keys][i]

    def __len__(self):
        return 2

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return "_IncompatibleKeys(missing_keys={!r}, unexpected_keys={!r})".format(
            self.missing_keys, self.unexpected_keys
        )

    __str__ = __repr__


def _relabel(module, prefix):
    # Names every parameter and buffer of module (recursively) with its full
    # dotted path under prefix; remembered as _sim_name for later moves.
    object.__setattr__(module, "_sim_name", prefix)
    dot = prefix + "." if prefix else ""
    for k, p in module._parameters.items():
        if p is not None:
            _labels.label(p, "parameter", dot + k)
    for k, b in module._buffers.items():
        if b is not None:
            _labels.label(b, "buffer", dot + k)
    for k, m in module._modules.items():
        if m is not None:
            _relabel(m, dot + k)


def _qualname(module, key):
    prefix = module.__dict__.get("_sim_name", "")
    return prefix + "." + key if prefix else key


class RemovableHandle:
    """A handle which provides the capability to remove a hook
    (torch.utils.hooks.RemovableHandle)."""
    next_id = 0

    def __init__(self, hooks_dict):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self):
        if self.id in self.hooks_dict_ref:
            del self.hooks_dict_ref[self.id]

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()


def _register_hook(module, attr, hook, prepend, with_kwargs):
    # Module.register_forward(_pre)_hook: hooks run in insertion order
    # (prepend=True puts this one first); the ids of with_kwargs hooks are
    # kept in attr + "_with_kwargs", as PyTorch keeps them
    hooks = module.__dict__.get(attr)
    if hooks is None:
        hooks = OrderedDict()
        object.__setattr__(module, attr, hooks)
    handle = RemovableHandle(hooks)
    if with_kwargs:
        kw = module.__dict__.get(attr + "_with_kwargs")
        if kw is None:
            kw = {}
            object.__setattr__(module, attr + "_with_kwargs", kw)
        kw[handle.id] = True
    if prepend:
        items = list(hooks.items())
        hooks.clear()
        hooks[handle.id] = hook
        for k, v in items:
            hooks[k] = v
    else:
        hooks[handle.id] = hook
    return handle


def _call_hooked(module, args, kwargs):
    # Module._call_impl with forward pre-hooks and forward hooks
    d = module.__dict__
    pre_kw = d.get("_forward_pre_hooks_with_kwargs") or {}
    for hook_id, hook in list(d.get("_forward_pre_hooks", {}).items()):
        if hook_id in pre_kw:
            result = hook(module, args, kwargs)
            if result is not None:
                if isinstance(result, tuple) and len(result) == 2:
                    args, kwargs = result
                else:
                    raise RuntimeError(
                        "forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                        f"but got {result}.")
        else:
            result = hook(module, args)
            if result is not None:
                if not isinstance(result, tuple):
                    result = (result,)
                args = result
    result = module.forward(*args, **kwargs)
    post_kw = d.get("_forward_hooks_with_kwargs") or {}
    for hook_id, hook in list(d.get("_forward_hooks", {}).items()):
        if hook_id in post_kw:
            hook_result = hook(module, args, kwargs, result)
        else:
            hook_result = hook(module, args, result)
        if hook_result is not None:
            result = hook_result
    return result


class Module:
    dump_patches = False
    _version = 1
    call_super_init = False

    def __init__(self, *args, **kwargs):
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                "{}.__init__() got an unexpected keyword argument '{}'".format(
                    type(self).__name__, next(iter(kwargs))
                )
            )
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_pre_hooks", OrderedDict())
        object.__setattr__(self, "_forward_hooks", OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # --- registration -------------------------------------------------

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        else:
            self._buffers[name] = tensor
            if persistent:
                self._non_persistent_buffers_set.discard(name)
            else:
                self._non_persistent_buffers_set.add(name)
            if tensor is not None:
                _labels.label(tensor, "buffer", _qualname(self, name))

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")

        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        elif param.grad_fn:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method."
            )
        else:
            self._parameters[name] = param
            _labels.label(param, "parameter", _qualname(self, name))

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module
        if module is not None:
            _relabel(module, _qualname(self, name))

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == "":
            return self
        atoms = target.split(".")
        mod = self
        for item in atoms:
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    # --- attribute protocol ------------------------------------------

    def __getattr__(self, name):
        d = self.__dict__
        if "_parameters" in d:
            _parameters = d["_parameters"]
            if name in _parameters:
                return _parameters[name]
        if "_buffers" in d:
            _buffers = d["_buffers"]
            if name in _buffers:
                return _buffers[name]
        if "_modules" in d:
            modules = d["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        d = self.__dict__

        def remove_from(*dicts_or_sets):
            for dd in dicts_or_sets:
                if name in dd:
                    if isinstance(dd, dict):
                        del dd[name]
                    else:
                        dd.discard(name)

        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
                _relabel(value, _qualname(self, name))
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{_typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(
                            f"cannot assign '{_typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    persistent = name not in self._non_persistent_buffers_set
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # --- iteration (PyTorch's generators, as iterators over lists) ----

    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        if recurse:
            modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        else:
            modules = [(prefix, self)]
        out = []
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                name = module_prefix + ("." if module_prefix else "") + k
                out.append((name, v))
        return out

    def parameters(self, recurse=True):
        return iter([p for _, p in self.named_parameters(recurse=recurse)])

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(
            self._named_members(
                lambda module: module._parameters.items(),
                prefix=prefix,
                recurse=recurse,
                remove_duplicate=remove_duplicate,
            )
        )

    def buffers(self, recurse=True):
        return iter([b for _, b in self.named_buffers(recurse=recurse)])

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(
            self._named_members(
                lambda module: module._buffers.items(),
                prefix=prefix,
                recurse=recurse,
                remove_duplicate=remove_duplicate,
            )
        )

    def children(self):
        return iter([m for _, m in self.named_children()])

    def named_children(self):
        memo = set()
        out = []
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                out.append((name, module))
        return iter(out)

    def modules(self):
        return iter([m for _, m in self.named_modules()])

    def _collect_modules(self, memo, prefix, remove_duplicate, out):
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            out.append((prefix, self))
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                module._collect_modules(memo, submodule_prefix, remove_duplicate, out)

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        out = []
        self._collect_modules(memo, prefix, remove_duplicate, out)
        return iter(out)

    # --- modes ---------------------------------------------------------

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- conversions (_apply, exactly as module.py) --------------------

    def _apply(self, fn, recurse=True):
        if recurse:
            for module in self.children():
                module._apply(fn)

        for key, param in self._parameters.items():
            if param is None:
                continue
            # Tensors stored in modules are graph leaves: no autograd history.
            with torch.no_grad():
                param_applied = fn(param)
            # torch.__future__.get_overwrite_module_params_on_conversion() is
            # False and dense tensors have compatible shallow-copy types, so
            # PyTorch swaps .data in place: the old storage dies here.
            param_grad = param.grad
            param.data = param_applied
            out_param = param
            _labels.label(out_param, "parameter", _qualname(self, key))

            if param_grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param_grad)
                out_param.grad.data = grad_applied
                _labels.label(out_param.grad, "gradient", "grad of " + _qualname(self, key))

        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
                _labels.label(self._buffers[key], "buffer", _qualname(self, key))

        return self

    def cuda(self, device=None):
        if device is None:
            return self._apply(lambda t: t.cuda())
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to(self, *args, **kwargs):
        # _parse_to's fourth result: memory_format is keyword-only
        convert_to_format = kwargs.pop("memory_format", None)
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError(
                    "nn.Module.to only accepts floating point or complex "
                    f"dtypes, but got desired dtype={dtype}"
                )

        def convert(t):
            kw = {}
            if device is not None:
                kw["device"] = device
            if dtype is not None and (t.is_floating_point() or t.is_complex()):
                kw["dtype"] = dtype
            if non_blocking:
                kw["non_blocking"] = non_blocking
            if convert_to_format is not None and t.dim() in (4, 5):
                kw["memory_format"] = convert_to_format
            return t.to(**kw)

        return self._apply(convert)

    # --- calling -------------------------------------------------------

    def _call_impl(self, *args, **kwargs):
        name = self.__dict__.get("_sim_name", "")
        _labels.push_module(name if name else type(self).__name__)
        try:
            if self.__dict__.get("_forward_pre_hooks") or self.__dict__.get("_forward_hooks"):
                return _call_hooked(self, args, kwargs)
            return self.forward(*args, **kwargs)
        finally:
            _labels.pop_module()

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        return _register_hook(self, "_forward_pre_hooks", hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        return _register_hook(self, "_forward_hooks", hook, prepend, with_kwargs)

    def __call__(self, *args, **kwargs):
        return self._call_impl(*args, **kwargs)

    # --- state dicts ---------------------------------------------------

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if len(args) > 0:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        persistent_buffers = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {}
        for k, v in self._parameters.items():
            if v is not None:
                local_state[k] = v
        for k, v in persistent_buffers.items():
            if v is not None:
                local_state[k] = v
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, torch.Tensor):
                    error_msgs.append(
                        f'While copying the parameter named "{key}", expected torch.Tensor '
                        f"or Tensor-like object from checkpoint but received {type(input_param)}"
                    )
                    continue
                if len(param.shape) == 0 and len(input_param.shape) == 1:
                    input_param = input_param[0]
                if tuple(input_param.shape) != tuple(param.shape):
                    error_msgs.append(
                        f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                        f"the shape in current model is {param.shape}."
                    )
                    continue
                try:
                    with torch.no_grad():
                        if assign:
                            if isinstance(param, Parameter):
                                if not isinstance(input_param, Parameter):
                                    input_param = Parameter(input_param, requires_grad=param.requires_grad)
                                else:
                                    input_param.requires_grad_(param.requires_grad)
                            setattr(self, name, input_param)
                        else:
                            param.copy_(input_param)
                except Exception as ex:
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        f"whose dimensions in the model are {param.size()} and "
                        f"whose dimensions in the checkpoint are {input_param.size()}, "
                        f"an exception occurred : {ex.args}."
                    )
            elif strict:
                missing_keys.append(key)

        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys = []
        unexpected_keys = []
        error_msgs = []
        state_dict = OrderedDict(state_dict)

        def load(module, local_state_dict, prefix=""):
            local_metadata = {}
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state_dict, prefix, local_metadata, True,
                missing_keys, unexpected_keys, error_msgs,
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {
                        k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state_dict, child_prefix)

        load(self, state_dict)
        del load

        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            if len(missing_keys) > 0:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )
        if len(error_msgs) > 0:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    self.__class__.__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # --- printing ------------------------------------------------------

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines

        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(keys)


def _parse_to(*args, **kwargs):
    # torch._C._nn._parse_to: (device, dtype, non_blocking) from Module.to's
    # overloads: to(device, dtype, non_blocking), to(dtype, non_blocking),
    # to(tensor, non_blocking), plus keywords.
    device = kwargs.get("device", None)
    dtype = kwargs.get("dtype", None)
    non_blocking = kwargs.get("non_blocking", False)
    rest = list(args)
    if rest:
        a = rest[0]
        if isinstance(a, torch.Tensor):
            device = a.device
            dtype = a.dtype
            rest = rest[1:]
        elif isinstance(a, torch.dtype):
            dtype = a
            rest = rest[1:]
        elif a is None or isinstance(a, (str, int, torch.device)):
            device = a
            rest = rest[1:]
            if rest and isinstance(rest[0], torch.dtype):
                dtype = rest[0]
                rest = rest[1:]
        else:
            raise TypeError(
                "to() received an invalid combination of arguments - got ({}), ".format(
                    ", ".join(type(x).__name__ for x in args)
                )
            )
    if rest:
        if isinstance(rest[0], bool):
            non_blocking = rest[0]
    if isinstance(device, str):
        device = torch.device(device)
    elif isinstance(device, int):
        device = torch.device("cuda", device)
    return device, dtype, non_blocking
