package primitives

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"strings"
	"sync"
)

// Result is a built primitive: the HTML document to store in an html
// node and the metadata the node keeps beside it.
type Result struct {
	Kind  string
	Title string // the given title, else the descriptor's
	// HTML is a complete, self-contained document: it links nothing and
	// loads nothing, so it works in a sandboxed frame with no network.
	HTML string
	// PrimitiveData is a copy of the data with deck metadata added; it is
	// what the node stores as primitiveData.
	PrimitiveData map[string]any
	// Summary is the descriptor's description, plus " Slides: <titles>."
	// for a deck or presentation.
	Summary     string
	DefaultSize Size

	// Presentation metadata, set for deck and presentation only.
	Presentation      bool
	SlideCount        int
	SlideTitles       []string
	SpeakerNotes      []string
	PresentationTheme any // a theme name, a theme object, or nil
}

//go:embed templates
var templateFiles embed.FS

// templateOf names the template file of each kind that does not have its
// own.
var templateOf = map[string]string{"presentation": "deck"}

func templateName(kind string) string {
	if t, ok := templateOf[kind]; ok {
		return t
	}
	return kind
}

// templates holds one parsed template set per kind: the shared page with
// the kind's body.
var templates = map[string]*template.Template{}

// baseCSS and kindCSS, kindJS are the stylesheets and scripts, kept as
// trusted CSS and JS because they are the package's own files.
var (
	baseCSS template.CSS
	baseJS  template.JS
	kindCSS = map[string]template.CSS{}
	kindJS  = map[string]template.JS{}
)

// load parses the templates on first use, not at start: a server that
// never builds a primitive does not hold them (about 1.2 MB).
var load = sync.OnceFunc(func() {
	funcs := template.FuncMap{"add": func(a, b int) int { return a + b }}
	base := template.Must(template.New("page").Funcs(funcs).ParseFS(templateFiles, "templates/page.tmpl"))
	baseCSS = template.CSS(mustRead("templates/base.css"))
	for _, d := range descriptors {
		name := templateName(d.Kind)
		t := template.Must(template.Must(base.Clone()).ParseFS(templateFiles, "templates/"+name+".tmpl"))
		templates[d.Kind] = t
		if css, err := templateFiles.ReadFile("templates/" + name + ".css"); err == nil {
			kindCSS[d.Kind] = template.CSS(css)
		}
		if js, err := templateFiles.ReadFile("templates/" + name + ".js"); err == nil {
			kindJS[d.Kind] = template.JS(js)
		}
	}
	baseJS = template.JS(mustRead("templates/copy.js"))
})

func mustRead(name string) string {
	b, err := templateFiles.ReadFile(name)
	if err != nil {
		panic("primitives: " + err.Error())
	}
	return string(b)
}

// page is what the page template renders.
type page struct {
	Kind, KindTitle, Title string
	Theme                  theme
	CSS                    template.CSS
	JS                     template.JS
	Copy                   bool // show Copy JSON and embed the data for it
	Data                   map[string]any
	View                   any
}

// Build renders a primitive of the given kind from data and returns the
// document with its metadata. data may be nil; it is not changed.
//
// Data is read loosely: a missing list is empty, and numbers or booleans
// are accepted where text is expected, but a field of the wrong JSON type
// (an object where a list belongs) fails with a *DataError naming its
// path. An unknown kind fails with an *UnknownKindError, and a bad
// presentation theme with the reference's message.
func Build(kind, title string, data map[string]any) (*Result, error) {
	load()
	desc, ok := lookup(kind)
	if !ok {
		return nil, &UnknownKindError{Kind: kind}
	}
	data, err := copyJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: data is not JSON: %w", kind, err)
	}
	res := &Result{Kind: kind, Title: strings.TrimSpace(title), Summary: desc.Description, DefaultSize: desc.DefaultSize}
	if res.Title == "" {
		res.Title = desc.Title
	}
	var meta deckMeta
	if kind == "deck" || kind == "presentation" {
		if meta, err = enrichDeck(kind, data); err != nil {
			return nil, err
		}
		res.Presentation = true
		res.SlideCount = len(meta.titles)
		res.SlideTitles = meta.titles
		res.SpeakerNotes = meta.notes
		res.PresentationTheme = meta.stored
		if len(meta.titles) > 0 {
			res.Summary += " Slides: " + strings.Join(meta.titles, ", ") + "."
		}
	}
	d := &decoder{kind: kind}
	view := decoders[kind](object{d: d, path: "data", m: data}, meta)
	if d.err != nil {
		return nil, d.err
	}
	p := page{
		Kind: kind, KindTitle: desc.Title, Title: res.Title, Theme: meta.theme,
		CSS: baseCSS + kindCSS[kind], JS: kindJS[kind], Copy: !res.Presentation, Data: data, View: view,
	}
	if p.Copy {
		p.JS = baseJS + "\n" + p.JS
	}
	var b strings.Builder
	if err := templates[kind].ExecuteTemplate(&b, "page", p); err != nil {
		return nil, fmt.Errorf("%s: rendering: %w", kind, err)
	}
	res.HTML = b.String()
	res.PrimitiveData = data
	return res, nil
}

// copyJSON deep-copies data through JSON, which also turns Go values a
// caller may pass ([]string, int, structs) into the JSON types the
// decoder reads.
func copyJSON(data map[string]any) (map[string]any, error) {
	out := map[string]any{}
	if data == nil {
		return out, nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}
