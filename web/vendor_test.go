package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// vendoredRow is one row of the table in workbench/vendor/README.md.
type vendoredRow struct{ file, pkg, version, sha string }

var rowRE = regexp.MustCompile("^\\| `([^`]+)` \\| ([^ |]+) \\| ([^ |]+) \\| `[^`]+` \\| ([0-9a-f]{64}) \\|$")

func vendoredTable(t *testing.T) []vendoredRow {
	t.Helper()
	readme, err := os.ReadFile("workbench/vendor/README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []vendoredRow
	in := false
	for _, line := range strings.Split(string(readme), "\n") {
		switch {
		case strings.Contains(line, "<!-- vendored:begin -->"):
			in = true
		case strings.Contains(line, "<!-- vendored:end -->"):
			in = false
		case in && rowRE.MatchString(line):
			m := rowRE.FindStringSubmatch(line)
			rows = append(rows, vendoredRow{m[1], m[2], m[3], m[4]})
		}
	}
	if len(rows) == 0 {
		t.Fatal("vendor/README.md has no table of vendored files between its markers")
	}
	return rows
}

// The vendored files are the ones vendor/README.md names: each file's
// sha256 is the one in the table, every vendored module is in the table,
// and each package's version is the one refresh.sh pins (which is what it
// fetches). A hand-edited or half-refreshed vendor directory fails here.
func TestVendoredFilesAreTheNamedVersions(t *testing.T) {
	rows := vendoredTable(t)
	script, err := os.ReadFile("workbench/vendor/refresh.sh")
	if err != nil {
		t.Fatal(err)
	}
	pins := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(PREACT|SIGNALS|SIGNALS_CORE|HTM)=(\S+)$`).FindAllStringSubmatch(string(script), -1) {
		pins[m[1]] = m[2]
	}
	pinOf := map[string]string{"preact": "PREACT", "@preact/signals": "SIGNALS", "@preact/signals-core": "SIGNALS_CORE", "htm": "HTM"}
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r.file] = true
		pin, ok := pinOf[r.pkg]
		if !ok {
			t.Errorf("%s: package %s is not one refresh.sh fetches", r.file, r.pkg)
		} else if pins[pin] != r.version {
			t.Errorf("%s: README names %s %s, refresh.sh pins %s=%s", r.file, r.pkg, r.version, pin, pins[pin])
		}
		data, err := os.ReadFile("workbench/vendor/" + r.file)
		if err != nil {
			t.Errorf("%s: %v", r.file, err)
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != r.sha {
			t.Errorf("%s: sha256 %s, README names %s (%s %s); run vendor/refresh.sh", r.file, got, r.sha, r.pkg, r.version)
		}
	}
	entries, err := os.ReadDir("workbench/vendor")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".js") && !listed[e.Name()] {
			t.Errorf("vendor/%s is not in vendor/README.md's table", e.Name())
		}
	}
	for _, lic := range []string{"LICENSE-preact", "LICENSE-preact-signals", "LICENSE-htm"} {
		if _, err := os.Stat("workbench/vendor/" + lic); err != nil {
			t.Errorf("licence file: %v", err)
		}
	}
}

// Workbench serves the vendored modules beside the page's own, one level
// deep (the HTTP surface's /workbench/<name>); no page module shadows one,
// they import each other by those names, and nothing else of vendor/ (the
// README, the script, the licences) is served at the top.
func TestVendoredFilesAreServed(t *testing.T) {
	for _, r := range vendoredTable(t) {
		name := path.Base(r.file)
		if !VendorServed(name) {
			t.Errorf("vendor/%s is not served", name)
			continue
		}
		served, err := fs.ReadFile(Workbench, "vendor/"+name)
		if err != nil {
			t.Errorf("Workbench does not hold vendor/%s: %v", name, err)
			continue
		}
		for _, m := range regexp.MustCompile(`from"([^"]+)"`).FindAllStringSubmatch(string(served), -1) {
			if !strings.HasPrefix(m[1], "./") {
				t.Errorf("%s imports %q, a bare name the page cannot resolve", name, m[1])
			} else if _, err := fs.Stat(Workbench, "vendor/"+strings.TrimPrefix(m[1], "./")); err != nil {
				t.Errorf("%s imports %q, which is not served", name, m[1])
			}
		}
	}
	for _, name := range []string{"README.md", "refresh.sh", "LICENSE-htm"} {
		if VendorServed(name) {
			t.Errorf("vendor/%s is served", name)
		}
	}
}
