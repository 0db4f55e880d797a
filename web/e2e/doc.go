// Package e2e holds the playground's end-to-end test: the real server (with
// the embedded wasm module) in-process, driven in headless Chromium through
// chromedp. It checks that the numbers the page shows equal what sim.Run
// gives natively for the same scripts, measures the page's timings, and
// saves a screenshot under artifacts/.
//
// The test skips with a message when Chromium or the wasm module is missing,
// unless CI or PLAYGROUND_E2E is set, where it fails instead.
package e2e
