package web

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gpumem/playground/gpu/compare"
	"github.com/gpumem/playground/sim/trace"
	"github.com/gpumem/playground/web/gpujob"
)

func TestRecordedGPURunner(t *testing.T) {
	f, err := os.Open("../gpu/compare/testdata/q010_oom_fraction.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pair, err := compare.ReadPair(f)
	if err != nil {
		t.Fatal(err)
	}
	r := RecordedGPURunner{Pair: pair}
	var got []trace.Event
	res, err := r.Run(context.Background(), gpujob.Job{Script: pair.Script, Profile: ""}, func(ev trace.Event) { got = append(got, ev) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pair.GPU.Events) || res.Stdout != pair.GPU.Stdout || res.UsedBefore != pair.GPU.UsedBefore {
		t.Errorf("%d events of %d, result %+v", len(got), len(pair.GPU.Events), res)
	}
	var tab compare.Table
	if err := json.Unmarshal(res.Compare, &tab); err != nil {
		t.Fatal(err)
	}
	// The recording's own simulation agrees with it; today's must too.
	if want := compare.Compare(pair, compare.Options{}); !tab.Agree || len(tab.Rows) != len(want.Rows) || tab.ContextDelta != want.ContextDelta {
		t.Errorf("table: agree %v, %d rows (recorded pair: %d), context %+d (recorded %+d)", tab.Agree, len(tab.Rows), len(want.Rows), tab.ContextDelta, want.ContextDelta)
	}
	if _, err := r.Run(context.Background(), gpujob.Job{Script: "x = 1\n"}, func(trace.Event) {}); err == nil || !strings.Contains(err.Error(), "q010_oom_fraction") {
		t.Errorf("another script: error %v, want one naming the recording", err)
	}
}
