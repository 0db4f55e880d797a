package prelude_test

import (
	"strings"
	"testing"
)

// TestMathFamilyBinding checks the Python surface of the pointwise math,
// reduction and small-product family (pybind/ops_math_more.go,
// ops_reduce_more.go): argument forms, return types, shapes, grad_fn
// names (as PyTorch 2.11 printed them in testdata/questions/q20) and
// errors (first line).
func TestMathFamilyBinding(t *testing.T) {
	const setup = "import torch\nx = torch.randn(4, 6, device='cuda', requires_grad=True)\n" +
		"y = torch.randn(4, 6, device='cuda', requires_grad=True)\np = torch.randn(10, 3, device='cuda', requires_grad=True)\n"
	tests := []struct{ name, code, want string }{
		{"unary", `print([type(f(x).grad_fn).__name__ for f in (torch.log1p, torch.expm1, torch.erf, torch.erfinv, torch.frac, torch.sgn, torch.nan_to_num, torch.arccos, torch.exp2)])
w = x * 1; w.log1p_(); w.sin_(); w.nan_to_num_(); w.sgn_(); print(type(w.grad_fn).__name__, torch.positive(x) is x)`,
			"['Log1PBackward0', 'Expm1Backward0', 'ErfBackward0', 'ErfinvBackward0', 'FracBackward0', 'SgnBackward0', 'NanToNumBackward0', 'AcosBackward0', 'Exp2Backward0']\nSgnBackward0 True"},
		{"binary", `print(type(x.clamp_min(0.1).grad_fn).__name__, type(torch.clamp_max(x, y).grad_fn).__name__, type(x.clone().clamp_min_(0).grad_fn).__name__)
print(type(torch.hypot(x, y).grad_fn).__name__, type(torch.arctan2(x, y).grad_fn).__name__, type(torch.logaddexp2(x, y).grad_fn).__name__)
print(type(torch.xlogy(x, y).grad_fn).__name__, type(torch.xlogy(x, 2.0).grad_fn).__name__, type(torch.xlogy(2.0, y).grad_fn).__name__)`,
			"ClampMinBackward0 ClampMaxBackward1 ClampMinBackward0\nHypotBackward0 Atan2Backward0 Logaddexp2Backward0\nXlogyBackward0 XlogyBackward2 XlogyBackward1"},
		{"clamp tensors", `lo = torch.zeros(6, device='cuda', requires_grad=True)
print(type(torch.clamp(x, lo, lo + 1).grad_fn).__name__, type(x.clamp(max=lo).grad_fn).__name__, type(x.clamp(0, 1).grad_fn).__name__)
x.clamp(lo, lo + 1).sum().backward(); print(tuple(lo.grad.shape), tuple(x.grad.shape))`,
			"ClampBackward0 ClampBackward0 ClampBackward1\n(6,) (4, 6)"},
		{"checks", `print(torch.isfinite(x).dtype, torch.isclose(x, y).shape, type(torch.allclose(x, y)).__name__, torch.signbit(x).dtype)`,
			"torch.bool torch.Size([4, 6]) bool torch.bool"},
		{"reductions", `print(torch.count_nonzero(x).shape, x.count_nonzero(dim=1).shape, torch.count_nonzero(x, (0, 1)).dtype)
r = torch.aminmax(x, dim=1); print(type(r).__name__, r.min.shape, r.max.shape)
s, m = torch.std_mean(x, 1); v, m2 = torch.var_mean(x, dim=(0, 1), keepdim=True, correction=0)
print(s.shape, type(s.grad_fn).__name__, v.shape, type(m2.grad_fn).__name__, x.amax(1).shape, type(x.amin(0).grad_fn).__name__)`,
			"torch.Size([]) torch.Size([4]) torch.int64\naminmax torch.Size([4]) torch.Size([4])\ntorch.Size([4]) StdMeanBackward0 torch.Size([1, 1]) VarMeanBackward0 torch.Size([4]) AminBackward0"},
		{"scans", `c = torch.cummax(x, 1); print(type(c).__name__, c.indices.dtype, type(x.cummin(0).values.grad_fn).__name__)
print(type(torch.logcumsumexp(x, 1).grad_fn).__name__, torch.diff(x).shape, x.diff(n=2, dim=0, prepend=y).shape, type(x.diff().grad_fn).__name__)`,
			"cummax torch.int64 CumminBackward0\nLogcumsumexpBackward0 torch.Size([4, 5]) torch.Size([6, 6]) SubBackward0"},
		{"products", `print(type(x.trace().grad_fn).__name__, type(torch.dist(x, y).grad_fn).__name__, torch.inner(x, y).shape, type(torch.mv(x, y[0]).grad_fn).__name__)
b1 = torch.randn(3, 4, 5, device='cuda'); b2 = torch.randn(3, 5, 6, device='cuda')
print(torch.addmv(y[:, 0], x, y[0], beta=0.5).shape, type(torch.addbmm(x, b1, b2, alpha=2).grad_fn).__name__, type(torch.kron(x, y).grad_fn).__name__)
print(torch.cross(p, p, dim=1).shape, type(torch.linalg.cross(p, p).grad_fn).__name__, type(torch.cdist(x, y).grad_fn).__name__, type(torch.cdist(p, p).grad_fn).__name__)`,
			"TraceBackward0 DistBackward0 torch.Size([4, 4]) MvBackward0\ntorch.Size([4]) AddbmmBackward0 UnsafeViewBackward0\ntorch.Size([10, 3]) LinalgCrossBackward0 CdistBackward0 CdistBackward0"},
		{"special", `import torch.special as S
print(type(torch.special.expm1(x).grad_fn).__name__, type(S.xlogy(x, y).grad_fn).__name__, type(S.gammaln(x).grad_fn).__name__, S.softmax(x, 1).shape)`,
			"Expm1Backward0 XlogyBackward0 LgammaBackward0 torch.Size([4, 6])"},
		{"errors", `for f in (lambda: torch.frac(torch.ones(3, dtype=torch.long, device='cuda')), lambda: x.diff(n=-1),
          lambda: torch.trace(x[0]), lambda: torch.cdist(x, y[:, :5]), lambda: torch.cdist(x, y, compute_mode="x"),
          lambda: torch.linalg.cross(x, y), lambda: torch.isclose(x, y.double())):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])`,
			`NotImplementedError "frac_cuda" not implemented for 'Long'
RuntimeError order must be non-negative but got -1
RuntimeError expected a matrix
RuntimeError X1 and X2 must have the same number of columns. X1: 6 X2: 5
ValueError x is not a valid value for compute_mode
RuntimeError linalg.cross: inputs dimension -1 must have length 3. Got 6 and 6
RuntimeError Float did not match Double`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, setup+tc.code+"\n")
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(out); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
