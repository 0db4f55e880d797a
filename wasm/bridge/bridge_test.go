package bridge

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gpumem/playground/sim"
)

func TestRunMatchesSim(t *testing.T) {
	tests := []struct {
		name string
		req  Request
	}{
		{"print", Request{Script: "print(1 + 1)\n"}},
		{"tensor", Request{Script: "import torch\nx = torch.empty(1024, device='cuda')\nprint(torch.cuda.memory_allocated())\n"}},
		{"error", Request{Script: "raise ValueError('boom')\n"}},
		{"allocator setting", Request{Script: "print(1)\n", AllocConf: "expandable_segments:True"}},
		{"bad profile", Request{Script: "print(1)\n", Profile: "no-such-gpu"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(tt.req)
			if err != nil {
				t.Fatal(err)
			}
			var got Response
			if err := json.Unmarshal(Run(context.Background(), raw), &got); err != nil {
				t.Fatalf("response is not JSON: %v", err)
			}
			if got.Version != sim.Version {
				t.Errorf("version %q", got.Version)
			}
			res, err := sim.Run(context.Background(), tt.req.simRequest(), nil)
			if err != nil {
				if got.HostError != err.Error() {
					t.Errorf("host error %q, want %q", got.HostError, err.Error())
				}
				return
			}
			if got.HostError != "" {
				t.Fatalf("host error %q, sim.Run succeeded", got.HostError)
			}
			if got.Stdout != res.Stdout {
				t.Errorf("stdout %q, want %q", got.Stdout, res.Stdout)
			}
			if !reflect.DeepEqual(got.Error, fromScriptError(res.Error)) {
				t.Errorf("error %+v, want %+v", got.Error, res.Error)
			}
			if len(got.Events) != len(res.Events) {
				t.Fatalf("%d events, want %d", len(got.Events), len(res.Events))
			}
			for i := range res.Events {
				if !reflect.DeepEqual(got.Events[i], res.Events[i]) {
					t.Fatalf("event %d: %+v, want %+v", i, got.Events[i], res.Events[i])
				}
			}
		})
	}
}

func TestRunRejectsMalformedJSON(t *testing.T) {
	for _, raw := range []string{"", "{", `{"script": 3}`, "[]"} {
		var got Response
		if err := json.Unmarshal(Run(context.Background(), []byte(raw)), &got); err != nil {
			t.Fatalf("%q: response is not JSON: %v", raw, err)
		}
		if !strings.HasPrefix(got.HostError, "bad request") {
			t.Errorf("%q: host error %q, want a bad request", raw, got.HostError)
		}
		if got.Events != nil && len(got.Events) != 0 {
			t.Errorf("%q: events on a bad request", raw)
		}
	}
}

func TestValidateConfig(t *testing.T) {
	tests := []struct {
		in      string
		wantErr string // "" = accepted; else a substring of the message
	}{
		{"", ""},
		{"   ", ""},
		{"expandable_segments:True", ""},
		{"max_split_size_mb:128,roundup_power2_divisions:4", ""},
		{"expandable_segments:true", "True"},
		{"max_split_size_mb:abc", "max_split_size_mb"},
		{"no_such_key:1", "no_such_key"},
	}
	for _, tt := range tests {
		got := ValidateConfig(tt.in)
		if tt.wantErr == "" && got != "" {
			t.Errorf("%q rejected: %s", tt.in, got)
		}
		if tt.wantErr != "" && !strings.Contains(got, tt.wantErr) {
			t.Errorf("%q: message %q, want one mentioning %q", tt.in, got, tt.wantErr)
		}
	}
}

func TestProfiles(t *testing.T) {
	ps := Profiles()
	if len(ps) < 2 || !ps[0].Default || ps[0].TotalMemory <= 0 {
		t.Fatalf("profiles %+v: want the default first, with memory", ps)
	}
	for _, p := range ps[1:] {
		if p.Default || p.Name == "" || p.Title == "" {
			t.Errorf("profile %+v", p)
		}
	}
	var decoded []ProfileInfo
	if err := json.Unmarshal(ProfilesJSON(), &decoded); err != nil || !reflect.DeepEqual(decoded, ps) {
		t.Errorf("ProfilesJSON does not round-trip: %v", err)
	}
}
