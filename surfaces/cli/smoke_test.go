package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestSmokePasses(t *testing.T) {
	code, out, errOut := dwExecute("smoke")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var rep smokeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	if !rep.OK || len(rep.Checks) != 11 {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Checks {
		if !c.OK || c.Error != "" {
			t.Errorf("check %+v", c)
		}
	}
	if !strings.Contains(errOut, "11/11 checks passed") || !strings.Contains(errOut, "PASS  mcp: tool call") {
		t.Fatalf("table:\n%s", errOut)
	}
	if _, err := os.Stat(rep.Workspace); !os.IsNotExist(err) {
		t.Fatalf("the temporary workspace %s is left behind (%v)", rep.Workspace, err)
	}
}

func TestSmokeTableAndFailure(t *testing.T) {
	r := &smokeRun{}
	r.step("one", func() error { return nil })
	r.step("two", func() error { panic("boom") })
	r.step("three", func() error { t.Fatal("a step after a failure ran"); return nil })
	if !r.checks[0].OK || r.checks[1].OK || r.checks[1].Error != "panic: boom" || r.checks[2].Error != "skipped: an earlier check failed" {
		t.Fatalf("checks %+v", r.checks)
	}
	var buf bytes.Buffer
	writeSmokeTable(&buf, &smokeReport{Version: "v", Workspace: "/w", URL: "u", Checks: r.checks})
	want := "pmx-canvas v smoke test (workspace /w, u)\n" +
		"  PASS  one        0ms\n" +
		"  FAIL  two        0ms  panic: boom\n" +
		"  FAIL  three      0ms  skipped: an earlier check failed\n" +
		"1/3 checks passed\n"
	if buf.String() != want {
		t.Fatalf("table\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestSmokeFailureExitsOne(t *testing.T) {
	code, out, errOut := dwExecute("smoke", "--quiet", "--timeout", "1ns")
	var rep smokeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.OK {
		t.Fatalf("exit %d, report %+v (%v)", code, rep, err)
	}
	if !rep.Checks[0].OK || rep.Checks[1].OK || !strings.Contains(rep.Checks[1].Error, "deadline exceeded") {
		t.Fatalf("checks %+v", rep.Checks)
	}
	if !strings.HasPrefix(errOut, `{"error":"smoke: check \"http: health\" failed: Get \"http://127.0.0.1:`) {
		t.Fatalf("stderr %q", errOut)
	}
}
