// Package skills bundles the repository's skill documents (one directory per
// skill, each with a SKILL.md) into the binary, so the MCP server can serve
// them as canvas://skills resources without files on disk.
package skills

import (
	"embed"
	"io/fs"
)

//go:embed */SKILL.md
var files embed.FS

// FS returns the bundled skills: <name>/SKILL.md for every skill.
func FS() fs.FS { return files }
