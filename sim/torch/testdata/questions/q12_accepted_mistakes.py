# Question 12: what PyTorch 2.11 says for the mistakes the simulator still
# accepted at the end of session 10 (sim/run_hostile_test.go acceptedSnippets),
# and a few more shape mistakes.
import torch

x = torch.randn(4, 5, device="cuda")
c = torch.randn(4, 5)
e = torch.empty(0, device="cuda")


def autocast_int32(f):
    with torch.autocast('cuda', dtype=torch.int32):
        return f()


cases = [
    ("torch.full((2,), None, device='cuda')", lambda: torch.full((2,), None, device='cuda')),
    ("torch.randint(5, (2,), 3)", lambda: torch.randint(5, (2,), 3)),
    ("torch.randint(5, 0, (2,), device='cuda')", lambda: torch.randint(5, 0, (2,), device='cuda')),
    ("torch.device(None)", lambda: torch.device(None)),
    ("x.split(None)", lambda: x.split(None)),
    ("torch.matmul(e, e)", lambda: torch.matmul(e, e)),
    ("cross_entropy(x, zeros(3))", lambda: torch.nn.functional.cross_entropy(x, torch.zeros(3, dtype=torch.long, device='cuda'))),
    ("torch.where(x, x, x)", lambda: torch.where(x, x, x)),
    ("torch.nn.Conv2d(3, 8, 0)", lambda: torch.nn.Conv2d(3, 8, 0)),
    ("torch.nn.Conv2d(3, 8, 0).cuda()(ones)", lambda: torch.nn.Conv2d(3, 8, 0).cuda()(torch.ones(1, 3, 5, 5, device='cuda'))),
    ("torch.cuda.memory_allocated('nope')", lambda: torch.cuda.memory_allocated('nope')),
    ("torch.no_grad(1)", lambda: torch.no_grad(1)),
    ("torch.autocast('cuda', dtype=torch.int32) entered", lambda: autocast_int32(lambda: None)),
    ("x[[0, 'a']]", lambda: x[[0, 'a']]),
    ("x[[[0], [1, 2]]]", lambda: x[[[0], [1, 2]]]),
    ("x[[True, False]]", lambda: x[[True, False]]),
    ("x[torch.tensor([True, False], device='cuda')]", lambda: x[torch.tensor([True, False], device='cuda')]),
    ("x[c > 0]", lambda: x[c > 0]),
    ("x[torch.tensor([0.5], device='cuda')]", lambda: x[torch.tensor([0.5], device='cuda')]),
    ("x.sum(dim=(0, 0))", lambda: x.sum(dim=(0, 0))),
    ("x.view(3, -1)", lambda: x.view(3, -1)),
    ("x.view(-1, -1)", lambda: x.view(-1, -1)),
    ("x.reshape(7)", lambda: x.reshape(7)),
    ("x.permute(0, 0)", lambda: x.permute(0, 0)),
    ("x.permute(0)", lambda: x.permute(0)),
    ("x.expand(3, 5)", lambda: x.expand(3, 5)),
    ("x.unsqueeze(3)", lambda: x.unsqueeze(3)),
    ("x.squeeze(2)", lambda: x.squeeze(2)),
    ("x @ c", lambda: x @ c),
    ("x @ x", lambda: x @ x),
    ("x + torch.ones(3, device='cuda')", lambda: x + torch.ones(3, device='cuda')),
    ("torch.cat([x, torch.ones(4, device='cuda')])", lambda: torch.cat([x, torch.ones(4, device='cuda')])),
    ("torch.cat([])", lambda: torch.cat([])),
    ("torch.stack([x, torch.ones(4, 4, device='cuda')])", lambda: torch.stack([x, torch.ones(4, 4, device='cuda')])),
    ("x.to('cuda:5')", lambda: x.to('cuda:5')),
    ("x.to('tpu')", lambda: x.to('tpu')),
    ("torch.zeros(-1)", lambda: torch.zeros(-1)),
    ("torch.ones(2, 3).cuda(device='x')", lambda: torch.ones(2, 3).cuda(device='x')),
    ("torch.nn.Linear(5, 3).cuda()(torch.ones(2, 4, device='cuda'))", lambda: torch.nn.Linear(5, 3).cuda()(torch.ones(2, 4, device='cuda'))),
    ("torch.nn.Linear(5, 3)(torch.ones(2, 5, device='cuda'))", lambda: torch.nn.Linear(5, 3)(torch.ones(2, 5, device='cuda'))),
    ("torch.softmax(x)", lambda: torch.softmax(x)),
    ("x.softmax(dim=2)", lambda: x.softmax(dim=2)),
    ("x.backward()", lambda: x.backward()),
    ("x.sum().backward()", lambda: x.sum().backward()),
    ("torch.optim.SGD([], lr=0.1)", lambda: torch.optim.SGD([], lr=0.1)),
    ("torch.optim.Adam([x], lr=-1)", lambda: torch.optim.Adam([x], lr=-1)),
    ("x.softmax()", lambda: x.softmax()),
    ("x.log_softmax()", lambda: x.log_softmax()),
    ("torch.log_softmax(x)", lambda: torch.log_softmax(x)),
    ("torch.empty(-1)", lambda: torch.empty(-1)),
    ("torch.ones(-1)", lambda: torch.ones(-1)),
    ("torch.rand(-1)", lambda: torch.rand(-1)),
    ("torch.randn(2, -3)", lambda: torch.randn(2, -3)),
    ("torch.zeros(2, -3, device='cuda')", lambda: torch.zeros(2, -3, device='cuda')),
    ("torch.full((-1,), 1.0)", lambda: torch.full((-1,), 1.0)),
    ("torch.ones(2).cuda('cpu')", lambda: torch.ones(2).cuda('cpu')),
    ("torch.ones(2, device='cuda:1')", lambda: torch.ones(2, device='cuda:1')),
    ("torch.cuda.memory_allocated('cpu')", lambda: torch.cuda.memory_allocated('cpu')),
    ("torch.cuda.memory_allocated('cuda:1')", lambda: torch.cuda.memory_allocated('cuda:1')),
    ("F.softmax(randn(2,3,4)) implicit dim", lambda: torch.nn.functional.softmax(torch.arange(24., device='cuda').reshape(2, 3, 4) / 10).sum(0).tolist()),
    ("autocast int32 Linear", lambda: autocast_int32(lambda: torch.nn.Linear(5, 3).cuda()(torch.ones(2, 5, device='cuda')).dtype)),
    # Last: an out-of-range index fails in a device-side assert, which poisons
    # the CUDA context for every later case.
    ("x[[0, 9]]", lambda: x[[0, 9]]),
]
for name, f in cases:
    try:
        r = f()
        print(name, "-> no error:", type(r).__name__)
    except Exception as err:
        print(name, "->", type(err).__name__ + ":", str(err).replace("\n", "\\n"))
print(torch.cuda.get_device_name())
