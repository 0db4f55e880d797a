// Package views holds the playground's templ components: the page shell with
// the toolbar (examples, device profile, allocator settings, run, share,
// theme), the editor and output panes, and the containers the views module
// (web/js, bundled into static/app.js) fills from a run's event stream.
//
// The components render the static structure and the data the server knows
// (examples, profiles, asset addresses); everything that depends on a run is
// drawn in the browser from the events.
package views
