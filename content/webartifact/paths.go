package webartifact

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// within resolves p (absolute, or relative to root) and checks that it
// lies inside root; field names the option in the error ("projectPath",
// "outputPath"). The check is lexical: the caller, which owns the
// workspace, also confines paths through symbolic links.
func within(root, p, field string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, abs)
	}
	abs = filepath.Clean(abs)
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s %q is outside the workspace %s", field, p, root)
	}
	return abs, nil
}

// projectFile checks a project-relative file name from Options.Files and
// returns it cleaned, slash-separated: not empty, not absolute, no ".."
// that leaves the project, no backslash or NUL.
func projectFile(name string) (string, error) {
	switch {
	case name == "":
		return "", fmt.Errorf("files: empty path")
	case strings.ContainsAny(name, "\\\x00"):
		return "", fmt.Errorf("files: path %q has a backslash or NUL", name)
	case path.IsAbs(name) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return "", fmt.Errorf("files: path %q is absolute; want a path relative to the project", name)
	}
	clean := path.Clean(name)
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("files: path %q escapes the project", name)
	}
	if clean == "node_modules" || strings.HasPrefix(clean, "node_modules/") {
		return "", fmt.Errorf("files: path %q is inside node_modules", name)
	}
	return clean, nil
}

// workspaceRel is abs relative to root, slash-separated, for results.
func workspaceRel(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}
