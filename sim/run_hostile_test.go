package sim

import (
	"strings"
	"testing"
)

// hostileSnippets are plausible mistakes a playground user makes: wrong
// argument types and counts for the most used torch functions and tensor
// methods, None for tensors, bad sizes, empty tensors, mixed devices and
// dtypes, odd index keys. Every one must end in a Python exception. They
// run after "import torch" with x (4x5 float32 on cuda), c (the same on the
// CPU), e (empty cuda tensor) and m (an nn.Linear(5, 3) on cuda) defined.
var hostileSnippets = []string{
	// creation: wrong types, negative and huge sizes
	"torch.randn('a')",
	"torch.randn(None)",
	"torch.randn(-1, device='cuda')",
	"torch.randn(2, -3, device='cuda')",
	"torch.randn(2.5, device='cuda')",
	"torch.randn(1 << 62, 1 << 62, device='cuda')",
	"torch.empty(-5, device='cuda')",
	"torch.empty(1 << 62, 1 << 62, device='cuda')",
	"torch.zeros(1 << 40, 1 << 40, 1 << 40, device='cuda')",
	"x[0].expand(1 << 40, 1 << 40, 5).contiguous()",
	"e.view(1 << 62, 1 << 62)",
	"(x[0].expand(1 << 40, 1 << 40, 5) + 1).sum()",
	"x.item()",
	"e.item()",
	"x.item(1)",
	"torch.empty((2, None), device='cuda')",
	"torch.empty(2, device='nope')",
	"torch.empty(2, dtype='float32')",
	"torch.zeros([1, [2]], device='cuda')",
	"torch.ones(2, 3, device=5.5)",
	"torch.arange(0, 10, 0, device='cuda')",
	"torch.arange('a')",
	"torch.arange(10, 0, 1, device='cuda')[5]",
	"torch.randint(5, None)",
	"torch.tensor(None)",
	"torch.tensor([1, 'a'])",
	"torch.manual_seed('x')",
	"torch.device('gpu')",
	// tensor methods: wrong counts and types
	"x.sum(7)",
	"x.sum(dim='a')",
	"x.mean(dtype=None, dim=9)",
	"c.long().mean()",
	"x.view(7)",
	"x.view(-1, -1)",
	"x.view(None)",
	"x.view('a', 2)",
	"x.reshape(3, 3)",
	"x.reshape(-2)",
	"x.transpose(0, 5)",
	"x.permute(0)",
	"x.permute(0, 0)",
	"x.unsqueeze(9)",
	"x.squeeze(9)",
	"x.expand(3, 5)",
	"x.expand(-2, 5)",
	"x.split(0)",
	"x.chunk(0)",
	"x.chunk(-1)",
	"x.to('nope')",
	"x.to(None, None, None, None)",
	"x.to(5.5)",
	"x.cuda('a')",
	"x.contiguous(1, 2)",
	"x.stride(9)",
	"x.size(9)",
	"x.mul_(None)",
	"x.mul_('a')",
	"x.mul_(torch.ones(3, device='cuda'))",
	"x.add_(c)",
	"x.add(torch.ones(7, device='cuda'))",
	"x.backward()",
	"x.sum().backward(None, 5)",
	"x.requires_grad_().sum().backward(torch.ones(3, device='cuda'))",
	"e.item()",
	"e.view(0, -1)",
	"e.reshape(-1, 0)",
	"e[0]",
	"x.index_put_((None,), torch.ones(1, device='cuda'))",
	"x.index_put_(x, x)",
	"x.is_contiguous(5)",
	// functions: None and mixed devices and dtypes
	"torch.matmul(x, None)",
	"torch.matmul(x, x)",
	"torch.matmul(x, c.t())",
	"torch.matmul(x, x.t().double())",
	"x @ 'a'",
	"x + None",
	"x + c",
	"x * torch.ones(3, device='cuda')",
	"torch.cat(None)",
	"torch.cat([])",
	"torch.cat([x, None])",
	"torch.cat([x, c])",
	"torch.cat([x, x], dim=5)",
	"torch.cat([x, torch.ones(3, device='cuda')])",
	"torch.stack([x, x[:2]])",
	"torch.stack([])",
	"torch.relu(None)",
	"torch.relu('a')",
	"torch.nn.functional.scaled_dot_product_attention(x, None, x)",
	"torch.nn.functional.scaled_dot_product_attention(x, x, x[:2, :3])",
	"torch.nn.functional.scaled_dot_product_attention(e, e, e).sum().item() + None",
	"torch.nn.functional.softmax(x, dim=7)",
	"torch.nn.functional.cross_entropy(x, None)",
	"torch.nn.functional.linear(x, None)",
	"torch.nn.functional.linear(x, torch.ones(3, 4, device='cuda'))",
	"torch.where(x > 0, x, c)",
	"m(None)",
	"m(c)",
	"m(x.double())",
	"m(torch.ones(4, 6, device='cuda'))",
	"m(x, x)",
	"m.to('nope')",
	"torch.optim.SGD(None, lr=0.1)",
	"torch.optim.SGD([], lr=0.1)",
	"torch.optim.Adam(m.parameters(), lr=-1)",
	"torch.optim.SGD(m.parameters(), lr=0.1, momentum=-1)",
	"torch.optim.AdamW(m.parameters(), betas=(1.5, 0.9))",
	"torch.nn.Linear(-1, 3)",
	"torch.nn.Linear('a', 3)",
	"torch.nn.Conv2d(3, 8, 3).cuda()(x)",
	"torch.nn.Embedding(10, 4).cuda()(x)",
	"torch.cuda.set_per_process_memory_fraction(2.0)",
	"torch.cuda.set_per_process_memory_fraction('a')",
	"torch.autocast('nope')",
	// indexing with odd keys
	"x[0, 0, 0]",
	"x[None, ..., None, 9]",
	"x[::-1]",
	"x[:, ::-2]",
	"x[::0]",
	"x['a']",
	"x[1.5]",
	"x[None, 'a']",
	"x[{}]",
	"x[(True, None, ..., 7)]",
	"x[True, True, True, 0]",
	"x[torch.tensor([0.5], device='cuda')]",
	"x[torch.tensor([1], dtype=torch.float16, device='cuda')]",
	"x[torch.tensor([1], dtype=torch.bfloat16, device='cuda')]",
	"x[torch.tensor([1], dtype=torch.int8, device='cuda'), 9]",
	"x[torch.ones(4, 5, 6, dtype=torch.bool, device='cuda')]",
	"x[torch.tensor([0, 1]), torch.tensor([0, 1, 2])]",
	"x[e]",
	"x[e.long(), e.long(), e.long()]",
	"x[x > 0, 0]",
	"x[slice(None, None, -1)]",
	"x[slice('a', 2)]",
	"x[x]",
	"x[..., [0, 1], ::-1]",
	"x[0] = None",
	"x[0] = 'a'",
	"x[0] = torch.ones(7, device='cuda')",
	"x[::-1] = 1",
	"x['a'] = 1",
	"x[None, None, 0, 0, 0] = 1",
	"del x[0]",
	// formerly accepted: argument counts, device ordinals, ragged data
	"torch.tensor([[1, 2], [3]])",
	"x.transpose(0)",
	"x.float(1)",
	"x.half(1, 2)",
	"x.detach(1)",
	"x.element_size(1)",
	"x.nelement(1)",
	"e.max()",
	"e.argmax()",
	"x.data_ptr(1)",
	"torch.cuda.memory_allocated(7)",
	"torch.cuda.reset_peak_memory_stats(None, 1)",
	"torch.cuda.empty_cache(1)",
	"torch.cuda.memory_stats(99)",
}

// acceptedSnippets are mistakes PyTorch rejects but the simulator accepts
// (known gaps: values are not simulated, so out-of-range indices, class
// targets and boolean-mask counts cannot be checked; some methods ignore
// surplus arguments). They must still not crash the simulator.
var acceptedSnippets = []string{
	// PyTorch 2.11 accepts several ellipses (question q11: x[..., ...] is x).
	"x[..., ...]",
	"x[torch.tensor([0], dtype=torch.uint8, device='cuda'), ..., ...]",
	"x.sum(0, 1, 2, 3)",
	"x.index_put_((torch.tensor([9], device='cuda'),), torch.ones(5, device='cuda'))",
	"torch.matmul(e, e)",
	"torch.nn.functional.cross_entropy(x, torch.full((4,), 9, dtype=torch.long, device='cuda')).item()",
	"torch.nn.Conv2d(3, 8, 0)",
	"torch.nn.Embedding(10, 4).cuda()(torch.tensor([11], device='cuda'))",
	"torch.no_grad(1)",
	"torch.autocast('cuda', dtype=torch.int32).__enter__()",
	"x[[0, 9]]",
	"x[[[0], [1, 2]]]",
	"x[torch.tensor([9], device='cuda')]",
	"x[torch.tensor([-9], dtype=torch.int32, device='cuda')]",
	"x[c > 0]",
	"x[[0, 9]] = 1",
	"x[torch.tensor([9], device='cuda')] = 1",
	"x[x > 0] = torch.ones(3, device='cuda')",
	"x[torch.tensor([0.5], device='cuda')] = 1",
}

// hostilePrelude defines the names hostileSnippets use.
const hostilePrelude = `import torch
x = torch.randn(4, 5, device='cuda')
c = torch.randn(4, 5)
e = torch.empty(0, device='cuda')
m = torch.nn.Linear(5, 3).cuda()
`

// TestHostileSnippets requires every hostile snippet to raise a Python
// exception, never to crash the simulator or to pass silently.
func TestHostileSnippets(t *testing.T) {
	for _, s := range hostileSnippets {
		t.Run(strings.ReplaceAll(s, "/", "|"), func(t *testing.T) {
			res := checkNoInternal(t, hostilePrelude+s+"\n")
			if res.Error == nil {
				t.Fatalf("no exception for %q (stdout %q)", s, res.Stdout)
			}
		})
	}
	for _, s := range acceptedSnippets {
		t.Run("accepted/"+strings.ReplaceAll(s, "/", "|"), func(t *testing.T) {
			checkNoInternal(t, hostilePrelude+s+"\n")
		})
	}
}

// TestHostileMessages checks that formerly accepted mistakes raise
// PyTorch's exception type and message.
func TestHostileMessages(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"x.float(1)", "TypeError: float() takes 0 positional arguments but 1 was given"},
		{"x.half(1, 2)", "TypeError: half() takes 0 positional arguments but 2 were given"},
		{"x.nelement(1)", "TypeError: TensorBase.nelement() takes no arguments (1 given)"},
		{"x.transpose(0)", "TypeError: transpose() received an invalid combination of arguments - got (int)"},
		{"torch.cuda.memory_allocated(7)", "RuntimeError: Invalid device argument \a: did you call init?"},
		{"torch.cuda.empty_cache(1)", "TypeError: empty_cache() takes 0 positional arguments but 1 was given"},
		{"torch.tensor([[1, 2], [3]])", "ValueError: expected sequence of length 2 at dim 1 (got 1)"},
		{"e.max()", "RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."},
		{"e.argmax()", "IndexError: argmax(): Expected reduction dim to be specified for input.numel() == 0."},
		{"x.detach(1)", "TypeError: TensorBase.detach() takes no arguments (1 given)"},
		{"torch.cuda.memory_stats(99)", "RuntimeError: Invalid device argument c: did you call init?"},
		// question q12
		{"torch.empty(2, device='cuda:99')", "AcceleratorError: CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?\n"},
		{"x.to('cuda:5')", "AcceleratorError: CUDA error: invalid device ordinal\n"},
		{"x.to('tpu')", "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: tpu"},
		{"torch.full((2,), None, device='cuda')", "TypeError: full() received an invalid combination of arguments - got (tuple, NoneType, device=str), but expected one of:\n * (tuple of ints size, Number fill_value, *, tuple of names names, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n * (tuple of ints size, Number fill_value, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"},
		{"torch.full(3, 1.0)", "TypeError: full(): argument 'size' (position 1) must be tuple of ints, not int"},
		{"torch.randint(5, (2,), 3)", "TypeError: randint() received an invalid combination of arguments - got (int, tuple, int), but expected one of:\n * (int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n * (int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n * (int low, int high, tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n * (int low, int high, tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"},
		{"torch.randint(5, 0, (2,), device='cuda')", "RuntimeError: random_ expects 'from' to be less than 'to', but got from=5 >= to=0"},
		{"torch.device(None)", "TypeError: device() received an invalid combination of arguments - got (NoneType), but expected one of:\n * (torch.device device)\n      didn't match because some of the arguments have invalid types: (!NoneType!)\n * (str type, int index = -1)\n"},
		{"x.split(None)", "TypeError: split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not NoneType"},
		{"torch.nn.functional.cross_entropy(x, torch.zeros(3, dtype=torch.long, device='cuda'))", "ValueError: Expected input batch_size (4) to match target batch_size (3)."},
		{"torch.where(x, x, x)", "RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype Float"},
		{"torch.cuda.memory_allocated('nope')", "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: nope"},
		{"torch.softmax(x)", "TypeError: softmax() received an invalid combination of arguments - got (Tensor), but expected one of:\n * (Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)\n * (Tensor input, name dim, *, torch.dtype dtype = None)\n"},
		{"torch.cat([])", "ValueError: torch.cat(): expected a non-empty list of Tensors"},
		{"x[[0, 'a']]", "TypeError: new(): invalid data type 'str'"},
		{"x[[True, False]]", "IndexError: The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [4, 5] at index 0"},
		{"x[torch.tensor([True, False], device='cuda')]", "IndexError: The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [4, 5] at index 0"},
		{"x @ c", "RuntimeError: Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)"},
		{"torch.nn.Linear(5, 3)(torch.ones(2, 5, device='cuda'))", "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA_addmm)"},
		{"x + torch.ones(3, device='cuda')", "RuntimeError: The size of tensor a (5) must match the size of tensor b (3) at non-singleton dimension 1"},
		{"torch.zeros(2, -3, device='cuda')", "RuntimeError: zeros: Dimension size must be non-negative."},
		{"torch.ones(-1)", "RuntimeError: Trying to create tensor with negative dimension -1: [-1]"},
		{"torch.cuda.memory_allocated('cpu')", "ValueError: Expected a cuda device, but got: cpu"},
		{"torch.cuda.memory_allocated('cuda:1')", "RuntimeError: Invalid device argument \x01: did you call init?"},
		{"torch.ones(2).cuda('cpu')", "RuntimeError: Invalid device, must be cuda device"},
		{"x.softmax()", "TypeError: softmax() received an invalid combination of arguments - got (), but expected one of:\n * (int dim, torch.dtype dtype = None)\n * (name dim, *, torch.dtype dtype = None)\n"},
		{"torch.log_softmax(x)", "TypeError: log_softmax() received an invalid combination of arguments - got (Tensor), but expected one of:\n * (Tensor input, int dim, torch.dtype dtype = None, *, Tensor out = None)\n * (Tensor input, name dim, *, torch.dtype dtype = None)\n"},
	} {
		res := checkNoInternal(t, hostilePrelude+c.src+"\n")
		if res.Error == nil || !strings.Contains(res.Error.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.src, res.Error, c.want)
		}
	}
}
