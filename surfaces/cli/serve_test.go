package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/pmxcanvas/pmx-canvas/messages"
)

func TestResolvePort(t *testing.T) {
	tests := []struct {
		name          string
		flag          string
		env, envAlias string
		want          int
		wantErr       bool
	}{
		{name: "default", want: 4313},
		{name: "reference alias", envAlias: "4400", want: 4400},
		{name: "PMX_CANVAS_PORT wins over the alias", env: "4500", envAlias: "4400", want: 4500},
		{name: "flag wins over env", flag: "4600", env: "4500", want: 4600},
		{name: "bad env", env: "http", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PMX_CANVAS_PORT", tc.env)
			t.Setenv("PMX_WEB_CANVAS_PORT", tc.envAlias)
			cmd := &cobra.Command{}
			var port int
			cmd.Flags().IntVar(&port, "port", 0, "")
			if tc.flag != "" {
				_ = cmd.Flags().Set("port", tc.flag)
			}
			got, err := resolvePort(cmd, port)
			if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
				t.Fatalf("resolvePort = %d, %v; want %d (err %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestVersionAndHelp(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Execute([]string{"--version"}, &out, &errOut); code != 0 || strings.TrimSpace(out.String()) != messages.Version {
		t.Fatalf("--version: code %d out %q err %q", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := Execute([]string{"serve", "--help"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "--workspace") || !strings.Contains(out.String(), "Examples:") {
		t.Fatalf("serve --help: %q", out.String())
	}
	if code := Execute([]string{"serve", "stray"}, &out, &errOut); code != 1 {
		t.Fatalf("a stray argument must fail, code %d", code)
	}
}
