package kernels

// leakyMapOps are F.leaky_relu and its backward (map_act), as ATen's
// LeakyReluKernel.cu computes them in opmath: x > 0 ? x : x·slope, with
// the slope s0 rounded to float32 (negval.to<opmath_t>()); a NaN takes the
// second branch and stays NaN.
var leakyMapOps = []MapOpInfo{
	{Op: "leaky_relu", Ins: 1, Doc: "out = x > 0 ? x : x·s0", body: []string{
		"setp.gt.f32 \t%pq1, %x0, " + zero + ";",
		"mul.rn.f32 \t%t0, %x0, %s0;",
		"selp.f32 \t%y, %x0, %t0, %pq1;",
	}},
	{Op: "leaky_relu_backward", Ins: 2, Doc: "out = b > 0 ? a : a·s0 (a grad, b input or result)", body: []string{
		"setp.gt.f32 \t%pq1, %x1, " + zero + ";",
		"mul.rn.f32 \t%t0, %x0, %s0;",
		"selp.f32 \t%y, %x0, %t0, %pq1;",
	}},
}
