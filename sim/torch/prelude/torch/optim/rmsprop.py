# RMSprop (torch/optim/rmsprop.py of PyTorch 2.11): lazy state (step as a
# CPU float32 scalar, square_avg, momentum_buffer with momentum, grad_avg
# when centered, via zeros_like), and _multi_tensor_rmsprop op by op (the
# default on CUDA).
import torch
from torch.optim import _foreach_ops as _fo
from torch.optim.optimizer import (
    Optimizer, _default_to_fused_or_foreach, _device_dtype_check_for_fused,
    _get_capturable_supported_devices, _get_scalar_dtype, _get_value, _to_scalar,
    _use_grad_for_differentiable, _view_as_real,
)

__all__ = ['RMSprop', 'rmsprop']


class RMSprop(Optimizer):

    def __init__(self, params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False, capturable=False, foreach=None, maximize=False, differentiable=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError('Tensor lr must be 1-element')
        if not 0.0 <= lr:
            raise ValueError(f'Invalid learning rate: {lr}')
        if not 0.0 <= eps:
            raise ValueError(f'Invalid epsilon value: {eps}')
        if not 0.0 <= momentum:
            raise ValueError(f'Invalid momentum value: {momentum}')
        if not 0.0 <= weight_decay:
            raise ValueError(f'Invalid weight_decay value: {weight_decay}')
        if not 0.0 <= alpha:
            raise ValueError(f'Invalid alpha value: {alpha}')
        defaults = {'lr': lr, 'momentum': momentum, 'alpha': alpha, 'eps': eps, 'centered': centered, 'weight_decay': weight_decay, 'capturable': capturable, 'foreach': foreach, 'maximize': maximize, 'differentiable': differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('momentum', 0)
            group.setdefault('centered', False)
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and (not torch.is_tensor(p_state['step'])):
                    step_val = float(p_state['step'])
                    p_state['step'] = torch.tensor(step_val, dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.tensor(step_val, dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs, state_steps):
        has_complex = False
        for p in group['params']:
            if p.grad is None:
                continue
            has_complex |= p.is_complex()
            params_with_grad.append(p)
            if p.grad.is_sparse:
                raise RuntimeError('RMSprop does not support sparse gradients')
            grads.append(p.grad)
            state = self.state[p]
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype(), device=p.device) if group['capturable'] else torch.zeros((), dtype=_get_scalar_dtype())
                state['square_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group['momentum'] > 0:
                    state['momentum_buffer'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group['centered']:
                    state['grad_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
            square_avgs.append(state['square_avg'])
            state_steps.append(state['step'])
            if group['momentum'] > 0:
                momentum_buffer_list.append(state['momentum_buffer'])
            if group['centered']:
                grad_avgs.append(state['grad_avg'])
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
            grad_avgs = []
            momentum_buffer_list = []
            state_steps = []
            has_complex = self._init_group(group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs, state_steps)
            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, lr=group['lr'], alpha=group['alpha'], eps=group['eps'], weight_decay=group['weight_decay'], momentum=group['momentum'], centered=group['centered'], foreach=group['foreach'], maximize=group['maximize'], differentiable=group['differentiable'], capturable=group['capturable'], has_complex=has_complex)
        return loss

def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable, capturable, has_complex):
    if True:
        lr = _to_scalar(lr)
    for i, param in enumerate(params):
        step = state_steps[i]
        if capturable:
            capturable_supported_devices = _get_capturable_supported_devices()
            if not (param.device.type == step.device.type and param.device.type in capturable_supported_devices):
                raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        is_complex_param = param.is_complex()
        if is_complex_param:
            param = torch.view_as_real(param)
            grad = torch.view_as_real(grad)
            square_avg = torch.view_as_real(square_avg)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            if is_complex_param:
                grad_avg = torch.view_as_real(grad_avg)
            grad_avg.lerp_(grad, 1 - alpha)
            avg = _fo._addcmul(square_avg, grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        if differentiable:
            avg = avg.add(eps)
        else:
            avg = avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            if is_complex_param:
                buf = torch.view_as_real(buf)
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)

def _multi_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *, lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable, capturable, has_complex):
    if len(params) == 0:
        return
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if capturable:
        capturable_supported_devices = _get_capturable_supported_devices()
        if not all((p.device.type == step.device.type and p.device.type in capturable_supported_devices for p, step in zip(params, state_steps, strict=True))):
            raise AssertionError(f'If capturable=True, params and state_steps must be on supported devices: {capturable_supported_devices}.')
    lr = _to_scalar(lr)
    grouped_tensors = Optimizer._group_tensors_by_device_and_dtype([params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps])
    for (grouped_params_, grouped_grads_, grouped_square_avgs_, grouped_grad_avgs_, grouped_momentum_buffer_list_, grouped_state_steps_), _ in grouped_tensors.values():
        grouped_params = grouped_params_
        grouped_grads = grouped_grads_
        grouped_square_avgs = grouped_square_avgs_
        grouped_state_steps = grouped_state_steps_
        if has_complex:
            state_and_grads = [grouped_grads, grouped_square_avgs]
            if momentum > 0:
                grouped_momentum_buffer_list = grouped_momentum_buffer_list_
                state_and_grads.append(grouped_momentum_buffer_list)
            if centered:
                grouped_grad_avgs = grouped_grad_avgs_
                state_and_grads.append(grouped_grad_avgs)
            _view_as_real(grouped_params, *state_and_grads)
        if maximize:
            grouped_grads = _fo._foreach_neg(grouped_grads)
        if grouped_state_steps[0].device.type == "cpu":
            _fo._foreach_add_(grouped_state_steps, torch.tensor(1.0, device='cpu'), alpha=1.0)
        else:
            _fo._foreach_add_(grouped_state_steps, 1)
        if weight_decay != 0:
            if maximize:
                _fo._foreach_add_(grouped_grads, grouped_params, alpha=weight_decay)
            else:
                grouped_grads = _fo._foreach_add(grouped_grads, grouped_params, alpha=weight_decay)
        _fo._foreach_mul_(grouped_square_avgs, alpha)
        _fo._foreach_addcmul_(grouped_square_avgs, grouped_grads, grouped_grads, value=1 - alpha)
        if centered:
            grouped_grad_avgs = grouped_grad_avgs_
            _fo._foreach_lerp_(grouped_grad_avgs, grouped_grads, 1 - alpha)
            avg = _fo._foreach_addcmul(grouped_square_avgs, grouped_grad_avgs, grouped_grad_avgs, value=-1)
            _fo._foreach_sqrt_(avg)
            _fo._foreach_add_(avg, eps)
        else:
            avg = _fo._foreach_sqrt(grouped_square_avgs)
            _fo._foreach_add_(avg, eps)
        if momentum > 0:
            grouped_momentum_buffer_list = grouped_momentum_buffer_list_
            _fo._foreach_mul_(grouped_momentum_buffer_list, momentum)
            _fo._foreach_addcdiv_(grouped_momentum_buffer_list, grouped_grads, avg)
            if capturable and isinstance(lr, torch.Tensor):
                momentum_lr = _fo._foreach_mul(grouped_momentum_buffer_list, -lr)
                _fo._foreach_add_(grouped_params, momentum_lr)
            else:
                _fo._foreach_add_(grouped_params, grouped_momentum_buffer_list, alpha=-lr)
        elif capturable and isinstance(lr, torch.Tensor):
            _fo._foreach_div_(avg, -lr)
            _fo._foreach_addcdiv_(grouped_params, grouped_grads, avg)
        else:
            _fo._foreach_addcdiv_(grouped_params, grouped_grads, avg, value=-lr)

def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, foreach=None, maximize=False, differentiable=False, capturable=False, has_complex=False, *, lr, alpha, eps, weight_decay, momentum, centered):
    if (not all((isinstance(t, torch.Tensor) for t in state_steps))):
        raise RuntimeError('API has changed, `state_steps` argument must contain a list of singleton tensors')
    if foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    if foreach and False:
        raise RuntimeError('torch.jit.script not supported with foreach optimizers')
    if foreach and (True):
        func = _multi_tensor_rmsprop
    else:
        func = _single_tensor_rmsprop
    func(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum, centered=centered, maximize=maximize, capturable=capturable, differentiable=differentiable, has_complex=has_complex)

