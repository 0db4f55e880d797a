# Adagrad (torch/optim/adagrad.py of PyTorch 2.11): state made eagerly in
# __init__ (step as a CPU float32 scalar, sum via full_like), and
# _multi_tensor_adagrad op by op (the default on CUDA). fused=True is
# CPU-only in PyTorch: CUDA parameters raise its error.
import torch
from torch.optim import _foreach_ops as _fo
from torch.optim.optimizer import (
    Optimizer, _default_to_fused_or_foreach, _device_dtype_check_for_fused,
    _get_capturable_supported_devices, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable, _view_as_real,
)

__all__ = ['Adagrad', 'adagrad']


class Adagrad(Optimizer):

    def __init__(self, params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Invalid learning rate: {lr}')
        if not 0.0 <= lr_decay:
            raise ValueError(f'Invalid lr_decay value: {lr_decay}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f'Invalid initial_accumulator_value value: {initial_accumulator_value}')
        if not 0.0 <= eps:
            raise ValueError(f'Invalid epsilon value: {eps}')
        defaults = {'lr': lr, 'lr_decay': lr_decay, 'eps': eps, 'weight_decay': weight_decay, 'initial_accumulator_value': initial_accumulator_value, 'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable, 'fused': fused}
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError('`fused` does not support `differentiable`')
            if foreach:
                raise RuntimeError('`fused` and `foreach` cannot be `True` together.')
            self._need_device_dtype_check_for_fused = True
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype(is_fused=group['fused']), device=p.device) if group['fused'] else torch.tensor(0.0, dtype=_get_scalar_dtype())
                init_value = complex(initial_accumulator_value, initial_accumulator_value) if p.is_complex() else initial_accumulator_value
                state['sum'] = torch.full_like(p, init_value, memory_format=torch.preserve_format)

    def __setstate__(self, state):
        super().__setstate__(state)
        fused = None
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            fused = group.setdefault('fused', None)
        state_values = list(self.state.values())
        step_is_tensor = len(state_values) != 0 and torch.is_tensor(state_values[0]['step'])
        if not step_is_tensor:
            for s in state_values:
                s['step'] = torch.tensor(float(s['step']), dtype=_get_scalar_dtype(is_fused=fused))

    def share_memory(self):
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['sum'].share_memory_()

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        has_sparse_grad, has_complex = (False, False)
        for p in group['params']:
            if p.grad is not None:
                if group['fused'] and getattr(self, '_need_device_dtype_check_for_fused', True):
                    _device_dtype_check_for_fused(p, cuda_unsupported=True)
                    self._need_device_dtype_check_for_fused = False
                has_sparse_grad |= p.grad.is_sparse
                has_complex |= p.is_complex()
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                state_sums.append(state['sum'])
                state_steps.append(state['step'])
        return (has_sparse_grad, has_complex)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            params_with_grad = []
            grads = []
            state_sums = []
            state_steps = []
            has_sparse_grad, has_complex = self._init_group(group, params_with_grad, grads, state_sums, state_steps)
            adagrad(params_with_grad, grads, state_sums, state_steps, lr=group['lr'], weight_decay=group['weight_decay'], lr_decay=group['lr_decay'], eps=group['eps'], has_sparse_grad=has_sparse_grad, foreach=group['foreach'], maximize=group['maximize'], differentiable=group['differentiable'], has_complex=has_complex, fused=group['fused'], grad_scale=getattr(self, 'grad_scale', None), found_inf=getattr(self, 'found_inf', None))
        return loss

def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None, found_inf=None, has_sparse_grad=False, foreach=None, differentiable=False, has_complex=False, *, lr, weight_decay, lr_decay, eps, maximize):
    if not all((isinstance(t, torch.Tensor) for t in state_steps)):
        raise RuntimeError('API has changed, `state_steps` argument must contain a list of singleton tensors')
    if fused is None and foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if fused is None:
        fused = False
    if foreach is None:
        foreach = False
    if foreach and False:
        raise RuntimeError('torch.jit.script not supported with foreach optimizers')
    if fused and False:
        raise RuntimeError('torch.jit.script not supported with fused optimizers')
    if fused and (True):
        func = _fused_adagrad
    elif foreach and (True):
        func = _multi_tensor_adagrad
    else:
        func = _single_tensor_adagrad
    func(params, grads, state_sums, state_steps, lr=lr, weight_decay=weight_decay, lr_decay=lr_decay, eps=eps, has_sparse_grad=has_sparse_grad, maximize=maximize, differentiable=differentiable, has_complex=has_complex, grad_scale=grad_scale, found_inf=found_inf)

def _make_sparse(grad, grad_indices, values):
    size = grad.size()
    return torch.sparse_coo_tensor(grad_indices, values, size)

def _single_tensor_adagrad(params, grads, state_sums, state_steps, grad_scale, found_inf, *, lr, weight_decay, lr_decay, eps, has_sparse_grad, maximize, differentiable, has_complex):
    if grad_scale is not None or found_inf is not None:
        raise AssertionError('Expected grad_scale and found_inf to be None')
    if True:
        lr = _to_scalar(lr)
    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps, strict=True):
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            if grad.is_sparse:
                raise RuntimeError('weight_decay option is not compatible with sparse gradients')
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        if grad.is_sparse:
            grad = grad.coalesce()
            grad_indices = grad._indices()
            grad_values = grad._values()
            state_sum.add_(_make_sparse(grad, grad_indices, grad_values.pow(2)))
            std = state_sum.sparse_mask(grad)
            std_values = std._values().sqrt_().add_(eps)
            param.add_(_make_sparse(grad, grad_indices, grad_values / std_values), alpha=-clr)
        else:
            is_complex = param.is_complex()
            if is_complex:
                grad = torch.view_as_real(grad)
                state_sum = torch.view_as_real(state_sum)
                param = torch.view_as_real(param)
            state_sum.addcmul_(grad, grad, value=1)
            if differentiable:
                std = state_sum.sqrt() + eps
            else:
                std = state_sum.sqrt().add_(eps)
            param.addcdiv_(grad, std, value=-clr)
            if is_complex:
                param = torch.view_as_complex(param)
                state_sum = torch.view_as_complex(state_sum)

def _multi_tensor_adagrad(params, grads, state_sums, state_steps, grad_scale, found_inf, *, lr, weight_decay, lr_decay, eps, has_sparse_grad, maximize, differentiable, has_complex):
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if grad_scale is not None or found_inf is not None:
        raise AssertionError('Expected grad_scale and found_inf to be None')
    if len(params) == 0:
        return
    lr = _to_scalar(lr)
    grouped_tensorlists = Optimizer._group_tensors_by_device_and_dtype([params, grads, state_sums, state_steps])
    for (device_params_, device_grads_, device_state_sums_, device_state_steps_), _ in grouped_tensorlists.values():
        device_params = device_params_
        device_grads = device_grads_
        device_state_sums = device_state_sums_
        device_state_steps = device_state_steps_
        device_has_sparse_grad = has_sparse_grad and any((grad.is_sparse for grad in device_grads))
        if device_has_sparse_grad:
            _single_tensor_adagrad(device_params, device_grads, device_state_sums, device_state_steps, lr=lr, weight_decay=weight_decay, lr_decay=lr_decay, eps=eps, has_sparse_grad=True, maximize=maximize, differentiable=differentiable, has_complex=has_complex, grad_scale=grad_scale, found_inf=found_inf)
            continue
        if has_complex:
            _view_as_real(device_params, device_grads, device_state_sums)
        if maximize:
            device_grads = _fo._foreach_neg(device_grads)
        if device_state_steps[0].device.type == "cpu":
            _fo._foreach_add_(device_state_steps, torch.tensor(1.0, device='cpu'), alpha=1.0)
        else:
            _fo._foreach_add_(device_state_steps, 1)
        if weight_decay != 0:
            if maximize:
                _fo._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = _fo._foreach_add(device_grads, device_params, alpha=weight_decay)
        minus_clr = [-lr / (1 + (_get_value(step) - 1) * lr_decay) for step in device_state_steps]
        _fo._foreach_addcmul_(device_state_sums, device_grads, device_grads, value=1)
        std = _fo._foreach_sqrt(device_state_sums)
        _fo._foreach_add_(std, eps)
        if weight_decay != 0 or maximize:
            _fo._foreach_mul_(device_grads, minus_clr)
            numerator = device_grads
        else:
            numerator = _fo._foreach_mul(device_grads, minus_clr)
        _fo._foreach_addcdiv_(device_params, numerator, std)

