package prelude_test

import (
	"strings"
	"testing"
)

// TestArgumentChecks checks PyTorch's messages for arguments the
// simulator used to accept or crash on (a zero stride divided by zero):
// narrow's bounds, convolution's groups, stride, dilation and padding,
// bitwise ops on floating tensors, var/std/norm of integer tensors,
// negation and subtraction of bool tensors.
func TestArgumentChecks(t *testing.T) {
	out, _, err := run(t, `
import torch
import torch.nn.functional as F
x = torch.randn(4, 6, device="cuda")
w = torch.randn(4, 6, 3, device="cuda")
for f in (lambda: x.narrow(0, 0, -1), lambda: x.narrow(0, 4, 0).shape, lambda: x.narrow(0, -1, 1).shape,
          lambda: x.narrow(0, 3, 2), lambda: x.narrow(0, 5, 0), lambda: torch.narrow(x, 1, 2, 3).shape,
          lambda: F.conv1d(x[None], w, groups=0), lambda: F.conv1d(x[None], w, stride=0),
          lambda: F.conv1d(x[None], w, dilation=0), lambda: F.conv1d(x[None], w, padding=-1),
          lambda: F.conv3d(torch.randn(1, 3, 4, 4, 4, device="cuda"), torch.randn(2, 3, 3, 3, 3, device="cuda"), stride=0),
          lambda: x & torch.arange(6, device="cuda"), lambda: ~x, lambda: torch.bitwise_or(torch.randn(2), torch.randn(2)),
          lambda: (~torch.arange(3, device="cuda")).dtype,
          lambda: torch.arange(6, device="cuda").var(), lambda: torch.arange(6, device="cuda").norm(),
          lambda: -(x > 0), lambda: (x > 0) - (x > 0), lambda: 1 - (x > 0)):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `RuntimeError narrow(): length must be non-negative.
torch.Size([0, 6])
torch.Size([1, 6])
RuntimeError start (3) + length (2) exceeds dimension size (4).
IndexError Dimension out of range (expected to be in range of [-4, 3], but got 5)
torch.Size([4, 3])
RuntimeError non-positive groups is not supported
RuntimeError non-positive stride is not supported
RuntimeError dilation should be greater than zero
RuntimeError negative padding is not supported
RuntimeError non-positive stride is not supported
NotImplementedError "bitwise_and_cuda" not implemented for 'Float'
TypeError ~ (operator.invert) is only implemented on integer and Boolean-type tensors
NotImplementedError "bitwise_or_cpu" not implemented for 'Float'
torch.int64
RuntimeError std and var only support floating point and complex dtypes
RuntimeError linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long
RuntimeError Negation, the ` + "`-`" + ` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the ` + "`~`" + ` or ` + "`logical_not()`" + ` operator instead.
RuntimeError Subtraction, the ` + "`-`" + ` operator, with two bool tensors is not supported. Use the ` + "`^`" + ` or ` + "`logical_xor()`" + ` operator instead.
RuntimeError Subtraction, the ` + "`-`" + ` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the ` + "`~`" + ` or ` + "`logical_not()`" + ` operator instead.`
	if got := strings.TrimSpace(out); got != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", got, want)
	}
}
