package py

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gpumem/playground/sim/py/syntax"
)

// ScriptError is an exception that escaped the script, as Python shows it.
type ScriptError struct {
	Type      string // "ZeroDivisionError", "torch.OutOfMemoryError", "LimitError", "SyntaxError"
	Message   string // str(exception)
	Traceback string // the full text Python prints to stderr
	Line      int    // line of the innermost script frame (or of the syntax error)
	Col       int    // column of a syntax error, else 0
}

// Error returns "Type: message".
func (e *ScriptError) Error() string {
	if e.Message == "" {
		return e.Type
	}
	return e.Type + ": " + e.Message
}

// ExecScript runs a script as __main__ (line events, OnBind, limits), then
// releases its globals dict as CPython's exec does when it returns. An
// escaping exception is rendered as a *ScriptError and released (with its
// traceback and the frames it kept alive) before the globals. Go panics are
// recovered and reported as an InternalError.
func (it *Interp) ExecScript(ctx context.Context, src []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &ScriptError{Type: "InternalError", Message: fmt.Sprint(r),
				Traceback: "InternalError: " + fmt.Sprint(r) + "\n" + string(debug.Stack())}
		}
		// No generator goroutine outlives an abnormal end; after a normal
		// one, only if the host asked to keep them (and calls Close).
		var se *ScriptError
		if !it.opts.KeepGenerators || (err != nil && errors.As(err, &se) && (se.Type == "LimitError" || se.Type == "InternalError")) {
			it.endGenerators()
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	it.ctx = ctx
	it.deadline = time.Now().Add(it.limits.MaxDuration)
	filename := it.opts.Filename
	it.mainFile = filename
	if len(src) > it.limits.MaxScript {
		return &ScriptError{Type: "LimitError", Message: "the script is longer than " + groupThousands(int64(it.limits.MaxScript)) + " bytes"}
	}
	f, perr := syntax.Parse(filename, src)
	if perr != nil {
		if se, ok := perr.(*syntax.Error); ok {
			return &ScriptError{Type: se.Kind, Message: se.Msg, Traceback: se.Format(), Line: int(se.Pos.Line), Col: int(se.Pos.Col)}
		}
		return &ScriptError{Type: "SyntaxError", Message: perr.Error(), Traceback: "SyntaxError: " + perr.Error() + "\n"}
	}
	co, cerr := compileModule(f, filename, true, false)
	if cerr != nil {
		return &ScriptError{Type: "SyntaxError", Message: cerr.Error(), Traceback: "SyntaxError: " + cerr.Error() + "\n"}
	}
	g := it.NewDict()
	g.SetStr(it, "__name__", Str("__main__"))
	g.SetStr(it, "__file__", Str(filename))
	g.SetStr(it, "__builtins__", it.builtinsModule())
	main := &Module{Name: "__main__", Dict: IncRef(g).(*Dict)}
	it.newGC(main, true)
	it.modules["__main__"] = main
	rerr := it.runModuleCode(co, g)
	var serr error
	if rerr != nil {
		serr = it.renderError(rerr)
	}
	// The harness's exec() returns: sys.modules['__main__'] is not this
	// dict, so the last reference is the one exec held.
	delete(it.modules, "__main__")
	it.DecRef(main)
	it.DecRef(g)
	return serr
}

func (it *Interp) builtinsModule() Value {
	if m, ok := it.modules["builtins"]; ok {
		return m
	}
	m := &Module{Name: "builtins", Dict: it.builtins}
	m.flags |= 0
	it.modules["builtins"] = m
	return m
}

// renderError turns an escaped error into a *ScriptError and releases the
// exception.
func (it *Interp) renderError(err error) error {
	switch e := err.(type) {
	case *LimitError:
		return &ScriptError{Type: "LimitError", Message: e.Msg, Traceback: "LimitError: " + e.Msg + "\n", Line: it.lastScriptLine()}
	case *InternalError:
		return &ScriptError{Type: "InternalError", Message: e.Msg, Traceback: "InternalError: " + e.Msg + "\n"}
	}
	exc, ok := err.(*Instance)
	if !ok || exc.exc == nil {
		exc = it.toException(err)
		if exc == nil {
			return &ScriptError{Type: "InternalError", Message: err.Error()}
		}
	}
	se := &ScriptError{Type: exc.cls.fullName(), Message: excStr(it, exc)}
	se.Traceback = it.FormatException(exc)
	for tb := exc.exc.tb; tb != nil; tb = tb.next {
		if tb.frame != nil && tb.frame.code.traced {
			se.Line = tb.line
		}
	}
	it.DecRef(exc)
	return se
}

func (it *Interp) lastScriptLine() int {
	return it.Line()
}

// FormatException renders exc as CPython 3.12's traceback module prints it,
// with chained exceptions first and position markers (carets.go).
func (it *Interp) FormatException(exc *Instance) string {
	var sb strings.Builder
	seen := map[*Instance]bool{}
	it.formatChain(&sb, exc, seen)
	return sb.String()
}

func (it *Interp) formatChain(sb *strings.Builder, exc *Instance, seen map[*Instance]bool) {
	seen[exc] = true
	e := exc.exc
	if e.cause != nil {
		if c, ok := e.cause.(*Instance); ok && c.exc != nil && !seen[c] {
			it.formatChain(sb, c, seen)
			sb.WriteString("\nThe above exception was the direct cause of the following exception:\n\n")
		}
	} else if e.context != nil && !e.suppress {
		if c, ok := e.context.(*Instance); ok && c.exc != nil && !seen[c] {
			it.formatChain(sb, c, seen)
			sb.WriteString("\nDuring handling of the above exception, another exception occurred:\n\n")
		}
	}
	if e.tb != nil {
		var lines []string
		for tb := e.tb; tb != nil; tb = tb.next {
			fo := tb.frame
			if fo == nil || fo.code.hidden {
				continue
			}
			lines = append(lines, fmt.Sprintf("  File \"%s\", line %d, in %s\n", fo.code.filename, tb.line, fo.code.name))
			if src := sourceLine(fo.code.lines, tb.line); src != "" {
				lines = append(lines, "    "+src+"\n")
				if m := caretLine(fo.code.lines[tb.line-1], tb.line, tb.pos); m != "" {
					lines = append(lines, m)
				}
			}
		}
		if len(lines) > 0 {
			sb.WriteString("Traceback (most recent call last):\n")
			for _, l := range lines {
				sb.WriteString(l)
			}
		}
	}
	msg := excStr(it, exc)
	name := exc.cls.fullName()
	if exc.cls.userDefined {
		name = it.className(exc.cls)
		if strings.HasPrefix(name, "__main__.") {
			name = name[len("__main__."):]
		}
	}
	if msg == "" {
		sb.WriteString(name + "\n")
	} else {
		sb.WriteString(name + ": " + msg + "\n")
	}
}

func sourceLine(lines []string, n int) string {
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// unraisable reports an exception raised in __del__ the way CPython does
// (to stderr, which the playground does not show); the exception is
// released.
func (it *Interp) unraisable(err error, prefix string, obj Value) {
	if exc, ok := err.(*Instance); ok {
		it.DecRef(exc)
	}
}
