package prelude

import (
	"strings"
	"testing"

	"github.com/gpumem/playground/sim/py/syntax"
)

// TestSourcesParse checks that every embedded module parses with the
// playground's parser and maps to the expected module names.
func TestSourcesParse(t *testing.T) {
	srcs := Sources()
	names := map[string]bool{}
	for _, s := range srcs {
		names[s.Name] = true
		if _, err := syntax.Parse(s.Filename, s.Src); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		if !strings.HasPrefix(s.Name, "torch.") {
			t.Errorf("%s: not under torch", s.Name)
		}
	}
	for _, want := range []string{
		"torch.nn", "torch.nn.modules.module", "torch.nn.init", "torch.nn.utils",
		"torch.optim", "torch.optim.adam", "torch.utils.data", "torch.utils.checkpoint",
		"torch.amp", "torch.cuda.amp",
	} {
		if !names[want] {
			t.Errorf("module %s missing", want)
		}
	}
	// These belong to the Go binding; a prelude file must not shadow them.
	for _, bad := range []string{"torch", "torch.cuda", "torch.nn.functional", "torch.autograd", "torch._sim", "torch._C"} {
		if names[bad] {
			t.Errorf("module %s must come from the Go binding, not the prelude", bad)
		}
	}
}
