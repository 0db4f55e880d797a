package bridge

import "github.com/gpumem/playground/sim/profile"

// ProfileInfo is what the page's profile selector shows for one device.
type ProfileInfo struct {
	Name         string `json:"name"`
	Title        string `json:"title"`
	GPU          string `json:"gpu"`
	TotalMemory  int64  `json:"totalMemory"`
	TorchVersion string `json:"torchVersion"`
	Default      bool   `json:"default,omitempty"`
}

// Profiles lists the simulator's device profiles, default first.
func Profiles() []ProfileInfo {
	all := profile.All()
	out := make([]ProfileInfo, 0, len(all))
	for _, p := range all {
		out = append(out, ProfileInfo{
			Name:         p.Name,
			Title:        p.Title,
			GPU:          p.GPUName,
			TotalMemory:  p.TotalMemory,
			TorchVersion: p.TorchVersion,
			Default:      p.Name == profile.DefaultName,
		})
	}
	return out
}

// ProfilesJSON is Profiles encoded for the page.
func ProfilesJSON() []byte { return appendProfiles(nil, Profiles()) }
