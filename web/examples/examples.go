// Package examples holds the scripts of the playground's examples menu: copies
// of the oracle cases (sim/testdata/oracle/cases, kept equal by `make
// check-generated`), whose s-cases are the snippets of the seed articles.
// They are embedded so that the menu works offline and matches the recorded
// PyTorch traces the simulator is tested against.
package examples

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed oracle/*.py
var files embed.FS

// Example is one entry of the menu.
type Example struct {
	ID     string `json:"id"`     // file name without .py, e.g. "s000_release"; stable, used in URLs and tests
	Group  string `json:"group"`  // menu section
	Title  string `json:"title"`  // human-readable name
	Source string `json:"source"` // the script
}

// DefaultID is the example loaded on a first visit: short, and it shows
// allocated versus reserved and empty_cache.
const DefaultID = "s000_release"

// groups maps an ID prefix to its menu section, in menu order.
var groups = []struct{ prefix, name string }{
	{"s", "From the articles"},
	{"p", "PyTorch behaviour"},
	{"q", "Training tricks and the allocator"},
}

// words spells out the abbreviations used in the case file names.
var words = map[string]string{
	"ckpt": "checkpoint", "amp": "AMP", "oom": "OOM", "gc": "GC", "sgd": "SGD", "lm": "LM",
	"gpt": "GPT", "bf16": "bf16", "fp16": "fp16", "adamw": "AdamW", "adam": "Adam",
	"nograd": "no_grad", "accum": "accumulation", "infer": "inference", "embed": "embedding",
	"norm": "norm", "bn": "batch norm", "nobias": "without bias",
}

// All returns every example, grouped in menu order and sorted by ID within a
// group. It fails only if the embedded files are unreadable.
func All() ([]Example, error) {
	names, err := fs.Glob(files, "oracle/*.py")
	if err != nil {
		return nil, fmt.Errorf("examples: listing: %w", err)
	}
	sort.Strings(names)
	var out []Example
	for _, g := range groups {
		for _, n := range names {
			id := strings.TrimSuffix(path.Base(n), ".py")
			if !strings.HasPrefix(id, g.prefix) {
				continue
			}
			src, err := files.ReadFile(n)
			if err != nil {
				return nil, fmt.Errorf("examples: reading %s: %w", n, err)
			}
			out = append(out, Example{ID: id, Group: g.name, Title: title(id), Source: string(src)})
		}
	}
	return out, nil
}

// Lookup returns the example with the given ID.
func Lookup(id string) (Example, bool) {
	all, err := All()
	if err != nil {
		return Example{}, false
	}
	for _, e := range all {
		if e.ID == id {
			return e, true
		}
	}
	return Example{}, false
}

// title turns "q004_autocast_fp16" into "Autocast fp16".
func title(id string) string {
	parts := strings.Split(id, "_")
	if len(parts) > 1 {
		parts = parts[1:]
	}
	for i, p := range parts {
		if w, ok := words[p]; ok {
			parts[i] = w
		}
	}
	s := strings.Join(parts, " ")
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}
