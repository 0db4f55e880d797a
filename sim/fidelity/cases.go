package fidelity

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpumem/playground/sim"
	"github.com/gpumem/playground/sim/trace"
)

// Case is one recorded script.
type Case struct {
	Name   string
	Script string
	Env    map[string]string // from a "# env: NAME=VALUE" first line
	Golden *trace.Golden
}

// Load reads every case of dir (cases/*.py with golden/*.json), sorted by name.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "cases", "*.py"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var cs []Case
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".py")
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("fidelity: %w", err)
		}
		gp := filepath.Join(dir, "golden", name+".json")
		raw, err := os.ReadFile(gp)
		if err != nil {
			return nil, fmt.Errorf("fidelity: case %s has no golden: %w", name, err)
		}
		var g trace.Golden
		if err := json.Unmarshal(raw, &g); err != nil {
			return nil, fmt.Errorf("fidelity: %s: %w", gp, err)
		}
		cs = append(cs, Case{Name: name, Script: string(src), Env: EnvLine(string(src)), Golden: &g})
	}
	return cs, nil
}

// EnvLine returns the variable set by a "# env: NAME=VALUE" first line, as the
// harness reads it.
func EnvLine(src string) map[string]string {
	first, _, _ := strings.Cut(src, "\n")
	rest, ok := strings.CutPrefix(first, "# env:")
	if !ok {
		return nil
	}
	k, v, ok := strings.Cut(strings.TrimSpace(rest), "=")
	if !ok {
		return nil
	}
	return map[string]string{k: v}
}

// Run simulates a case as the harness ran it and compares the result.
func Run(ctx context.Context, c Case, profile string) (Diff, *trace.Golden, error) {
	req := sim.Request{Script: c.Script, Filename: c.Name + ".py", Profile: profile, Env: c.Env}
	res, err := sim.Run(ctx, req, nil)
	if err != nil {
		return Diff{FirstIssue: err.Error(), TotalRows: len(c.Golden.Trace)}, nil, err
	}
	return Compare(c.Golden, res.Golden), res.Golden, nil
}

// Expected reads the list of cases that are known to match exactly (one name
// per line, '#' comments): a case on it that stops matching is a regression.
func Expected(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]bool{}, nil
		}
		return nil, err
	}
	defer f.Close()
	m := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			m[line] = true
		}
	}
	return m, sc.Err()
}
