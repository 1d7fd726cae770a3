// Package archtest keeps the architecture's import rules true: the domain
// core stays pure, surfaces talk to the actors only through the envelope,
// and the contract package depends on nothing but the standard library.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/pmxcanvas/pmx-canvas"

// rule forbids packages under from importing anything matching a prefix.
type rule struct {
	under     string
	forbidden []string
	why       string
}

var rules = []rule{
	{"content/", []string{module + "/actors", module + "/persistence", module + "/surfaces", module + "/pmxcanvas",
		module + "/domain", module + "/messages", "github.com/asynkron/", "github.com/gofiber/", "github.com/tidwall/"},
		"workspace content knows files, pages and parsers, not canvases, actors or transports"},
	{"domain/", []string{module + "/content/workspace", module + "/content/files", module + "/content/watch", module + "/content/webpage"},
		"the domain core may use the pure content parsers (unidiff), never the ones that do I/O"},
	{"domain/", []string{
		"github.com/gofiber/", "github.com/valyala/", "github.com/mark3labs/", "github.com/tidwall/",
		"github.com/asynkron/", "github.com/spf13/", "github.com/go-rod/", "net", "os", "io/fs", "database/",
		module + "/actors", module + "/persistence", module + "/surfaces", module + "/pmxcanvas",
	}, "the domain core is pure: plain functions over plain values, no I/O, no actors, no transports"},
	{"persistence", []string{module + "/actors", module + "/surfaces", module + "/pmxcanvas", "github.com/asynkron/", "github.com/gofiber/"},
		"the store knows records, not actors or transports"},
	{"actors", []string{module + "/surfaces", module + "/pmxcanvas", "github.com/gofiber/", "github.com/mark3labs/", "github.com/spf13/"},
		"actors never depend on a surface"},
	{"surfaces/http", []string{module + "/actors", module + "/persistence", module + "/domain", module + "/pmxcanvas", "github.com/asynkron/", "github.com/tidwall/"},
		"the HTTP surface speaks envelopes (messages.Invoker), not actor internals"},
	{"surfaces/mcp", []string{module + "/actors", module + "/persistence", module + "/domain", module + "/pmxcanvas", "github.com/asynkron/", "github.com/tidwall/", "github.com/gofiber/"},
		"the MCP surface speaks envelopes (messages.Invoker), not actor internals"},
	{"surfaces/remote", []string{module + "/actors", module + "/persistence", module + "/domain", module + "/pmxcanvas", module + "/surfaces/http", module + "/surfaces/mcp", "github.com/asynkron/", "github.com/tidwall/", "github.com/gofiber/"},
		"the remote invoker is an HTTP client of the contract, nothing else"},
	{"surfaces/cli", []string{module + "/actors", module + "/persistence", module + "/domain", "github.com/asynkron/", "github.com/tidwall/"},
		"the CLI reaches the server through pmxcanvas or HTTP, never actor internals"},
	{"internal/jsonobj", []string{module, "github.com/", "golang.org/"},
		"the ordered JSON object is a leaf every layer may use: standard library only"},
	{"internal/jsonnum", []string{module, "github.com/", "golang.org/"},
		"the JSON number reader is a leaf every layer may use: standard library only"},
}

// pureStdlib are standard packages under forbidden prefixes that do no I/O.
var pureStdlib = map[string]bool{"net/url": true, "net/netip": true}

func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module+"/")
		for _, r := range rules {
			if !strings.HasPrefix(pkg, r.under) {
				continue
			}
			checked++
			for _, imp := range fields[1:] {
				if pureStdlib[imp] {
					continue
				}
				for _, f := range r.forbidden {
					if imp == f || strings.HasPrefix(imp, f+"/") || (strings.HasSuffix(f, "/") && strings.HasPrefix(imp, f)) {
						t.Errorf("%s imports %s: %s", pkg, imp, r.why)
					}
				}
			}
		}
	}
	if checked < 4 {
		t.Fatalf("only %d packages matched the rules; did the layout change?", checked)
	}
}

// messages is the contract: standard library only.
func TestMessagesUsesOnlyTheStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", module+"/messages").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(strings.Split(imp, "/")[0], ".") {
			t.Errorf("messages imports %s", imp)
		}
	}
}
