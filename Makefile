# pmx-canvas: one static binary, embedded storage.
GO        ?= go
BIN       := bin
FUZZTIME  ?= 20s
BENCHOUT  ?= $(BIN)/bench.txt

# make run PORT=4400 WORKSPACE=~/project
PORT      ?= 4313
WORKSPACE ?= .
ARGS      ?=

.PHONY: run install build test e2e lint bench fuzz clean screenshots

## run: build bin/pmx-canvas, then serve on 127.0.0.1:$(PORT), workspace $(WORKSPACE)
run:
	@echo "building pmx-canvas… (the first build downloads and compiles the modules; later ones take seconds)" >&2
	@$(GO) build -o $(BIN)/pmx-canvas ./cmd/pmx-canvas
	@exec $(BIN)/pmx-canvas serve --port $(PORT) --workspace $(WORKSPACE) --no-open $(ARGS)

## install: put pmx-canvas on PATH (go install: $$GOBIN, else $$(go env GOPATH)/bin)
install:
	$(GO) install ./cmd/pmx-canvas
	@dir=$$($(GO) env GOBIN); [ -n "$$dir" ] || dir=$$($(GO) env GOPATH)/bin; \
	echo "installed $$dir/pmx-canvas"; \
	case ":$$PATH:" in *":$$dir:"*) ;; *) echo "add it to PATH: export PATH=\"$$dir:\$$PATH\"";; esac

## build: bin/pmx-canvas and bin/pmx-bench
build:
	$(GO) build -o $(BIN)/pmx-canvas ./cmd/pmx-canvas
	$(GO) build -o $(BIN)/pmx-bench ./cmd/pmx-bench

## test: the whole suite with the race detector (fuzz seeds included)
test: tests/mcp-ts/node_modules web/viewer/node_modules
	$(GO) vet ./...
	PMX_CANVAS_OFFLINE=1 PMX_REQUIRE_TS=1 PMX_REQUIRE_WEB=1 $(GO) test -race -count=1 ./...

# The viewer's npm packages, for the test that the committed bundle is fresh.
web/viewer/node_modules: web/viewer/package.json web/viewer/package-lock.json
	npm ci --prefix web/viewer --no-audit --no-fund
	@touch $@

# The official TypeScript MCP SDK, for the interoperability test.
tests/mcp-ts/node_modules: tests/mcp-ts/package.json tests/mcp-ts/package-lock.json
	npm ci --prefix tests/mcp-ts --no-audit --no-fund
	@touch $@

## web: rebuild the viewer bundles in web/viewer/dist (commit them); npm ci first when node_modules is missing
.PHONY: web
web:
	@[ -d web/viewer/node_modules ] || npm ci --prefix web/viewer --no-audit --no-fund
	$(GO) run ./internal/gen/cmd/webbuild

## e2e: only the browser tests (automation webview, workbench by hand); needs chromium
e2e:
	PMX_REQUIRE_CHROMIUM=1 $(GO) test -race -count=1 -run 'Webview|Workbench|Chromium|TestCLIScripts/webview' ./...

## lint: formatting and vet (and the workbench script's syntax, with node)
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@if command -v node >/dev/null 2>&1; then for f in web/workbench/*.js; do node --input-type=module --check < $$f || { echo "in $$f"; exit 1; }; done; fi

## bench: load figures for docs/benchmarks.md (see that file for the reading)
## screenshots: retake docs/screenshots/ from the demo board (needs chromium)
screenshots:
	PMX_REQUIRE_CHROMIUM=1 PMX_SCREENSHOTS=1 $(GO) test -run TestDemoBoardScreens -count=1 ./cmd/pmx-canvas/

bench: build
	@mkdir -p $(BIN)
	@echo "== node add, durable (group commit), canvas grows across levels" | tee $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 1,8,32,128 -n 20000 -label durable | tee -a $(BENCHOUT)
	@echo "== node add, one fsync per write (no group commit)" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 1,8,32,128 -n 20000 -label no-group -- --journal-max-batch 1 | tee -a $(BENCHOUT)
	@echo "== node add, no fsync at all (CPU ceiling; not durable)" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 1,8,32,128 -n 20000 -label no-fsync -- --unsafe-no-fsync | tee -a $(BENCHOUT)
	@echo "== node add at C=32 while the canvas grows to 100,000 nodes" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 32 -growth 100000 -segments 10 -label growth | tee -a $(BENCHOUT)
	@echo "== node move (PATCH) on a small canvas" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -op node.move -c 1,8,32,128 -n 20000 -label move | tee -a $(BENCHOUT)
	@echo "== 10,000-node canvas: state read and search, one client" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -op state.get -c 1 -n 500 -label state10k | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -op search.get -c 1 -n 2000 -label search10k | tee -a $(BENCHOUT)
	@echo "== 10,000-node canvas: node add at C=32 (10,000 adds), alone and with 8 polling readers" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -c 32 -n 10000 -label alone | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -c 32 -n 10000 -readers 8 -read-op state.get -read-interval 100ms -label state100ms | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -c 32 -n 10000 -readers 8 -read-op state.get -read-interval 1s -label state1s | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -c 32 -n 10000 -readers 8 -read-op search.get -read-interval 100ms -label search100ms | tee -a $(BENCHOUT)
	@echo "== AX gate awaits over HTTP: waiters parked on one gate, released by one resolve" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -await 1000 -label await1k | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -await 10000 -label await10k | tee -a $(BENCHOUT)
	@echo "== AX gate awaits over HTTP: one waiter per gate, all gates resolved together" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -await 500 -spread -label spread500 | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -await 1000 -spread -label spread1k | tee -a $(BENCHOUT)
	@echo "== AX gate awaits in process (actor side): release latency and heap per parked waiter" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench BenchmarkAwaitRelease -benchtime 5x ./actors | tee -a $(BENCHOUT)
	@echo "== automation webview: browser start, evaluate, resize, screenshots (skipped without chromium)" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Chromium -benchtime 2s ./automation | tee -a $(BENCHOUT)
	@echo "== workbench in Chromium: first paint, pan/zoom frames, change latency under 8 agents, one change on 10,000 nodes" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Workbench -benchtime 1x ./cmd/pmx-canvas/ | tee -a $(BENCHOUT)
	@echo "== node add spread over 1, 8 and 32 canvases (store-level group commit), interleaved, medians of 3" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 64 -n 20000 -canvases 1,8,32 -repeat 3 -label canvases | tee -a $(BENCHOUT)
	@echo "== node add at C=32, medians of 5" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -c 32 -n 40000 -repeat 5 -label c32x5 | tee -a $(BENCHOUT)
	@echo "== event-stream fan-out: 100 and 1,000 subscribers, 200 writes" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -fanout 100 -n 200 -label fan100 | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -fanout 1000 -n 200 -label fan1000 | tee -a $(BENCHOUT)
	@echo "== workspace content: file node add (100 KB), watcher latency, code graph over 500 files, page and markdown rendering" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench 'FileNodeAdd100KB|WatcherLatency' -benchtime 3s ./tests/content/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Build500 -benchtime 3x ./content/codegraph/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench RenderHTML -benchtime 20x ./content/webpage/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Render100KB -benchtime 20x ./content/markdown/ | tee -a $(BENCHOUT)
	@echo "== board export: a 1,000-card SVG drawn on the server, and the same board as SVG and PNG (Chromium; skipped without it)" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Render1000 -benchtime 2s ./content/boardsvg/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench Export1000 -benchtime 5x ./tests/content/ | tee -a $(BENCHOUT)
	@echo "== spec-driven content: json-render validate and stream, surface documents, charts, primitives" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench 'Normalize200Elements|Stream1000Patches' -benchtime 2s ./content/jsonrender/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench 'StreamPatchEndToEnd|SurfaceDocument' -benchtime 1000x ./tests/content/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench BuildBar1000 -benchtime 2s ./content/graphspec/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench . -benchtime 200x ./content/primitives/ | tee -a $(BENCHOUT)
	@echo "== hosted content: a cold default web artifact (esbuild in-process, embedded React)" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench BuildDefault -benchtime 10x ./content/webartifact/ | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench WebArtifactBuildOp -benchtime 10x ./tests/content/ | tee -a $(BENCHOUT)
	@echo "== resident memory with 10,000 nodes (after seeding, and idle)" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -seed 10000 -rss -label rss10k | tee -a $(BENCHOUT)
	@echo "== startup and idle memory" | tee -a $(BENCHOUT)
	$(BIN)/pmx-bench -bin $(BIN)/pmx-canvas -startup 10 | tee -a $(BENCHOUT)
	@echo "== micro benchmarks" | tee -a $(BENCHOUT)
	$(GO) test -run '^$$' -bench . -benchmem ./domain/... | tee -a $(BENCHOUT)

## fuzz: run every fuzzer for FUZZTIME each
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecodeInput -fuzztime $(FUZZTIME) ./messages/
	$(GO) test -run '^$$' -fuzz FuzzQueryValue -fuzztime $(FUZZTIME) ./messages/
	$(GO) test -run '^$$' -fuzz FuzzEnvelope -fuzztime $(FUZZTIME) ./surfaces/http/
	$(GO) test -run '^$$' -fuzz FuzzOriginGuard -fuzztime $(FUZZTIME) ./surfaces/http/
	$(GO) test -run '^$$' -fuzz FuzzNormalizeOrigin -fuzztime $(FUZZTIME) ./surfaces/http/
	$(GO) test -run '^$$' -fuzz FuzzNodeAndEdgeInputs -fuzztime $(FUZZTIME) ./domain/canvas/
	$(GO) test -run '^$$' -fuzz FuzzLastGoodOffset -fuzztime $(FUZZTIME) ./persistence/
	$(GO) test -run '^$$' -fuzz FuzzCommitCutPoint -fuzztime $(FUZZTIME) ./persistence/
	$(GO) test -run '^$$' -fuzz FuzzParseInteraction -fuzztime $(FUZZTIME) ./domain/ax/
	$(GO) test -run '^$$' -fuzz FuzzAXOperations -fuzztime $(FUZZTIME) ./actors/
	$(GO) test -run '^$$' -fuzz FuzzWebviewOperations -fuzztime $(FUZZTIME) ./actors/
	$(GO) test -run '^$$' -fuzz '^FuzzImportsJS$$' -fuzztime $(FUZZTIME) ./content/codegraph/
	$(GO) test -run '^$$' -fuzz '^FuzzImportsGo$$' -fuzztime $(FUZZTIME) ./content/codegraph/
	$(GO) test -run '^$$' -fuzz '^FuzzImportsPython$$' -fuzztime $(FUZZTIME) ./content/codegraph/
	$(GO) test -run '^$$' -fuzz '^FuzzImportsRust$$' -fuzztime $(FUZZTIME) ./content/codegraph/
	$(GO) test -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime $(FUZZTIME) ./content/graphspec/
	$(GO) test -run '^$$' -fuzz '^FuzzDerive$$' -fuzztime $(FUZZTIME) ./content/htmlmeta/
	$(GO) test -run '^$$' -fuzz '^FuzzSniff$$' -fuzztime $(FUZZTIME) ./content/images/
	$(GO) test -run '^$$' -fuzz '^FuzzSVGSize$$' -fuzztime $(FUZZTIME) ./content/images/
	$(GO) test -run '^$$' -fuzz '^FuzzNormalize$$' -fuzztime $(FUZZTIME) ./content/jsonrender/
	$(GO) test -run '^$$' -fuzz '^FuzzStreamApply$$' -fuzztime $(FUZZTIME) ./content/jsonrender/
	$(GO) test -run '^$$' -fuzz '^FuzzRender$$' -fuzztime $(FUZZTIME) ./content/markdown/
	$(GO) test -run '^$$' -fuzz '^FuzzBuild$$' -fuzztime $(FUZZTIME) ./content/primitives/
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./content/unidiff/
	$(GO) test -run '^$$' -fuzz '^FuzzNormalizeURL$$' -fuzztime $(FUZZTIME) ./content/webpage/
	$(GO) test -run '^$$' -fuzz '^FuzzPageMeta$$' -fuzztime $(FUZZTIME) ./content/webpage/
	$(GO) test -run '^$$' -fuzz '^FuzzFrameBlocking$$' -fuzztime $(FUZZTIME) ./content/webpage/
	$(GO) test -run '^$$' -fuzz '^FuzzResolve$$' -fuzztime $(FUZZTIME) ./content/workspace/

clean:
	rm -rf $(BIN)
