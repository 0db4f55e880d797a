import torch
import torch.nn as nn

# Optimizer state and step temporaries: Adagrad, RMSprop (centered, momentum),
# Adadelta, fused Adam/AdamW/SGD (CUDA step tensors, GradScaler's grad_scale
# and found_inf), foreach=False variants; then the lr schedulers' values.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


def run(tag, make, steps=2):
    model = nn.Sequential(nn.Linear(300, 700), nn.ReLU(), nn.Linear(700, 100)).cuda()
    opt = make(model.parameters())
    for i in range(steps):
        loss = model(torch.randn(64, 300, device="cuda")).square().mean()
        loss.backward()
        del loss
        opt.step()
        opt.zero_grad()
        mem(f"{tag} step {i}")
    st = opt.state[model[0].weight]
    print(tag, sorted(st.keys()), st["step"].device, st["step"].dtype)
    del model, opt, st
    mem(f"{tag} freed")


def run_scaled(tag, make, unscale):
    model = nn.Sequential(nn.Linear(300, 700), nn.ReLU(), nn.Linear(700, 100)).cuda()
    opt = make(model.parameters())
    scaler = torch.amp.GradScaler("cuda")
    for i in range(2):
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(torch.randn(64, 300, device="cuda")).float().square().mean()
        scaler.scale(loss).backward()
        del loss
        if unscale:
            scaler.unscale_(opt)
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        mem(f"{tag} step {i}")
    del model, opt, scaler
    mem(f"{tag} freed")


mem("start")
run("adagrad", lambda p: torch.optim.Adagrad(p, lr=0.01))
run("adagrad loop", lambda p: torch.optim.Adagrad(p, lr=0.01, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1, foreach=False))
run("adagrad wd", lambda p: torch.optim.Adagrad(p, lr=0.01, weight_decay=0.1, maximize=True))
run("rmsprop", lambda p: torch.optim.RMSprop(p, lr=0.01))
run("rmsprop centered", lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.9, weight_decay=0.01))
run("rmsprop loop", lambda p: torch.optim.RMSprop(p, lr=0.01, centered=True, momentum=0.9, weight_decay=0.01, foreach=False))
run("rmsprop momentum", lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, maximize=True))
run("adadelta", lambda p: torch.optim.Adadelta(p, weight_decay=0.1, maximize=True))
run("adadelta loop", lambda p: torch.optim.Adadelta(p, foreach=False))
run("adam fused", lambda p: torch.optim.Adam(p, lr=1e-3, fused=True))
run("adam fused amsgrad", lambda p: torch.optim.Adam(p, lr=1e-3, weight_decay=0.01, amsgrad=True, fused=True))
run("adamw fused", lambda p: torch.optim.AdamW(p, lr=1e-3, fused=True))
run("adam loop", lambda p: torch.optim.Adam(p, lr=1e-3, foreach=False))
run_scaled("adam fused scaler", lambda p: torch.optim.Adam(p, lr=1e-3, fused=True), False)
run_scaled("adamw fused unscale", lambda p: torch.optim.AdamW(p, lr=1e-3, fused=True), True)
run_scaled("sgd fused scaler", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, fused=True), False)


def run_sgd(tag, make):
    model = nn.Sequential(nn.Linear(300, 700), nn.ReLU(), nn.Linear(700, 100)).cuda()
    opt = make(model.parameters())
    for i in range(2):
        model(torch.randn(64, 300, device="cuda")).square().mean().backward()
        opt.step()
        opt.zero_grad()
        mem(f"{tag} step {i}")
    print(tag, sorted(opt.state[model[0].weight].keys()))
    del model, opt
    mem(f"{tag} freed")


run_sgd("sgd fused", lambda p: torch.optim.SGD(p, lr=0.1, fused=True))
run_sgd("sgd fused momentum", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01, fused=True))
run_sgd("sgd loop momentum", lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, foreach=False))

# lr schedulers: pure Python, no device memory.
sched_model = nn.Linear(4, 4).cuda()


def lrs(tag, make_opt, make_sched, n=8, metrics=None):
    opt = make_opt(sched_model.parameters())
    sched = make_sched(opt)
    out = []
    for i in range(n):
        opt.step()
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[i])
        out.append(opt.param_groups[0]["lr"])
    print(tag, out, sched.get_last_lr() if metrics is None else sched.get_last_lr())


sgd = lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9)
lrs("step", sgd, lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
lrs("multistep", sgd, lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5], gamma=0.1))
lrs("exponential", sgd, lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9))
lrs("lambda", sgd, lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e))
lrs("linear", sgd, lambda o: torch.optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4))
lrs("plateau", sgd, lambda o: torch.optim.lr_scheduler.ReduceLROnPlateau(o, patience=1, factor=0.5),
    metrics=[1.0, 0.9, 0.95, 0.97, 0.99, 0.5, 0.6, 0.7])
lrs("sequential", sgd, lambda o: torch.optim.lr_scheduler.SequentialLR(
    o, [torch.optim.lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=2),
        torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.8)], milestones=[3]))


def cos_lrs(tag, make_opt, make_sched, n=8):
    opt = make_opt(sched_model.parameters())
    sched = make_sched(opt)
    out = []
    for i in range(n):
        opt.step()
        sched.step()
        out.append(f"{opt.param_groups[0]['lr']:.10f}")
    print(tag, out)
    return opt


cos_lrs("cosine", sgd, lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5, eta_min=0.001))
o = cos_lrs("onecycle", sgd, lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=10))
print(f"{o.param_groups[0]['momentum']:.10f}")
o = cos_lrs("onecycle adam", lambda p: torch.optim.Adam(p, lr=0.1), lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=9, anneal_strategy="linear", pct_start=0.4))
print(f"{o.param_groups[0]['betas'][0]:.10f}")
mem("schedulers")
