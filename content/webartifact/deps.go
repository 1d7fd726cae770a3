package webartifact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
)

// depPattern is an npm package name (optionally scoped) with an optional
// @version, range or dist-tag. Names follow npm's rules for new packages:
// lowercase, URL-safe, not starting with "." or "_"; a version is made of
// the characters of semver ranges only. Leading "-" (a flag), "/", ":" and
// "\" (paths, URLs, git specs) never match.
var depPattern = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9^~<>=*.+|-][A-Za-z0-9^~<>=*.+|-]*)?$`)

// maxDepName is npm's limit on a package name; a version adds at most
// maxDepVersion more.
const (
	maxDepName    = 214
	maxDepVersion = 64
)

// ValidateDep reports whether dep is an npm package name with an optional
// @version (react-router, @tanstack/react-query@5, lodash@^4.17.0) and
// nothing else: no flags, no paths, no URLs, no git or file specs. It is
// the only thing that stands between an agent's input and npm's command
// line.
func ValidateDep(dep string) error {
	if !depPattern.MatchString(dep) {
		return fmt.Errorf("invalid dep %q: want an npm package name with an optional @version", dep)
	}
	name, version := dep, ""
	if i := strings.LastIndex(dep, "@"); i > 0 {
		name, version = dep[:i], dep[i+1:]
	}
	if len(name) > maxDepName || len(version) > maxDepVersion {
		return fmt.Errorf("invalid dep %q: too long", dep)
	}
	return nil
}

// errNoNpm says the build needs npm and the PATH has none.
var errNoNpm = errors.New("npm is required to install deps but was not found on PATH")

// installDeps runs npm install for deps in dir, where the project's
// package.json is, and returns npm's output. Install scripts are not run.
func installDeps(ctx context.Context, dir string, deps []string) (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("%w (deps %s)", errNoNpm, strings.Join(deps, " "))
	}
	args := append([]string{"install", "--ignore-scripts", "--no-audit", "--no-fund", "--"}, deps...)
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return out.String(), fmt.Errorf("npm install %s: %w\n%s", strings.Join(deps, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}
