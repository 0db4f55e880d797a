package py

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func runErr(t *testing.T, src string, lim Limits) (*ScriptError, string) {
	t.Helper()
	var out bytes.Buffer
	it := New(Options{Stdout: &out, Limits: lim})
	err := it.ExecScript(context.Background(), []byte(src))
	if err == nil {
		return nil, out.String()
	}
	se, ok := err.(*ScriptError)
	if !ok {
		t.Fatalf("error %T %v is not a *ScriptError", err, err)
	}
	return se, out.String()
}

// TestTracebackText checks tracebacks with CPython 3.12's position markers
// (testdata/tracebacks.py compares many more with CPython itself).
func TestTracebackText(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"def foo():\n    return 1/0\n\nx = foo()\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 4, in <module>\n    x = foo()\n        ^^^^^\n  File \"<script>\", line 2, in foo\n    return 1/0\n           ~^~\nZeroDivisionError: division by zero\n"},
		{"try:\n    {}['a']\nexcept KeyError:\n    raise ValueError('v')\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 2, in <module>\n    {}['a']\n    ~~^^^^^\nKeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File \"<script>\", line 4, in <module>\n    raise ValueError('v')\nValueError: v\n"},
		{"try:\n    1/0\nexcept ZeroDivisionError as e:\n    raise RuntimeError('r') from e\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 2, in <module>\n    1/0\n    ~^~\nZeroDivisionError: division by zero\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"<script>\", line 4, in <module>\n    raise RuntimeError('r') from e\nRuntimeError: r\n"},
		{"class MyErr(Exception):\n    pass\nraise MyErr('boom')\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 3, in <module>\n    raise MyErr('boom')\nMyErr: boom\n"},
		{"def f():\n    x\n    x = 1\nf()\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 4, in <module>\n    f()\n  File \"<script>\", line 2, in f\n    x\nUnboundLocalError: cannot access local variable 'x' where it is not associated with a value\n"},
		// A statement on several lines fails at the line of the failing call.
		{"def g():\n    raise ValueError('x')\nx = [\n    1,\n    g(),\n]\n",
			"Traceback (most recent call last):\n  File \"<script>\", line 5, in <module>\n    g(),\n    ^^^\n  File \"<script>\", line 2, in g\n    raise ValueError('x')\nValueError: x\n"},
	}
	for _, tc := range tests {
		se, _ := runErr(t, tc.src, Limits{})
		if se == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if se.Traceback != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, se.Traceback, tc.want)
		}
	}
}

func TestSyntaxErrorText(t *testing.T) {
	se, _ := runErr(t, "x = (1 +\n", Limits{})
	if se == nil || se.Type != "SyntaxError" || !strings.Contains(se.Traceback, "SyntaxError: ") {
		t.Fatalf("got %#v", se)
	}
}

func TestLimits(t *testing.T) {
	tests := []struct {
		name, src, want string
		lim             Limits
	}{
		{"steps", "while True:\n    pass\n", "LimitError: the script ran more than 10,000 steps", Limits{MaxSteps: 10_000}},
		{"steps not catchable", "try:\n    while True:\n        pass\nexcept BaseException:\n    print('caught')\n", "LimitError: the script ran more than 10,000 steps", Limits{MaxSteps: 10_000}},
		{"list repeat", "x = [0] * 10**10\n", "LimitError: a collection grew beyond 1,000,000 elements", Limits{MaxCollection: 1_000_000}},
		{"str repeat", "x = 'x' * 10**10\n", "LimitError: a collection grew beyond 1,000,000 elements", Limits{MaxCollection: 1_000_000}},
		{"output", "while True:\n    print('spam')\n", "LimitError: the script printed more than 1,000 bytes", Limits{MaxOutput: 1000}},
		{"recursion", "def f():\n    f()\nf()\n", "RecursionError: maximum recursion depth exceeded", Limits{}},
		{"time", "while True:\n    pass\n", "LimitError: the script ran longer than 50ms", Limits{MaxDuration: 50 * time.Millisecond, MaxSteps: 1 << 60}},
		{"big int", "x = 2 ** (10 ** 12)\n", "LimitError: an integer grew beyond the playground's size limit", Limits{}},
		{"script size", "x = 1\n" + strings.Repeat("#", 100), "LimitError: the script is longer than 50 bytes", Limits{MaxScript: 50}},
	}
	for _, tc := range tests {
		se, out := runErr(t, tc.src, tc.lim)
		if se == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if se.Error() != tc.want {
			t.Errorf("%s: got %q want %q", tc.name, se.Error(), tc.want)
		}
		if strings.Contains(out, "caught") {
			t.Errorf("%s: a limit error was caught by the script", tc.name)
		}
	}
}

func TestRecursionCaught(t *testing.T) {
	se, out := runErr(t, "def f(n):\n    return f(n+1)\ntry:\n    f(0)\nexcept RecursionError as e:\n    print('caught', e)\n", Limits{})
	if se != nil || out != "caught maximum recursion depth exceeded\n" {
		t.Fatalf("got %v %q", se, out)
	}
}

func TestModuleNotFound(t *testing.T) {
	se, _ := runErr(t, "import numpy\n", Limits{})
	if se == nil || se.Type != "ModuleNotFoundError" || !strings.HasPrefix(se.Message, "No module named 'numpy'") {
		t.Fatalf("got %#v", se)
	}
}
