package py

import (
	"context"
	"testing"
)

// BenchmarkLoop measures `for i in range(1_000_000): s += i` at module level.
func BenchmarkLoop(b *testing.B) {
	src := []byte("s = 0\nfor i in range(1_000_000):\n    s += i\n")
	for i := 0; i < b.N; i++ {
		it := New(Options{})
		if err := it.ExecScript(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoopInFunction measures the same loop inside a function (fast locals).
func BenchmarkLoopInFunction(b *testing.B) {
	src := []byte("def f():\n    s = 0\n    for i in range(1_000_000):\n        s += i\n    return s\nf()\n")
	for i := 0; i < b.N; i++ {
		it := New(Options{})
		if err := it.ExecScript(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCalls measures Python function calls with two arguments.
func BenchmarkCalls(b *testing.B) {
	src := []byte("def add(a, b):\n    return a + b\ns = 0\nfor i in range(100_000):\n    s = add(s, i)\n")
	for i := 0; i < b.N; i++ {
		it := New(Options{})
		if err := it.ExecScript(context.Background(), src); err != nil {
			b.Fatal(err)
		}
	}
}
