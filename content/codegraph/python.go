package codegraph

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	sitterpython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// pythonLanguage is the tree-sitter Python grammar; a Language is
// immutable and may be shared by parsers on any goroutine.
var pythonLanguage = sitter.NewLanguage(sitterpython.Language())

// pythonImports returns the import and from-import statements of a Python
// file, wherever they are (inside functions, try blocks, if blocks).
// Tree-sitter recovers from syntax errors, so the imports outside the
// broken region are still returned with the error.
func pythonImports(name, content string) ([]Import, error) {
	// A parser holds C memory that only Close frees, and is not safe for
	// concurrent use; one per call is cheap next to the parse itself.
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(pythonLanguage); err != nil {
		return nil, fmt.Errorf("codegraph: python grammar for %s: %w", name, err)
	}
	src := []byte(content)
	// Parse copies each chunk the reader returns into C memory; bounded
	// chunks keep that linear (Parser.Parse hands over the whole rest of
	// the text each time).
	tree := p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i >= len(src) {
			return nil
		}
		return src[i:min(i+pyChunk, len(src))]
	}, nil, nil)
	if tree == nil {
		return nil, fmt.Errorf("codegraph: python parser gave no tree for %s", name)
	}
	defer tree.Close()

	var set importSet
	root := tree.RootNode()
	c := root.Walk()
	defer c.Close()
	// Depth-first over statements only: every node visited costs a cgo
	// call, and imports are statements, so expressions are not entered.
	for {
		n := c.Node()
		kind := n.Kind()
		switch kind {
		case "import_statement":
			pyImportStatement(n, src, &set)
		case "import_from_statement":
			pyFromStatement(n, src, &set)
		}
		if pyContainers[kind] && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				goto done
			}
		}
	}
done:
	if root.HasError() {
		return set.list, fmt.Errorf("codegraph: python syntax error in %s at %s", name, firstPyError(root))
	}
	return set.list, nil
}

// pyChunk is how many bytes of source the parser reads at a time.
const pyChunk = 16 << 10

// pyContainers are the node kinds that may hold statements, directly or
// through a block; ERROR nodes too, since tree-sitter keeps the statements
// it recovered inside them.
var pyContainers = map[string]bool{
	"module": true, "block": true, "ERROR": true,
	"if_statement": true, "elif_clause": true, "else_clause": true,
	"for_statement": true, "while_statement": true, "with_statement": true,
	"try_statement": true, "except_clause": true, "except_group_clause": true, "finally_clause": true,
	"function_definition": true, "class_definition": true, "decorated_definition": true,
	"match_statement": true, "case_clause": true,
}

// pyImportStatement handles "import a.b, c as d".
func pyImportStatement(n *sitter.Node, src []byte, set *importSet) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		ch := n.NamedChild(i)
		if n.FieldNameForNamedChild(uint32(i)) != "name" {
			continue
		}
		if mod := pyModuleName(ch, src); mod != "" {
			set.add(Import{Spec: mod, Kind: KindImport})
		}
	}
}

// pyFromStatement handles "from x import a, b", "from . import (a,\n b)",
// "from ..pkg import *".
func pyFromStatement(n *sitter.Node, src []byte, set *importSet) {
	mod := n.ChildByFieldName("module_name")
	if mod == nil {
		return
	}
	var spec string
	switch mod.Kind() {
	case "relative_import":
		for i := uint(0); i < mod.NamedChildCount(); i++ {
			ch := mod.NamedChild(i)
			switch ch.Kind() {
			case "import_prefix":
				spec += strings.Join(strings.Fields(ch.Utf8Text(src)), "")
			case "dotted_name":
				spec += dottedText(ch, src)
			}
		}
	case "dotted_name":
		spec = dottedText(mod, src)
	}
	if spec == "" || spec == "__future__" {
		return
	}
	var names []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		ch := n.NamedChild(i)
		if ch.Kind() == "wildcard_import" {
			names = append(names, "*")
			continue
		}
		if n.FieldNameForNamedChild(uint32(i)) != "name" {
			continue
		}
		if name := pyModuleName(ch, src); name != "" {
			names = append(names, name)
		}
	}
	set.add(Import{Spec: spec, Kind: KindFrom, Names: names})
}

// pyModuleName returns the dotted name of a dotted_name or the imported
// name of an aliased_import ("a.b as c" → "a.b").
func pyModuleName(n *sitter.Node, src []byte) string {
	switch n.Kind() {
	case "dotted_name":
		return dottedText(n, src)
	case "aliased_import":
		if name := n.ChildByFieldName("name"); name != nil {
			return dottedText(name, src)
		}
	}
	return ""
}

// dottedText joins the identifiers of a dotted_name, dropping the spaces,
// comments and line continuations that Python allows between them.
func dottedText(n *sitter.Node, src []byte) string {
	var parts []string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if ch := n.NamedChild(i); ch.Kind() == "identifier" {
			parts = append(parts, ch.Utf8Text(src))
		}
	}
	return strings.Join(parts, ".")
}

// firstPyError returns "line:column" (1-based) of the first error or
// missing node below n.
func firstPyError(n *sitter.Node) string {
	var find func(n *sitter.Node) *sitter.Node
	find = func(n *sitter.Node) *sitter.Node {
		if n.IsError() || n.IsMissing() {
			return n
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			if ch := n.Child(i); ch.HasError() {
				if e := find(ch); e != nil {
					return e
				}
			}
		}
		return nil
	}
	e := find(n)
	if e == nil {
		e = n
	}
	pt := e.StartPosition()
	return fmt.Sprintf("%d:%d", pt.Row+1, pt.Column+1)
}
