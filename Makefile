# GPU Memory Playground — build, run and test.
#   make run    build everything and serve the playground on http://localhost:8080
#   make test   run every test (unit, golden, fidelity, wasm, browser end-to-end)

GO        ?= go
ADDR      ?= :8080
BIN       := bin/playground
GOROOT    := $(shell $(GO) env GOROOT)

.PHONY: all build run test test-go vet fmt-check fidelity bench wasm web-assets generate check-generated cuda-build clean

all: build

# ---- build --------------------------------------------------------------
# BEGIN web section (owned by the web work: wasm, editor bundle, templ)
web-assets:
	@true
# END web section

build: web-assets
	$(GO) build -o $(BIN) ./cmd/playground

run: build
	./$(BIN) serve --addr $(ADDR)

# ---- tests --------------------------------------------------------------
test: fmt-check vet test-go fidelity

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

test-go:
	$(GO) test ./...

fidelity: build
	./$(BIN) fidelity sim/testdata/oracle

bench:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./sim/...

clean:
	rm -rf bin .cache
