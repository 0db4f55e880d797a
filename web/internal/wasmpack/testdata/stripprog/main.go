// Command stripprog exercises what the Go runtime needs of its pc tables —
// stack growth, garbage collection with pointers on the stack, panics and
// recover, function names — for TestStripLinesRuns, which runs it before and
// after StripLines and compares stdout. Stderr says the file and line that
// runtime.Caller reports, which StripLines removes.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// depth recurses with a frame that holds data, so the stack grows many times.
//
//go:noinline
func depth(n int) int {
	var buf [64]byte
	buf[n%64] = byte(n)
	if n == 0 {
		return int(buf[0])
	}
	return depth(n-1) + int(buf[n%64])
}

// try runs f and returns the message of the panic it recovers.
func try(f func()) (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	f()
	return ""
}

func main() {
	fmt.Println("depth", depth(100000))
	var keep []*[256]int
	for i := range 3000 {
		p := new([256]int)
		p[0] = i
		keep = append(keep, p)
		if i%500 == 0 {
			runtime.GC()
		}
	}
	sum := 0
	for _, p := range keep {
		sum += p[0]
	}
	fmt.Println("sum", sum)
	fmt.Println("recovered:", try(func() {
		var m map[string]int
		m["x"] = 1
	}))
	fmt.Println("recovered:", try(func() {
		var a []int
		_ = a[len(os.Args)+3]
	}))
	pc, file, line, ok := runtime.Caller(0)
	fmt.Println("caller", runtime.FuncForPC(pc).Name(), ok)
	fmt.Println("stack names main.main:", strings.Contains(string(debug.Stack()), "main.main"))
	fmt.Fprintf(os.Stderr, "file %q line %d\n", file, line)
}
