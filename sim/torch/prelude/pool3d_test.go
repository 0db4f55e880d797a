package prelude_test

import (
	"strings"
	"testing"
)

// TestPool3dShapesAndErrors checks the 3-d layers' output shapes, the
// index tuple of return_indices, grad_fn names, adaptive output sizes with
// None, and PyTorch's errors for bad inputs and windows.
func TestPool3dShapesAndErrors(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.randn(2, 3, 8, 9, 10, device="cuda", requires_grad=True)
print(F.max_pool3d(x, 2).shape, F.max_pool3d(x, 3, 2, 1, ceil_mode=True).shape)
y, i = F.max_pool3d(x, 2, return_indices=True)
print(y.grad_fn.name(), i.dtype, i.shape)
print(F.avg_pool3d(x, (2, 3, 2), count_include_pad=False).grad_fn.name(), F.avg_pool3d(x, 2, divisor_override=3).shape)
print(F.adaptive_avg_pool3d(x, (2, None, 5)).shape, F.adaptive_avg_pool3d(x, 1).grad_fn.name())
print(F.adaptive_max_pool3d(x, 2).grad_fn.name(), F.adaptive_max_pool3d(x, (1, 2, 3), return_indices=True)[1].dtype)
print(nn.MaxPool3d(2)(x[0]).shape, nn.AvgPool3d(2)(x).shape, nn.AdaptiveAvgPool3d((1, 2, 2))(x).shape)
print(nn.Conv3d(3, 4, 3, padding=1)(torch.randn(1, 3, 4, 4, 4)).shape, nn.BatchNorm3d(3).cuda()(x).shape)
for f in (lambda: F.max_pool3d(torch.randn(3, 4, 4, device="cuda"), 2),
          lambda: F.max_pool3d(x, 16),
          lambda: F.max_pool3d(x, 2, padding=2),
          lambda: F.avg_pool3d(x, 2, divisor_override=0),
          lambda: nn.BatchNorm3d(3)(torch.randn(2, 3, 4, 4))):
    try:
        f()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `torch.Size([2, 3, 4, 4, 5]) torch.Size([2, 3, 5, 5, 6])
MaxPool3DWithIndicesBackward0 torch.int64 torch.Size([2, 3, 4, 4, 5])
AvgPool3DBackward0 torch.Size([2, 3, 4, 4, 5])
torch.Size([2, 3, 2, 9, 5]) MeanBackward1
AdaptiveMaxPool3DBackward0 torch.int64
torch.Size([3, 4, 4, 5]) torch.Size([2, 3, 4, 4, 5]) torch.Size([2, 3, 1, 2, 2])
torch.Size([1, 4, 4, 4, 4]) torch.Size([2, 3, 8, 9, 10])
RuntimeError max_pool3d_with_indices_out_cuda_template(): Expected 4D or 5D tensor for input, but got: [3, 4, 4]
RuntimeError Given input size: (3x8x9x10). Calculated output size: (3x0x0x0). Output size is too small
RuntimeError pad should be smaller than or equal to half of effective kernel size, but got padT: 2 padW: 2 padH: 2 effectiveKT: 2 effectiveKW: 2 effectiveKH: 2
RuntimeError divisor must be not zero
ValueError expected 5D input (got 4D input)`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}

// TestPoolWindowErrors checks PyTorch's messages for impossible 1-d and
// 2-d pooling windows (pool2d_shape_check, check_max_pool1d): they used to
// give empty outputs or, for a zero kernel, an internal error.
func TestPoolWindowErrors(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn.functional as F
x = torch.randn(2, 3, 4, 4, device="cuda")
for f in (lambda: F.max_pool2d(x, 8), lambda: F.max_pool2d(x, 2, padding=2), lambda: F.avg_pool2d(x, 0),
          lambda: F.avg_pool2d(x, 3, stride=1, padding=2),
          lambda: F.max_pool1d(torch.randn(2, 3, 4, device="cuda"), 8),
          lambda: F.max_pool1d(torch.randn(2, 3, 4, device="cuda"), 2, padding=2),
          lambda: F.avg_pool3d(torch.randn(2, 3, 4, 4, 4, device="cuda"), 5, padding=2)):
    try:
        f()
    except RuntimeError as e:
        print(e)
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `Given input size: (3x4x4). Calculated output size: (3x0x0). Output size is too small
pad should be smaller than or equal to half of effective kernel size, but got padW = 2, padH = 2, effectiveKW = 2, effectiveKH = 2
kernel size should be greater than zero, but got kH: 0 kW: 0
pad should be smaller than or equal to half of effective kernel size, but got padW = 2, padH = 2, effectiveKW = 3, effectiveKH = 3
max_pool1d() Invalid computed output size: 0
max_pool1d() padding should be at most half of kernel size, but got padding=2 and kernel_size=2
input image (T: 4 H: 4 W: 4) smaller than kernel size (kT: 5 kH: 5 kW: 5)`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
