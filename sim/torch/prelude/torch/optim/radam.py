# RAdam (torch/optim/radam.py of PyTorch 2.11, ported op by op): lazy state
# (step as a CPU float32 scalar; exp_avg, exp_avg_sq via zeros_like),
# _multi_tensor_radam (the default on CUDA) with every _foreach_* temporary
# list living as long as in PyTorch, and _single_tensor_radam.
# capturable=True is not modelled (NotImplementedError, as for Adam).
import torch
from torch import Tensor
from torch.optim import _foreach_more as _fx
from torch.optim.optimizer import (
    Optimizer, _default_to_fused_or_foreach, _get_capturable_supported_devices, _get_scalar_dtype,
    _get_value, _to_scalar, _use_grad_for_differentiable, _view_as_real,
)

__all__ = ['RAdam', 'radam']

class RAdam(Optimizer):

    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False, differentiable=False):
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
        defaults = {'lr': lr, 'betas': betas, 'eps': eps, 'weight_decay': weight_decay, 'maximize': maximize, 'foreach': foreach, 'capturable': capturable, 'decoupled_weight_decay': decoupled_weight_decay, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('decoupled_weight_decay', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and (not torch.is_tensor(p_state['step'])):
                    step_val = float(p_state['step'])
                    p_state['step'] = torch.tensor(step_val, dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.tensor(step_val, dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps):
        has_complex = False
        for p in group['params']:
            if p.grad is not None:
                has_complex |= p.is_complex()
                params_with_grad.append(p)
                if p.grad.is_sparse:
                    raise RuntimeError('RAdam does not support sparse gradients')
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.zeros((), dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
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
            exp_avg_sqs = []
            state_steps = []
            beta1, beta2 = group['betas']
            has_complex = self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps)
            radam(params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1, beta2=beta2, lr=group['lr'], weight_decay=group['weight_decay'], eps=group['eps'], maximize=group['maximize'], foreach=group['foreach'], capturable=group['capturable'], differentiable=group['differentiable'], decoupled_weight_decay=group['decoupled_weight_decay'], has_complex=has_complex)
        return loss

def _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr, weight_decay, eps, decoupled_weight_decay, differentiable, maximize, capturable, has_complex):
    if True:
        lr = _to_scalar(lr)
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]
        if capturable:
            capturable_supported_devices = _get_capturable_supported_devices()
            if not (param.device.type == step_t.device.type and param.device.type in capturable_supported_devices):
                raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
        if param.is_complex():
            param = torch.view_as_real(param)
            grad = torch.view_as_real(grad)
            exp_avg = torch.view_as_real(exp_avg)
            exp_avg_sq = torch.view_as_real(exp_avg_sq)
        step_t += 1
        step = step_t if capturable else _get_value(step_t)
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2 ** step / bias_correction2

        def _compute_rect():
            return ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5

        def _compute_adaptive_lr():
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            if differentiable:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps)
            else:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add_(eps)
            return bias_correction2 ** 0.5 / exp_avg_sq_sqrt
        if capturable:
            update = torch.where(rho_t > 5.0, _compute_rect() * _compute_adaptive_lr(), 1.0)
            param.add_(bias_corrected_exp_avg * lr * update, alpha=-1.0)
        elif rho_t > 5.0:
            param.add_(bias_corrected_exp_avg * lr * _compute_adaptive_lr() * _compute_rect(), alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)

def _multi_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr, weight_decay, eps, decoupled_weight_decay, differentiable, maximize, capturable, has_complex):
    if len(params) == 0:
        return
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if capturable:
        capturable_supported_devices = _get_capturable_supported_devices(supports_xla=False)
        if not all((p.device.type == step.device.type and p.device.type in capturable_supported_devices for p, step in zip(params, state_steps, strict=True))):
            raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
    lr = _to_scalar(lr)
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype([params, grads, exp_avgs, exp_avg_sqs, state_steps])
    for (grouped_params_, grouped_grads_, grouped_exp_avgs_, grouped_exp_avg_sqs_, grouped_state_steps_), _ in grouped_tensors.values():
        grouped_params = grouped_params_
        grouped_grads = grouped_grads_
        grouped_exp_avgs = grouped_exp_avgs_
        grouped_exp_avg_sqs = grouped_exp_avg_sqs_
        grouped_state_steps = grouped_state_steps_
        if grouped_state_steps[0].device.type == "cpu":
            _fx._foreach_add_(grouped_state_steps, torch.tensor(1.0, device='cpu'), alpha=1.0)
        else:
            _fx._foreach_add_(grouped_state_steps, 1)
        if has_complex:
            _view_as_real(grouped_params, grouped_grads, grouped_exp_avgs, grouped_exp_avg_sqs)
        if maximize:
            grouped_grads = _fx._foreach_neg(grouped_grads)
        rho_inf = 2 / (1 - beta2) - 1
        if capturable:
            bias_correction1 = _fx._foreach_pow(beta2, grouped_state_steps)
            _fx._foreach_neg_(bias_correction1)
            _fx._foreach_add_(bias_correction1, 1)
            bias_correction2 = _fx._foreach_pow(beta2, grouped_state_steps)
            _fx._foreach_mul_(bias_correction2, grouped_state_steps)
            _fx._foreach_mul_(bias_correction2, 2)
            _fx._foreach_div_(bias_correction2, bias_correction1)
            _fx._foreach_neg_(bias_correction2)
            _fx._foreach_add_(bias_correction2, rho_inf)
            rho_t_list = bias_correction2
        else:
            rho_t_list = [rho_inf - 2 * _get_value(step) * beta2 ** _get_value(step) / (1 - beta2 ** _get_value(step)) for step in grouped_state_steps]
        if weight_decay != 0:
            if decoupled_weight_decay:
                _fx._foreach_mul_(grouped_params, 1 - lr * weight_decay)
            elif maximize:
                _fx._foreach_add_(grouped_grads, grouped_params, alpha=weight_decay)
            else:
                grouped_grads = _fx._foreach_add(grouped_grads, grouped_params, alpha=weight_decay)
        _fx._foreach_lerp_(grouped_exp_avgs, grouped_grads, 1 - beta1)
        _fx._foreach_mul_(grouped_exp_avg_sqs, beta2)
        _fx._foreach_addcmul_(grouped_exp_avg_sqs, grouped_grads, grouped_grads, 1 - beta2)
        del grouped_grads
        if capturable:
            num = _fx._foreach_sub(rho_t_list, 4)
            sub2 = _fx._foreach_sub(rho_t_list, 2)
            _fx._foreach_mul_(num, sub2)
            del sub2
            _fx._foreach_mul_(num, rho_inf)
            rho_inf = (rho_inf - 4) * (rho_inf - 2)
            denom = _fx._foreach_mul(rho_t_list, rho_inf)
            _fx._foreach_div_(num, denom)
            del denom
            _fx._foreach_sqrt_(num)
            rect = [torch.where(rho_t > 5.0, n, 0.0) for n, rho_t in zip(num, rho_t_list, strict=True)]
            del num
            del rho_t_list
            unrect_step_size = [torch.where(rect > 0, 0.0, 1.0) for rect in rect]
            _fx._foreach_mul_(unrect_step_size, lr)
            bias_correction1 = _fx._foreach_pow(beta1, grouped_state_steps)
            _fx._foreach_neg_(bias_correction1)
            _fx._foreach_add_(bias_correction1, 1)
            _fx._foreach_div_(unrect_step_size, bias_correction1)
            _fx._foreach_neg_(unrect_step_size)
            bias_correction2 = _fx._foreach_pow(beta2, grouped_state_steps)
            _fx._foreach_neg_(bias_correction2)
            _fx._foreach_add_(bias_correction2, 1)
            _fx._foreach_sqrt_(bias_correction2)
            _fx._foreach_mul_(bias_correction2, lr)
            _fx._foreach_mul_(bias_correction2, rect)
            del rect
            _fx._foreach_neg_(bias_correction2)
            _fx._foreach_div_(bias_correction2, bias_correction1)
            del bias_correction1
        else:
            rect = [((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5 else 0 for rho_t in rho_t_list]
            unrectified = [0 if rect > 0 else 1.0 for rect in rect]
            bias_correction1 = [1 - beta1 ** _get_value(step) for step in grouped_state_steps]
            unrect_step_size = [lr * rect / bc * -1 for rect, bc in zip(unrectified, bias_correction1, strict=True)]
            bias_correction2 = [(1 - beta2 ** _get_value(step)) ** 0.5 * (lr * rect / bc) * -1 for step, rect, bc in zip(grouped_state_steps, rect, bias_correction1, strict=True)]
        buffer = _fx._foreach_sqrt(grouped_exp_avg_sqs)
        _fx._foreach_add_(buffer, eps)
        _fx._foreach_div_(buffer, bias_correction2)
        _fx._foreach_reciprocal_(buffer)
        _fx._foreach_add_(buffer, unrect_step_size)
        _fx._foreach_addcmul_(grouped_params, grouped_exp_avgs, buffer)

def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False, foreach=None, differentiable=False, capturable=False, has_complex=False, maximize=False, *, beta1, beta2, lr, weight_decay, eps):
    if not all((isinstance(t, torch.Tensor) for t in state_steps)):
        raise RuntimeError('API has changed, `state_steps` argument must contain a list of singleton tensors')
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and False:
        raise RuntimeError('torch.jit.script not supported with foreach optimizers')
    if foreach and (not False):
        func = _multi_tensor_radam
    else:
        func = _single_tensor_radam
    func(params, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay, eps=eps, maximize=maximize, decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable, capturable=capturable, has_complex=has_complex)

