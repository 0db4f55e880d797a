# Adamax (torch/optim/adamax.py of PyTorch 2.11, ported op by op): lazy
# state (step as a CPU float32 scalar; exp_avg, exp_inf via zeros_like),
# _multi_tensor_adamax (the default on CUDA) with every _foreach_* temporary
# list living as long as in PyTorch, and _single_tensor_adamax.
# capturable=True is not modelled (NotImplementedError, as for Adam).
import torch
from torch import Tensor
from torch.optim import _foreach_more as _fx
from torch.optim.optimizer import (
    Optimizer, _default_to_fused_or_foreach, _get_capturable_supported_devices, _get_scalar_dtype,
    _get_value, _to_scalar, _use_grad_for_differentiable, _view_as_real,
)

__all__ = ['Adamax', 'adamax']

class Adamax(Optimizer):

    def __init__(self, params, lr=0.002, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, foreach=None, *, maximize=False, differentiable=False, capturable=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Invalid learning rate: {lr}')
        if not 0.0 <= eps:
            raise ValueError(f'Invalid epsilon value: {eps}')
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f'Invalid beta parameter at index 0: {betas[0]}')
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f'Invalid beta parameter at index 1: {betas[1]}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable, 'capturable': capturable}
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

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_infs, state_steps):
        has_complex = False
        for p in group['params']:
            if p.grad is None:
                continue
            has_complex |= p.is_complex()
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError('Adamax does not support sparse gradients')
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.tensor(0.0, dtype=_get_scalar_dtype())
                state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['exp_inf'] = torch.zeros_like(p, memory_format=torch.preserve_format)
            exp_avgs.append(state['exp_avg'])
            exp_infs.append(state['exp_inf'])
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
            exp_avgs = []
            exp_infs = []
            state_steps = []
            beta1, beta2 = group['betas']
            eps = group['eps']
            lr = group['lr']
            weight_decay = group['weight_decay']
            foreach = group['foreach']
            maximize = group['maximize']
            differentiable = group['differentiable']
            capturable = group['capturable']
            has_complex = self._init_group(group, params_with_grad, grads, exp_avgs, exp_infs, state_steps)
            adamax(params_with_grad, grads, exp_avgs, exp_infs, state_steps, eps=eps, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay, foreach=foreach, maximize=maximize, differentiable=differentiable, capturable=capturable, has_complex=has_complex)
        return loss

def _single_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr, weight_decay, maximize, differentiable, capturable, has_complex):
    if True:
        lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]
        if capturable:
            capturable_supported_devices = _get_capturable_supported_devices()
            if not (param.device.type == step_t.device.type and param.device.type in capturable_supported_devices):
                raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if param.is_complex():
            param = torch.view_as_real(param)
            grad = torch.view_as_real(grad)
            exp_avg = torch.view_as_real(exp_avg)
            exp_inf = torch.view_as_real(exp_inf)
        exp_avg.lerp_(grad, 1 - beta1)
        if not differentiable:
            torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        else:
            norm_buf = torch.cat([exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
            exp_inf.copy_(torch.amax(norm_buf, 0, keepdim=False))
        if capturable:
            neg_bias_correction = beta1 ** step_t - 1
            neg_bias_correction.div_(lr)
            denom = exp_inf * neg_bias_correction
            param.addcdiv_(exp_avg, denom)
        else:
            bias_correction = 1 - beta1 ** _get_value(step_t)
            clr = lr / bias_correction
            param.addcdiv_(exp_avg, exp_inf, value=-clr)

def _multi_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr, weight_decay, maximize, differentiable, capturable, has_complex):
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if len(params) == 0:
        return
    if capturable:
        capturable_supported_devices = _get_capturable_supported_devices(supports_xla=False)
        if not all((p.device.type == step.device.type and p.device.type in capturable_supported_devices for p, step in zip(params, state_steps, strict=True))):
            raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
    lr = _to_scalar(lr)
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype([params, grads, exp_avgs, exp_infs, state_steps])
    for (grouped_params_, grouped_grads_, grouped_exp_avgs_, grouped_exp_infs_, grouped_state_steps_), _ in grouped_tensors.values():
        grouped_params = grouped_params_
        grouped_grads = grouped_grads_
        grouped_exp_avgs = grouped_exp_avgs_
        grouped_exp_infs = grouped_exp_infs_
        grouped_state_steps = grouped_state_steps_
        if has_complex:
            _view_as_real(grouped_params, grouped_grads, grouped_exp_avgs, grouped_exp_infs)
        if maximize:
            grouped_grads = _fx._foreach_neg(grouped_grads)
        if grouped_state_steps[0].device.type == "cpu":
            _fx._foreach_add_(grouped_state_steps, torch.tensor(1.0, device='cpu'), alpha=1.0)
        else:
            _fx._foreach_add_(grouped_state_steps, 1)
        if weight_decay != 0:
            if maximize:
                _fx._foreach_add_(grouped_grads, grouped_params, alpha=weight_decay)
            else:
                grouped_grads = _fx._foreach_add(grouped_grads, grouped_params, alpha=weight_decay)
        _fx._foreach_lerp_(grouped_exp_avgs, grouped_grads, 1 - beta1)
        _fx._foreach_mul_(grouped_exp_infs, beta2)
        if not maximize and weight_decay == 0:
            grouped_grads = _fx._foreach_abs(grouped_grads)
        else:
            _fx._foreach_abs_(grouped_grads)
        _fx._foreach_add_(grouped_grads, eps)
        _fx._foreach_maximum_(grouped_exp_infs, grouped_grads)
        if capturable:
            bias_corrections = _fx._foreach_pow(beta1, grouped_state_steps)
            _fx._foreach_sub_(bias_corrections, 1)
            _fx._foreach_div_(bias_corrections, lr)
            denom = _fx._foreach_mul(grouped_exp_infs, bias_corrections)
            _fx._foreach_addcdiv_(grouped_params, grouped_exp_avgs, denom)
        else:
            bias_corrections = [1 - beta1 ** _get_value(step) for step in grouped_state_steps]
            step_size = [_get_value(lr) / bc * -1 for bc in bias_corrections]
            _fx._foreach_addcdiv_(grouped_params, grouped_exp_avgs, grouped_exp_infs, step_size)

def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False, differentiable=False, capturable=False, has_complex=False, *, eps, beta1, beta2, lr, weight_decay):
    if (not all((isinstance(t, torch.Tensor) for t in state_steps))):
        raise RuntimeError('API has changed, `state_steps` argument must contain a list of singleton tensors')
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and False:
        raise RuntimeError('torch.jit.script not supported with foreach optimizers')
    if foreach and (not False):
        func = _multi_tensor_adamax
    else:
        func = _single_tensor_adamax
    func(params, grads, exp_avgs, exp_infs, state_steps, eps=eps, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay, maximize=maximize, differentiable=differentiable, has_complex=has_complex, capturable=capturable)

