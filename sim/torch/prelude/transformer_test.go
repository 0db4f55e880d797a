package prelude_test

import (
	"strings"
	"testing"
)

// TestTransformerModules checks nn.Transformer* shapes, grad_fn names,
// clone memory (each cloned layer owns its parameters), the fast-path and
// nested-tensor decisions (NotImplementedError where PyTorch takes the
// fast path; torch.backends.mha.set_fastpath_enabled(False) turns it off),
// activation errors, causal-mask detection and the not-simulated APIs.
func TestTransformerModules(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn as nn
from torch.nn.modules.transformer import _detect_is_causal_mask
layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0).cuda()
m0 = torch.cuda.memory_allocated()
enc = nn.TransformerEncoder(layer, 3)
print(enc.use_nested_tensor, len(list(enc.parameters())), len(list(layer.parameters())))
print(torch.cuda.memory_allocated() - m0, sum((p.numel() * 4 + 511) // 512 * 512 for p in layer.parameters()) * 3)
print(enc.layers[0].self_attn.in_proj_weight is not enc.layers[1].self_attn.in_proj_weight)
x = torch.randn(5, 3, 16, device="cuda")
mask = nn.Transformer.generate_square_subsequent_mask(5, device="cuda")
print(mask.shape, mask.dtype, _detect_is_causal_mask(mask, None, 5), _detect_is_causal_mask(mask[:4], None, 5),
      _detect_is_causal_mask(None, True))
y = enc(x, mask=mask)
print(y.shape, y.grad_fn.name())
bf = nn.TransformerEncoderLayer(16, 2, 32, batch_first=True, activation="gelu").cuda()
print(bf.activation_relu_or_gelu, nn.TransformerEncoder(bf, 2).use_nested_tensor,
      nn.TransformerEncoder(bf, 2, enable_nested_tensor=False).use_nested_tensor)
bf.eval()
xb = torch.randn(3, 5, 16, device="cuda")
print(bf(xb).grad_fn.name())
with torch.no_grad():
    try:
        bf(xb)
    except NotImplementedError as e:
        print("NotImplementedError", str(e)[:60])
    torch.backends.mha.set_fastpath_enabled(False)
    print(bf(xb).shape, torch.backends.mha.get_fastpath_enabled())
    torch.backends.mha.set_fastpath_enabled(True)
    print(bf(torch.randn(5, 16, device="cuda")).shape)
pad = torch.zeros(3, 5, dtype=torch.bool, device="cuda")
encb = nn.TransformerEncoder(bf, 2).eval()
print(encb(xb, src_key_padding_mask=pad).shape)
try:
    with torch.no_grad():
        encb(xb, src_key_padding_mask=pad)
except NotImplementedError as e:
    print("NotImplementedError", str(e)[:60])
t = nn.Transformer(16, 2, 1, 1, 32, batch_first=True, norm_first=True).cuda()
o = t(xb, torch.randn(3, 4, 16, device="cuda"), tgt_mask=nn.Transformer.generate_square_subsequent_mask(4, device="cuda"),
      src_key_padding_mask=pad, memory_key_padding_mask=pad, tgt_key_padding_mask=torch.zeros(3, 4, dtype=torch.bool, device="cuda"))
print(o.shape, o.grad_fn.name(), t.encoder.use_nested_tensor)
d = nn.TransformerDecoderLayer(16, 2, 32, activation=torch.tanh).cuda()
print(d(torch.randn(4, 3, 16, device="cuda"), x, tgt_is_causal=True,
        tgt_mask=nn.Transformer.generate_square_subsequent_mask(4, device="cuda")).grad_fn.name())
for f in (lambda: nn.TransformerEncoderLayer(16, 2, activation="tanh"),
          lambda: t(xb, torch.randn(2, 4, 16, device="cuda")),
          lambda: t(xb[..., :8], xb),
          lambda: torch.compile(t),
          lambda: torch.cuda.Stream(),
          lambda: torch.cuda.Event(enable_timing=True),
          lambda: torch.cuda.stream(torch.cuda)):
    try:
        f()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, str(e)[:70])
with torch.cuda.stream(None):
    print(torch.compile(t, disable=True) is t)
import torch.nn.functional as F
print(F._canonical_mask(pad, "m", None, "", torch.float16).dtype, F._none_or_dtype(None))
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `False 36 12
36864 36864
True
torch.Size([5, 5]) torch.float32 True False True
torch.Size([5, 3, 16]) NativeLayerNormBackward0
2 True False
NativeLayerNormBackward0
NotImplementedError TransformerEncoderLayer's fast path (torch._transformer_enco
torch.Size([3, 5, 16]) False
torch.Size([5, 16])
torch.Size([3, 5, 16])
NotImplementedError TransformerEncoder's nested-tensor fast path (torch._nested_
torch.Size([3, 4, 16]) NativeLayerNormBackward0 False
NativeLayerNormBackward0
RuntimeError activation should be relu/gelu, not tanh
RuntimeError the batch number of src and tgt must be equal
RuntimeError the feature number of src and tgt must be equal to d_model
NotImplementedError torch.compile is not simulated: a compiled graph's memory is Inductor'
NotImplementedError torch.cuda.Stream is not simulated: the playground runs every op on th
NotImplementedError torch.cuda.Event is not simulated: the playground runs every op on the
NotImplementedError torch.cuda.stream is not simulated: the playground runs every op on th
True
torch.float16 None`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}

// TestMoreLossModules checks the loss modules and functions added with the
// transformer family: grad_fn names, shapes, legacy reductions, errors.
func TestMoreLossModules(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.randn(8, 5, device="cuda", requires_grad=True)
y = torch.randn(8, 5, device="cuda")
print(nn.SmoothL1Loss(beta=0.5)(x, y).grad_fn.name(), nn.HuberLoss(reduction="none")(x, y).shape)
print(nn.SmoothL1Loss(beta=0.0)(x, y).grad_fn.name(), F.smooth_l1_loss(x, y[0]).shape)
print(nn.KLDivLoss(reduction="batchmean")(x, y).grad_fn.name(), nn.KLDivLoss(size_average=False)(x, y).grad_fn.name())
print(F.kl_div(x, y, log_target=True, reduction="none").grad_fn.name())
t = torch.randint(0, 5, (8,), device="cuda")
print(nn.CrossEntropyLoss(label_smoothing=0.1)(x, t).grad_fn.name(), F.cross_entropy(x, t, label_smoothing=0.1, reduction="none").shape)
print(F.cross_entropy(x, y.softmax(1)).grad_fn.name(), F.cross_entropy(x, y.softmax(1), reduction="sum").grad_fn.name())
(F.smooth_l1_loss(x, y) + F.huber_loss(x, y) + F.kl_div(x, y) + F.cross_entropy(x, t, label_smoothing=0.2)).backward()
print(x.grad.shape)
for f in (lambda: F.huber_loss(x, y, delta=0.0), lambda: F.kl_div(x, y, reduction="avg"),
          lambda: F.cross_entropy(x, t, label_smoothing=2.0), lambda: F.cross_entropy(x, t.view(8, 1).expand(8, 5))):
    try:
        f()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `SmoothL1LossBackward0 torch.Size([8, 5])
MeanBackward0 torch.Size([])
DivBackward0 SumBackward0
MulBackward0
AddBackward0 torch.Size([8])
DivBackward1 NegBackward0
torch.Size([8, 5])
RuntimeError huber_loss does not support non-positive values for delta.
ValueError avg is not a valid value for reduction
RuntimeError label_smoothing must be between 0.0 and 1.0. Got: 2
RuntimeError Expected floating point type for target with class probabilities, got Long`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
