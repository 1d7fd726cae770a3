package mcpapp

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
)

// StorageShim is the script PrepareHTML puts first in an app's <head>. An
// app in a sandboxed iframe without allow-same-origin has an opaque origin,
// where merely reading window.localStorage or window.sessionStorage throws a
// SecurityError and breaks apps (and their libraries) that assume storage.
// The shim probes each one and, when it throws, replaces it with an
// in-memory Storage that lasts as long as the page.
const StorageShim = `<script data-pmx-storage-shim>(function(){` +
	`function memory(){var d=Object.create(null);return{` +
	`get length(){return Object.keys(d).length},` +
	`key:function(i){var k=Object.keys(d);return i>=0&&i<k.length?k[i]:null},` +
	`getItem:function(k){k=String(k);return k in d?d[k]:null},` +
	`setItem:function(k,v){d[String(k)]=String(v)},` +
	`removeItem:function(k){delete d[String(k)]},` +
	`clear:function(){d=Object.create(null)}}}` +
	`["localStorage","sessionStorage"].forEach(function(n){` +
	`try{var s=window[n],p="__pmx_storage_probe__";s.setItem(p,p);s.removeItem(p);return}catch(e){}` +
	`try{Object.defineProperty(window,n,{value:memory(),configurable:true,enumerable:true})}catch(e){}` +
	`})})();</script>`

// PrepareHTML readies an MCP App's HTML for a sandboxed iframe. It puts, as
// the very first thing inside <head> (creating a <head> when there is none),
// the StorageShim and, when meta (the resource content's _meta.ui) declares
// csp, the Content-Security-Policy <meta> CSP builds. Being first matters: a
// CSP <meta> governs only what follows it, and the shim must run before the
// app's own scripts. Everything else is left byte for byte as it was.
func PrepareHTML(doc string, meta json.RawMessage) string {
	inject := StorageShim
	if policy, ok := CSP(meta); ok {
		inject = `<meta http-equiv="Content-Security-Policy" content="` + escapeAttr(policy) + `">` + inject
	}
	at, wrap := headInsertion(doc)
	if wrap {
		inject = "<head>" + inject + "</head>"
	}
	return doc[:at] + inject + doc[at:]
}

// headInsertion finds where the injection goes: right after the <head> start
// tag when the document has one before any content; otherwise (wrap) a new
// <head> goes after the doctype, comments, whitespace and <html> start tag,
// before the first thing that would have implied a head. It uses the HTML
// tokenizer so a "<head>" inside a comment is not mistaken for one.
func headInsertion(doc string) (at int, wrap bool) {
	z := html.NewTokenizer(strings.NewReader(doc))
	offset := 0
	for {
		tt := z.Next()
		raw := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return offset, true
		case html.DoctypeToken, html.CommentToken:
		case html.TextToken:
			if strings.TrimLeft(string(z.Raw()), " \t\r\n\f") != "" {
				return offset, true
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "html":
			case "head":
				return offset + raw, false
			default:
				return offset, true
			}
		default: // an end tag before any content: put the head before it
			return offset, true
		}
		offset += raw
	}
}

// CSP builds the Content-Security-Policy the MCP Apps spec asks hosts to
// enforce for a UI resource, from meta (the resource content's _meta.ui).
// ok is false when meta declares no csp (or is not a JSON object): then no
// policy is imposed. A csp that is there but malformed gets the strictest
// policy: a list that is not a list of strings counts as empty, and entries
// that could break out of their directive (see validSource) are skipped.
func CSP(meta json.RawMessage) (policy string, ok bool) {
	var ui map[string]json.RawMessage
	if len(meta) == 0 || json.Unmarshal(meta, &ui) != nil {
		return "", false
	}
	raw, declared := ui["csp"]
	if !declared || string(raw) == "null" {
		return "", false
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields) // not an object: no domains at all
	list := func(key string) []string {
		var l []any
		_ = json.Unmarshal(fields[key], &l)
		return sources(l)
	}
	resource := list("resourceDomains")

	directives := []string{
		"default-src 'none'",
		directive("script-src", []string{"'self'", "'unsafe-inline'"}, resource, ""),
		directive("style-src", []string{"'self'", "'unsafe-inline'"}, resource, ""),
		directive("img-src", []string{"'self'", "data:"}, resource, ""),
		directive("font-src", []string{"'self'", "data:"}, resource, ""),
		directive("media-src", []string{"'self'", "data:"}, resource, ""),
		directive("connect-src", nil, list("connectDomains"), "'none'"),
		directive("frame-src", nil, list("frameDomains"), "'none'"),
		"object-src 'none'",
		directive("base-uri", nil, list("baseUriDomains"), "'self'"),
	}
	return strings.Join(directives, "; "), true
}

// directive joins fixed and declared sources, or uses fallback when both
// are empty.
func directive(name string, fixed, declared []string, fallback string) string {
	all := append(append([]string{name}, fixed...), declared...)
	if len(all) == 1 {
		all = append(all, fallback)
	}
	return strings.Join(all, " ")
}

// sources keeps the valid, distinct string entries of a declared list.
func sources(list []any) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range list {
		s, ok := v.(string)
		if !ok || !validSource(s) || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// validSource accepts a declared origin such as "https://cdn.example.com"
// or "https://*.example.com" and refuses anything that could inject into
// the policy or the <meta> it sits in: separators (; ,), quotes (which would
// also let a server smuggle keywords like 'unsafe-eval'), whitespace and
// control characters, angle brackets, backslashes and non-ASCII.
func validSource(s string) bool {
	if s == "" || len(s) > 2048 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			return false
		}
		switch c {
		case ';', ',', '\'', '"', '`', '<', '>', '\\':
			return false
		}
	}
	return true
}

// escapeAttr escapes a double-quoted attribute value. validSource already
// keeps quotes and angle brackets out; & is escaped so the value reads back
// exactly.
func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}
