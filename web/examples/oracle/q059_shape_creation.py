import torch
import torch.nn as nn
import torch.nn.functional as F

# Shape and creation ops as models use them: ViT patches with unfold, a
# coordinate grid with meshgrid, pairwise features with cartesian_prod and
# tril_indices, a block-diagonal mixing matrix, tensor_split into heads,
# column_stack/dstack of features, sum_to_size of a broadcast gradient,
# type_as, empty_strided, and the squeeze family's grad_fns.
def mem(tag):
    print(f"{tag}: {torch.cuda.memory_allocated()} {torch.cuda.memory_reserved()} peak={torch.cuda.max_memory_allocated()}")
    torch.cuda.reset_peak_memory_stats()


torch.manual_seed(0)
img = torch.randn(8, 3, 64, 64, device="cuda", requires_grad=True)
embed = nn.Linear(3 * 8 * 8, 192).cuda()
mem("vit")
patches = img.unfold(2, 8, 8).unfold(3, 8, 8)
print(type(patches.grad_fn).__name__, tuple(patches.shape), patches.stride())
tokens = embed(patches.permute(0, 2, 3, 1, 4, 5).reshape(8, 64, -1))
ys, xs = torch.meshgrid(torch.arange(8, device="cuda"), torch.arange(8, device="cuda"), indexing="ij")
grid = torch.stack([ys, xs], dim=-1).reshape(64, 2).type_as(tokens)
pos = grid.sum_to_size(1, 2)
tokens = tokens + pos.sum() * 0.0
q, k, v = torch.tensor_split(tokens, 3, dim=-1)
print(type(q.grad_fn).__name__, tuple(q.shape), tuple(v.shape), grid.dtype)
att = (q @ k.transpose(-2, -1)).softmax(-1) @ v
mem("patch attention")
att.sum().backward()
mem("vit backward")
del patches, tokens, ys, xs, grid, pos, q, k, v, att
img.grad = None
mem("vit freed")

# Pairwise interactions (DLRM-style) with tril_indices and cartesian_prod.
feats = torch.randn(256, 27, 64, device="cuda", requires_grad=True)
inter = feats @ feats.transpose(1, 2)
li, lj = torch.tril_indices(27, 27, offset=-1, device="cuda")
flat = inter[:, li, lj]
print(tuple(flat.shape), li.dtype, type(flat.grad_fn).__name__)
a = torch.randn(100, device="cuda", requires_grad=True)
b = torch.randn(50, device="cuda", requires_grad=True)
pairs = torch.cartesian_prod(a, b)
print(type(pairs.grad_fn).__name__, tuple(pairs.shape))
both = torch.column_stack([flat.mean(0), torch.ones(351, device="cuda")])
depth = torch.dstack([both, both])
mem("pairs")
(flat.sum() + pairs.prod(1).sum() + depth.sum()).backward()
mem("pairs backward")
del inter, li, lj, flat, pairs, both, depth
feats.grad = None
a.grad = None
b.grad = None
mem("pairs freed")

# A block-diagonal mixing matrix built from two learned blocks.
w1 = torch.randn(128, 128, device="cuda", requires_grad=True)
w2 = torch.randn(64, 32, device="cuda", requires_grad=True)
W = torch.block_diag(w1, w2)
print(type(W.grad_fn).__name__, tuple(W.shape))
h = torch.randn(512, 192, device="cuda") @ W
h.sum().backward()
mem("block_diag")
buf = torch.empty_strided((512, 256), (1, 512), device="cuda")
print(buf.stride(), buf.is_contiguous(), buf.layout)
z = torch.randn(16, 1, 32, 1, device="cuda", requires_grad=True)
s0, s1, s2 = z.squeeze(), z.squeeze(1), z.squeeze((1, 3))
u = s1.unsqueeze(0)
print(type(s0.grad_fn).__name__, type(s1.grad_fn).__name__, type(s2.grad_fn).__name__, type(u.grad_fn).__name__)
(s0.sum() + s1.sum() + s2.sum() + u.sum()).backward()
mem("squeeze")
print(torch.result_type(w1, 2), torch.promote_types(torch.float16, torch.int64), torch.can_cast(torch.float32, torch.int32))
del W, h, buf, z, s0, s1, s2, u
mem("end")
