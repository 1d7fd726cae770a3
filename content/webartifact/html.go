package webartifact

import (
	"regexp"
	"strings"
)

// defaultIndexHTML is the page of an artifact that brings none.
const defaultIndexHTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title></title>
</head>
<body>
<div id="root"></div>
</body>
</html>
`

// defaultMainTsx renders App into #root; withCSS adds the index.css import.
func defaultMainTsx(withCSS bool) string {
	css := ""
	if withCSS {
		css = "import './index.css';\n"
	}
	return `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
` + css + `import App from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`
}

// localRef matches the script and stylesheet tags a Vite-style index.html
// uses to load the project's own sources (src="/src/main.tsx",
// href="./src/index.css"); the bundle replaces them. Tags that load from
// another origin are left alone.
var localRef = regexp.MustCompile(`(?is)<script\b[^>]*\bsrc\s*=\s*["'](?:\.?/)?src/[^"']*["'][^>]*>\s*</script\s*>|<link\b[^>]*\bhref\s*=\s*["'](?:\.?/)?src/[^"']*\.css["'][^>]*>`)

var (
	closeScript = regexp.MustCompile(`(?i)</(script)`)
	closeStyle  = regexp.MustCompile(`(?i)</(style)`)
	titleTag    = regexp.MustCompile(`(?is)<title>\s*</title>`)
)

// inline puts css and js into page: a <style> before </head> and the
// script at the end of <body>, after the #root element it renders into.
// "</script" and "</style" inside the code are escaped so they cannot
// close the element early. An empty <title> gets title.
func inline(page, title, js, css string) string {
	page = localRef.ReplaceAllString(page, "")
	page = titleTag.ReplaceAllLiteralString(page, "<title>"+htmlEscape(title)+"</title>")
	if css != "" {
		style := "<style>\n" + closeStyle.ReplaceAllString(css, `<\/$1`) + "</style>\n"
		page = insertBefore(page, "</head>", style, true)
	}
	if js != "" {
		script := "<script>\n" + closeScript.ReplaceAllString(js, `<\/$1`) + "</script>\n"
		page = insertBefore(page, "</body>", script, false)
	}
	return page
}

// insertBefore inserts s before the last tag (case-insensitive) in page;
// without one it prepends s (head) or appends it (body).
func insertBefore(page, tag, s string, head bool) string {
	if i := strings.LastIndex(strings.ToLower(page), tag); i >= 0 {
		return page[:i] + s + page[i:]
	}
	if head {
		return s + page
	}
	return page + s
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
