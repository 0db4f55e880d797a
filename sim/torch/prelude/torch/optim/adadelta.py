# Adadelta (torch/optim/adadelta.py of PyTorch 2.11): lazy state (step as
# a CPU float32 scalar, square_avg and acc_delta via zeros_like), and
# _multi_tensor_adadelta op by op (the default on CUDA), so its temporaries
# (std, deltas, and the grads copy with weight_decay/maximize) live as long
# as in PyTorch.
import torch
from torch.optim import _foreach_ops as _fo
from torch.optim.optimizer import (
    Optimizer, _default_to_fused_or_foreach, _device_dtype_check_for_fused,
    _get_capturable_supported_devices, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable, _view_as_real,
)

__all__ = ['Adadelta', 'adadelta']


class Adadelta(Optimizer):

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, capturable=False, maximize=False, differentiable=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Invalid learning rate: {lr}')
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f'Invalid rho value: {rho}')
        if not 0.0 <= eps:
            raise ValueError(f'Invalid epsilon value: {eps}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'rho': rho, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize, 'capturable': capturable, 'foreach': foreach, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and (not torch.is_tensor(p_state['step'])):
                    step_val = float(p_state['step'])
                    p_state['step'] = torch.tensor(step_val, dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.tensor(step_val, dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, square_avgs, acc_deltas, state_steps):
        has_complex = False
        for p in group['params']:
            if p.grad is None:
                continue
            has_complex |= p.is_complex()
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError('Adadelta does not support sparse gradients')
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.zeros((), dtype=_get_scalar_dtype())
                state['square_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['acc_delta'] = torch.zeros_like(p, memory_format=torch.preserve_format)
            square_avgs.append(state['square_avg'])
            acc_deltas.append(state['acc_delta'])
            state_steps.append(state['step'])
        return has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        self._accelerator_graph_capture_health_check()
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            params_with_grad = []
            grads = []
            square_avgs = []
            acc_deltas = []
            state_steps = []
            lr, rho, eps, weight_decay, foreach, maximize, differentiable, capturable = (group['lr'], group['rho'], group['eps'], group['weight_decay'], group['foreach'], group['maximize'], group['differentiable'], group['capturable'])
            has_complex = self._init_group(group, params_with_grad, grads, square_avgs, acc_deltas, state_steps)
            adadelta(params_with_grad, grads, square_avgs, acc_deltas, state_steps, lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize, differentiable=differentiable, capturable=capturable, has_complex=has_complex)
        return loss

def _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps, weight_decay, maximize, differentiable, capturable, has_complex):
    if capturable:
        capturable_supported_devices = _get_capturable_supported_devices(supports_xla=False)
        if not all((p.device.type == step.device.type and p.device.type in capturable_supported_devices for p, step in zip(params, state_steps, strict=True))):
            raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
    if True:
        lr = _to_scalar(lr)
    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, state_steps, strict=True):
        step += 1
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if param.is_complex():
            square_avg = torch.view_as_real(square_avg)
            acc_delta = torch.view_as_real(acc_delta)
            grad = torch.view_as_real(grad)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        if param.is_complex():
            delta = torch.view_as_complex(delta)
        param.add_(delta, alpha=-lr)

def _multi_tensor_adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps, weight_decay, maximize, differentiable, capturable, has_complex):
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if capturable:
        capturable_supported_devices = _get_capturable_supported_devices(supports_xla=False)
        if not all((p.device.type == step.device.type and p.device.type in capturable_supported_devices for p, step in zip(params, state_steps, strict=True))):
            raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
    if len(params) == 0:
        return
    lr = _to_scalar(lr)
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype([params, grads, square_avgs, acc_deltas, state_steps])
    for (device_params_, device_grads_, device_square_avgs_, device_acc_deltas_, device_state_steps_), _ in grouped_tensors.values():
        device_params = device_params_
        device_grads = device_grads_
        device_square_avgs = device_square_avgs_
        device_acc_deltas = device_acc_deltas_
        device_state_steps = device_state_steps_
        if has_complex:
            _view_as_real(device_params, device_grads, device_square_avgs, device_acc_deltas)
        if device_state_steps[0].device.type == "cpu":
            _fo._foreach_add_(device_state_steps, torch.tensor(1.0, device='cpu'), alpha=1.0)
        else:
            _fo._foreach_add_(device_state_steps, 1)
        if maximize:
            device_grads = _fo._foreach_neg(device_grads)
        if weight_decay != 0:
            if maximize:
                _fo._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = _fo._foreach_add(device_grads, device_params, alpha=weight_decay)
        _fo._foreach_mul_(device_square_avgs, rho)
        _fo._foreach_addcmul_(device_square_avgs, device_grads, device_grads, value=1 - rho)
        std = _fo._foreach_add(device_square_avgs, eps)
        _fo._foreach_sqrt_(std)
        deltas = _fo._foreach_add(device_acc_deltas, eps)
        _fo._foreach_sqrt_(deltas)
        _fo._foreach_div_(deltas, std)
        _fo._foreach_mul_(deltas, device_grads)
        _fo._foreach_mul_(device_acc_deltas, rho)
        _fo._foreach_addcmul_(device_acc_deltas, deltas, deltas, value=1 - rho)
        if capturable and isinstance(lr, torch.Tensor):
            _fo._foreach_mul_(deltas, -lr)
            _fo._foreach_add_(device_params, deltas)
        else:
            _fo._foreach_add_(device_params, deltas, alpha=-lr)

def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False, foreach=None, differentiable=False, has_complex=False, *, lr, rho, eps, weight_decay, maximize):
    if (not all((isinstance(t, torch.Tensor) for t in state_steps))):
        raise RuntimeError('API has changed, `state_steps` argument must contain a list of singleton tensors')
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and False:
        raise RuntimeError('torch.jit.script not supported with foreach optimizers')
    if foreach and (True):
        func = _multi_tensor_adadelta
    else:
        func = _single_tensor_adadelta
    func(params, grads, square_avgs, acc_deltas, state_steps, lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, differentiable=differentiable, capturable=capturable, has_complex=has_complex)

