package pickle

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os/exec"
	"strconv"
	"testing"
)

// pyValues are Python expressions covering every plain-data type and the
// size boundaries where opcodes change.
var pyValues = []string{
	"None", "True", "False",
	"0", "1", "255", "256", "65535", "65536", "-1", "-128", "-129", "-256",
	"2**31-1", "2**31", "-2**31", "-2**31-1", "2**32", "139637976727552",
	"2**63-1", "-2**63", "2**63", "2**64", "-2**64-1", "10**100", "-(10**700)",
	"0.0", "-0.0", "1.5", "1e300", "5e-324", "float('inf')", "float('-inf')", "float('nan')",
	"''", "'a'", "'é'", "'日本'", "'\\U0001f600'", "'\\ud800'", "'x'*255", "'x'*256", "'y'*70000",
	"b''", "b'ab'", "bytes(range(256))", "b'z'*300", "b'w'*70000",
	"bytearray()", "bytearray(b'ab')", "bytearray(range(256))",
	"[]", "[1]", "[1, 2]", "list(range(1000))", "list(range(1001))", "list(range(2500))", "[[[]]]",
	"()", "(1,)", "(1, 2)", "(1, 2, 3)", "(1, 2, 3, 4)", "((1,),)", "([],)",
	"{}", "{'a': 1}", "{'a': 1, 'b': 2}", "{i: str(i) for i in range(1001)}",
	"{(1, 2): 't'}", "{b'k': 1}", "{frozenset([1]): 2}", "{None: 1, True: 2, 1.5: 3}", "{2**70: 'big'}",
	"set()", "{1}", "{1, 2, 3}", "set(range(1001))", "frozenset()", "frozenset({1, 2})",
	"{(1, 2)}", "{frozenset([3])}", "{'a', b'a'}",
	"(lambda l: [l, l])([1, 2])",
	"(lambda d: {'a': d, 'b': d})({'x': 1})",
	"(lambda s: [s, s, (s, s)])('shared' * 3)",
	"(lambda t: [t, t])((1, [2]))",
	`{'segments': [{'device': 0, 'address': 139637976727552, 'total_size': 2097152,
	   'segment_pool_id': (0, 0), 'is_expandable': False, 'frames': [],
	   'blocks': [{'address': 139637976727552, 'size': 1024, 'requested_size': 1000,
	               'state': 'active_allocated', 'frames': [{'name': 'f', 'filename': 'a.py', 'line': 3}]}]}],
	  'device_traces': [[{'action': 'alloc', 'addr': 139637976727552, 'size': 1000, 'stream': 0,
	                      'time_us': 1733000000000000, 'compile_context': 'N/A', 'user_metadata': ''}]],
	  'allocator_settings': {'garbage_collection_threshold': 0.0}, 'external_annotations': []}`,
}

// runPython sends one request to testdata/pyhelper.py, skipping the test when
// python3 is not installed.
func runPython(t *testing.T, req any) []map[string]any {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/pyhelper.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pyhelper: %v\n%s", err, stderr.String())
	}
	var reply struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(out, &reply); err != nil {
		t.Fatalf("pyhelper reply: %v", err)
	}
	return reply.Results
}

// pyDumps has CPython pickle every pyValues entry in protocols 2 to 5.
func pyDumps(t *testing.T) []map[string]any {
	return runPython(t, map[string]any{"op": "dumps", "exprs": pyValues, "protocols": []int{2, 3, 4, 5}})
}

// TestDecodeCPython decodes CPython's pickles of every value in protocols 2
// to 5 and compares with CPython's own view of the value.
func TestDecodeCPython(t *testing.T) {
	for i, r := range pyDumps(t) {
		want := r["canon"].(string)
		for p, h := range r["pickles"].(map[string]any) {
			data, _ := hex.DecodeString(h.(string))
			v, err := Unmarshal(data)
			if err != nil {
				t.Errorf("%s protocol %s: %v", pyValues[i], p, err)
				continue
			}
			if got := canon(v); got != want {
				t.Errorf("%s protocol %s:\n got %.200s\nwant %.200s", pyValues[i], p, got, want)
			}
		}
	}
}

// TestEncodeCPython re-encodes each decoded value with protocols 2, 3 and 4,
// has CPython load the result, and checks (1) CPython sees the same value and
// (2) where CPython's optimized pickle has no shared objects, our bytes are
// identical to it.
func TestEncodeCPython(t *testing.T) {
	results := pyDumps(t)
	var hexes []string
	type job struct {
		expr, proto, want, optimized string
		memo                         bool
	}
	var jobs []job
	for i, r := range results {
		data, _ := hex.DecodeString(r["pickles"].(map[string]any)["4"].(string))
		v, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", pyValues[i], err)
		}
		for _, p := range []int{2, 3, 4} {
			ps := strconv.Itoa(p)
			out, err := (&Encoder{Protocol: p}).marshal(v)
			if err != nil {
				t.Fatalf("%s protocol %d: %v", pyValues[i], p, err)
			}
			hexes = append(hexes, hex.EncodeToString(out))
			jobs = append(jobs, job{pyValues[i], ps, r["canon"].(string),
				r["optimized"].(map[string]any)[ps].(string), r["memo"].(map[string]any)[ps].(bool)})
		}
	}
	loaded := runPython(t, map[string]any{"op": "loads", "pickles": hexes})
	identical := 0
	for k, j := range jobs {
		if e, ok := loaded[k]["error"]; ok {
			t.Errorf("%s protocol %s: CPython cannot load our pickle: %v", j.expr, j.proto, e)
			continue
		}
		if got := loaded[k]["canon"].(string); got != j.want {
			t.Errorf("%s protocol %s: CPython loaded\n %.200s\nwant %.200s", j.expr, j.proto, got, j.want)
		}
		if !j.memo {
			if hexes[k] != j.optimized {
				t.Errorf("%s protocol %s: bytes differ from pickletools.optimize(pickle.dumps)\n got %.300s\nwant %.300s",
					j.expr, j.proto, hexes[k], j.optimized)
			}
			identical++
		}
	}
	if identical < len(jobs)/2 {
		t.Errorf("only %d of %d encodings were comparable byte for byte", identical, len(jobs))
	}
}

// TestDecodeCPythonRecursive checks that a self-containing list, which
// CPython pickles fine, is rejected rather than looped over.
func TestDecodeCPythonRecursive(t *testing.T) {
	old := pyValues
	pyValues = []string{"(lambda l: (l.append(l), l)[1])([])", "(lambda d: (d.__setitem__('me', d), d)[1])({})"}
	defer func() { pyValues = old }()
	for i, r := range pyDumps(t) {
		for p, h := range r["pickles"].(map[string]any) {
			data, _ := hex.DecodeString(h.(string))
			_, err := Unmarshal(data)
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s protocol %s: err = %v, want ErrMalformed (recursive)", pyValues[i], p, err)
			}
		}
	}
}
