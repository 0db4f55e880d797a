package views

// PageData is everything the page shell needs from the server.
type PageData struct {
	Version        string    // sim.Version, shown and put into share links
	Assets         Assets    // versioned asset addresses
	Profiles       []Profile // device profiles, default first
	DefaultProfile string    // name of the default profile
	Examples       []Example // the examples menu, in order
	DefaultExample string    // ID of the example loaded on a first visit
}

// Assets are the addresses of the page's assets. Wasm is "" when the server
// was built without the simulator module.
type Assets struct {
	CSS, AppJS, WasmExecJS, Wasm string
}

// Profile is one entry of the device selector.
type Profile struct {
	Name, Title string
}

// Example is one entry of the examples menu; Source goes to the page as JSON.
type Example struct {
	ID     string `json:"id"`
	Group  string `json:"group"`
	Title  string `json:"title"`
	Source string `json:"source"`
}

// exampleGroup is a run of examples with the same Group, for <optgroup>.
type exampleGroup struct {
	Name  string
	Items []Example
}

// groupExamples splits examples into consecutive groups, keeping their order.
func groupExamples(ex []Example) []exampleGroup {
	var out []exampleGroup
	for _, e := range ex {
		if len(out) == 0 || out[len(out)-1].Name != e.Group {
			out = append(out, exampleGroup{Name: e.Group})
		}
		out[len(out)-1].Items = append(out[len(out)-1].Items, e)
	}
	return out
}
