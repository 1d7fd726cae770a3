package codegraph

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// jsSuffixes are tried, in order, after a specifier's resolved base path;
// the list is the reference implementation's, Python, Go and Rust included.
var jsSuffixes = []string{"", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".mts",
	"/index.ts", "/index.tsx", "/index.js", "/index.jsx", ".py", ".go", ".rs"}

// jsRewrites map a written extension to the source extensions it may be
// compiled from (TypeScript's ESM convention: import './a.js' means a.ts).
var jsRewrites = map[string][]string{
	".js":  {".ts", ".tsx"},
	".jsx": {".tsx"},
	".mjs": {".mts"},
	".cjs": {".cts"},
}

// resolver answers which file-node paths an import names. It looks only at
// the set of paths it was built from, never at the disk.
type resolver struct {
	root   string
	paths  map[string]bool     // every file-node path
	goDirs map[string][]string // directory → its non-test .go file paths, sorted
	goMods []goModule          // longest module path first
}

type goModule struct{ path, dir string }

// newResolver indexes the paths (absolute, clean, slash-separated) of all
// file nodes; goMods are the go.mod files among them with their content.
func newResolver(root string, paths []string, goMods map[string]string) *resolver {
	r := &resolver{root: root, paths: make(map[string]bool), goDirs: make(map[string][]string)}
	for _, p := range paths {
		if r.paths[p] {
			continue
		}
		r.paths[p] = true
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			d := path.Dir(p)
			r.goDirs[d] = append(r.goDirs[d], p)
		}
	}
	for _, files := range r.goDirs {
		sort.Strings(files)
	}
	for p, content := range goMods {
		if mp := goModulePath(content); mp != "" {
			r.goMods = append(r.goMods, goModule{path: mp, dir: path.Dir(p)})
		}
	}
	sort.Slice(r.goMods, func(i, j int) bool {
		a, b := r.goMods[i], r.goMods[j]
		if len(a.path) != len(b.path) {
			return len(a.path) > len(b.path)
		}
		return a.dir < b.dir
	})
	return r
}

// resolve returns the file-node paths that imp, found in the file at from,
// refers to; none when it names nothing on the board.
func (r *resolver) resolve(from string, lang language, imp Import) []string {
	switch lang {
	case langGo:
		return r.resolveGo(from, imp.Spec)
	case langPython:
		return r.resolvePython(from, imp)
	case langRust:
		return r.resolveRust(from, imp)
	}
	if p, ok := r.resolveJS(path.Dir(from), imp.Spec); ok {
		return []string{p}
	}
	return nil
}

// resolveJS applies the reference rules: a relative or absolute specifier
// is taken from the importing file's directory, a bare one holding "/" and
// not starting with "@" (a scoped package) from the workspace root; then
// the suffixes, then the extension rewrites, are tried.
func (r *resolver) resolveJS(dir, spec string) (string, bool) {
	if i := strings.IndexAny(spec, "?#"); i >= 0 {
		spec = spec[:i]
	}
	var base string
	switch {
	case spec == "":
		return "", false
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		base = path.Join(dir, spec)
	case strings.HasPrefix(spec, "/"):
		base = path.Clean(spec)
	case strings.Contains(spec, "/") && !strings.HasPrefix(spec, "@"):
		base = path.Join(r.root, spec)
	default:
		return "", false
	}
	for _, s := range jsSuffixes {
		if r.paths[base+s] {
			return base + s, true
		}
	}
	ext := path.Ext(base)
	for _, to := range jsRewrites[ext] {
		if p := strings.TrimSuffix(base, ext) + to; r.paths[p] {
			return p, true
		}
	}
	return "", false
}

// resolvePython maps a dotted module to a/b.py or a/b/__init__.py, from
// the root and then from the importing file's directory; a relative module
// ("..pkg") climbs one package per dot after the first. For a from-import
// each imported name that is itself a module resolves to that module; the
// module imported from is the target when a name is not a module.
func (r *resolver) resolvePython(from string, imp Import) []string {
	if imp.Kind != KindFrom {
		if p, ok := r.pyModule(from, imp.Spec); ok {
			return []string{p}
		}
		return nil
	}
	var out []string
	needModule := len(imp.Names) == 0
	for _, n := range imp.Names {
		if n == "*" {
			needModule = true
			continue
		}
		sub := imp.Spec + "." + n
		if strings.HasSuffix(imp.Spec, ".") {
			sub = imp.Spec + n
		}
		if p, ok := r.pyModule(from, sub); ok {
			out = append(out, p)
		} else {
			needModule = true
		}
	}
	if needModule {
		if p, ok := r.pyModule(from, imp.Spec); ok {
			out = append(out, p)
		}
	}
	return out
}

func (r *resolver) pyModule(from, spec string) (string, bool) {
	dots := len(spec) - len(strings.TrimLeft(spec, "."))
	rest := strings.ReplaceAll(spec[dots:], ".", "/")
	var bases []string
	if dots > 0 {
		base := path.Dir(from)
		for i := 1; i < dots; i++ {
			base = path.Dir(base)
		}
		bases = []string{base}
	} else {
		if rest == "" {
			return "", false
		}
		bases = []string{r.root, path.Dir(from)}
	}
	for _, b := range bases {
		p := path.Join(b, rest)
		cands := []string{p + ".py", p + "/__init__.py", p + ".pyi"}
		if rest == "" {
			cands = []string{path.Join(b, "__init__.py")}
		}
		for _, c := range cands {
			if r.paths[c] {
				return c, true
			}
		}
	}
	return "", false
}

// resolveGo maps an import path to the .go files (tests excluded) of one
// directory: the one a go.mod on the board puts it in, or else the
// directory whose root-relative path is the longest suffix of the import
// path. Only paths whose first element has a dot take the suffix rule, so
// that standard packages ("errors", "net/http") never match a workspace
// directory of the same name. A package does not import itself, except from
// its external tests.
func (r *resolver) resolveGo(from, spec string) []string {
	dir := ""
	for _, m := range r.goMods {
		if spec == m.path {
			dir = m.dir
		} else if rest, ok := strings.CutPrefix(spec, m.path+"/"); ok {
			dir = path.Join(m.dir, rest)
		}
		if dir != "" {
			break
		}
	}
	if dir == "" || len(r.goDirs[dir]) == 0 {
		dir = ""
		first, _, _ := strings.Cut(spec, "/")
		if strings.Contains(first, ".") {
			parts := strings.Split(spec, "/")
			for k := range parts {
				d := path.Join(r.root, strings.Join(parts[k:], "/"))
				if d != r.root && within(r.root, d) && len(r.goDirs[d]) > 0 {
					dir = d
					break
				}
			}
		}
	}
	if dir == "" || dir == path.Dir(from) && !strings.HasSuffix(from, "_test.go") {
		return nil
	}
	return r.goDirs[dir]
}

// resolveRust maps "mod x;" to x.rs or x/mod.rs beside the declaring
// module, and a use path to the deepest module file it names (crate:: from
// the nearest directory above holding lib.rs or main.rs; self:: and
// super:: from the current module), or else to the module it starts in.
func (r *resolver) resolveRust(from string, imp Import) []string {
	dir := path.Dir(from)
	stem := strings.TrimSuffix(path.Base(from), ".rs")
	modDir := dir // the directory of this module's child modules
	if stem != "mod" && stem != "lib" && stem != "main" {
		modDir = path.Join(dir, stem)
	}
	if imp.Kind == KindMod {
		for _, d := range []string{modDir, dir} {
			for _, c := range []string{path.Join(d, imp.Spec+".rs"), path.Join(d, imp.Spec, "mod.rs")} {
				if r.paths[c] {
					return []string{c}
				}
			}
		}
		return nil
	}
	segs := strings.Split(imp.Spec, "::")
	var base string
	switch segs[0] {
	case "crate":
		base = dir
		for d := dir; ; d = path.Dir(d) {
			if r.paths[path.Join(d, "lib.rs")] || r.paths[path.Join(d, "main.rs")] {
				base = d
				break
			}
			if d == r.root || d == path.Dir(d) {
				break
			}
		}
	case "self":
		base = modDir
	case "super":
		base = path.Dir(modDir)
	default:
		return nil
	}
	segs = segs[1:]
	for len(segs) > 0 && segs[0] == "super" {
		base = path.Dir(base)
		segs = segs[1:]
	}
	best := ""
	cur := base
	for _, s := range segs {
		cur = path.Join(cur, s)
		if c := cur + ".rs"; r.paths[c] {
			best = c
		} else if c := path.Join(cur, "mod.rs"); r.paths[c] {
			best = c
		} else {
			break
		}
	}
	if best == "" {
		for _, c := range []string{base + ".rs", path.Join(base, "mod.rs"), path.Join(base, "lib.rs"), path.Join(base, "main.rs")} {
			if r.paths[c] && c != from {
				best = c
				break
			}
		}
	}
	if best == "" {
		return nil
	}
	return []string{best}
}

// goModulePath returns the module path declared in go.mod content, or "".
func goModulePath(content string) string {
	for _, line := range strings.Split(content, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			if p, err := strconv.Unquote(f[1]); err == nil {
				return p
			}
			return f[1]
		}
	}
	return ""
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
