package codegraph

import (
	"reflect"
	"strings"
	"testing"
)

func TestImportsRust(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"mod declarations", "mod a;\npub mod b;\npub(crate) mod c;\nmod inline { fn f() {} }\n#[cfg(test)]\nmod tests;\n",
			[]string{"mod a", "mod b", "mod c", "mod tests"}},
		{"use paths", "use crate::a::b;\nuse super::c::D;\nuse self::e::*;\nuse std::io::Read;\npub use crate::f as g;\n",
			[]string{"use crate::a::b", "use super::c::D", "use self::e", "use crate::f"}},
		{"use groups", "use crate::{a::{b, c}, d, self};\nuse super::{self as s, x::Y};\n",
			[]string{"use crate::a::b", "use crate::a::c", "use crate::d", "use crate", "use super", "use super::x::Y"}},
		{"strings, raw strings, chars and comments do not count", "let s = \"mod x;\";\nlet r = r#\"use crate::y;\"#;\nlet c = '\\'';\nlet l: &'static str = \"\";\n// mod z;\n/* outer /* nested mod w; */ use crate::v; */\nmod real;\n",
			[]string{"mod real"}},
		{"multi-line use", "use crate::{\n    a,\n    // comment\n    b::C,\n};\n", []string{"use crate::a", "use crate::b::C"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imps, err := Imports("src/lib.rs", tt.src)
			if err != nil {
				t.Fatalf("Imports: %v", err)
			}
			if got := specs(imps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestImportsRustUnterminated(t *testing.T) {
	imps, err := Imports("src/lib.rs", "mod a;\n/* never closed\nmod b;\n")
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error = %v, want one naming line 2", err)
	}
	if got := specs(imps); !reflect.DeepEqual(got, []string{"mod a"}) {
		t.Errorf("imports = %q, want mod a", got)
	}
}

func TestImportsOtherExtension(t *testing.T) {
	for _, p := range []string{"README.md", "style.css", "Makefile", "data.json"} {
		imps, err := Imports(p, "import x from './y'\nimport os\n")
		if imps != nil || err != nil {
			t.Errorf("Imports(%q) = %v, %v; want nothing", p, imps, err)
		}
	}
}
