package codegraph

import (
	"reflect"
	"strings"
	"testing"
)

func TestImportsPython(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"import dotted", "import a.b.c\n", []string{"import a.b.c"}},
		{"import list with alias", "import a, b as c, d.e as f\n", []string{"import a", "import b", "import d.e"}},
		{"from import", "from x.y import z, w as v\n", []string{"from x.y [z,w]"}},
		{"from import parenthesized over lines", "from pkg import (\n    one,\n    two,  # comment\n)\n", []string{"from pkg [one,two]"}},
		{"relative", "from . import sib\nfrom .. import up\nfrom ..pkg import y\nfrom .mod import *\n",
			[]string{"from . [sib]", "from .. [up]", "from ..pkg [y]", "from .mod [*]"}},
		{"line continuation", "import a.\\\n    b\nfrom c \\\n  import d\n", []string{"import a.b", "from c [d]"}},
		{"inside functions, try and if", "def f():\n    import json\n    try:\n        from yaml import safe_load\n    except ImportError:\n        pass\nif X:\n    import toml\n",
			[]string{"import json", "from yaml [safe_load]", "import toml"}},
		{"strings and comments do not count", "s = 'import os'\nt = \"\"\"\nimport sys\nfrom a import b\n\"\"\"\nu = f'{x} import y'\nv = rb'import z'\n# import w\n",
			[]string{}},
		{"inside class, with, match and decorated function", "class C:\n    import a\n    with x:\n        import b\n@d\ndef f():\n    match v:\n        case 1:\n            import c\n",
			[]string{"import a", "import b", "import c"}},
		{"__future__ is not a module", "from __future__ import annotations\nimport os\n", []string{"import os"}},
		{"repeats collapse", "import os\nimport os\n", []string{"import os"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imps, err := Imports("m.py", tt.src)
			if err != nil {
				t.Fatalf("Imports: %v", err)
			}
			if got := specs(imps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestImportsPythonSyntaxError(t *testing.T) {
	src := "import os\ndef f(:\n    pass\nfrom pkg import mod\n"
	imps, err := Imports("src/m.py", src)
	if err == nil || !strings.Contains(err.Error(), "src/m.py at 2:") {
		t.Fatalf("error = %v, want one naming src/m.py at line 2", err)
	}
	got := specs(imps)
	if len(got) == 0 || got[0] != "import os" {
		t.Errorf("imports = %q, want import os kept", got)
	}
}
