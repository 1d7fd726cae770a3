package codegraph

import (
	"crypto/sha256"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
)

// The edges a graph proposes carry these fixed values on the canvas, as in
// the reference implementation; an auto edge's id always starts with
// EdgeIDPrefix, which is how stale ones are found and removed.
const (
	EdgeIDPrefix = "codegraph-"
	EdgeType     = "depends-on"
	EdgeLabel    = "imports"
	EdgeStyle    = "dashed"
)

// A File is one file node on the board.
type File struct {
	NodeID string
	Path   string // absolute, clean, slash-separated
	Title  string
	// Content is the node's file content; an empty one is not parsed, but
	// the file can still be imported by others.
	Content string
}

// An Edge says that the file node From imports the file node To.
type Edge struct {
	ID   string `json:"id"` // EdgeIDPrefix + From + "-" + To
	From string `json:"from"`
	To   string `json:"to"`
}

// A Graph is the import graph between a set of file nodes.
type Graph struct {
	Report Report
	// Edges has one edge per (importer, imported) pair of distinct file
	// nodes, ordered by importer (input order), then by the importer's
	// imports (source order), then by imported node (input order).
	Edges []Edge
	// Errors maps the id of each file node whose content failed to parse
	// to the parse error; such a node still has the imports that were read.
	Errors map[string]string
}

// Report is the body of GET /api/canvas/code-graph.
type Report struct {
	TotalFileNodes int          `json:"totalFileNodes"`
	TotalAutoEdges int          `json:"totalAutoEdges"`
	Nodes          []NodeReport `json:"nodes"`
	// CentralFiles are the (at most 10) most imported nodes, inDegree > 0,
	// by inDegree descending, then path, then id.
	CentralFiles []CentralFile `json:"centralFiles"`
	// IsolatedFiles are the nodes with no edge in or out, in input order.
	IsolatedFiles []FileRef `json:"isolatedFiles"`
}

// NodeReport describes one file node. Imports and ImportedBy have one
// root-relative path per edge (so a path shown by two nodes appears twice)
// and the degrees are their lengths.
type NodeReport struct {
	ID         string   `json:"id"`
	Path       string   `json:"path"`
	Title      string   `json:"title"`
	Imports    []string `json:"imports"`
	ImportedBy []string `json:"importedBy"`
	OutDegree  int      `json:"outDegree"`
	InDegree   int      `json:"inDegree"`
}

// CentralFile is an entry of Report.CentralFiles.
type CentralFile struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Title    string `json:"title"`
	InDegree int    `json:"inDegree"`
}

// FileRef is an entry of Report.IsolatedFiles.
type FileRef struct {
	ID    string `json:"id"`
	Path  string `json:"path"`
	Title string `json:"title"`
}

// maxCentral is how many central files a report lists.
const maxCentral = 10

// Build computes the graph of files under the workspace root, parsing every
// file afresh. It is pure: it reads nothing but its arguments, and the same
// arguments give the same graph. Callers that recompute often should keep an
// [Analyzer] instead.
func Build(root string, files []File) Graph {
	var a Analyzer
	return a.Build(root, files)
}

// An Analyzer builds graphs and remembers, between builds, the imports of
// each (path, SHA-256 of content) it parsed, so that a rebuild after one
// file changed parses only that file. It keeps only the entries the last
// build used. The zero value is ready to use; it is safe for concurrent
// use (builds run one at a time).
type Analyzer struct {
	mu    sync.Mutex
	cache map[cacheKey]parsed
}

type cacheKey struct {
	path string
	sum  [sha256.Size]byte
}

type parsed struct {
	imports []Import
	err     string
}

// Build is like the package's Build but reuses earlier parses.
func (a *Analyzer) Build(root string, files []File) Graph {
	a.mu.Lock()
	defer a.mu.Unlock()
	root = path.Clean(root)

	paths := make([]string, len(files))
	keys := make([]cacheKey, len(files))
	next := make(map[cacheKey]parsed, len(files))
	var todo []int // first file of each key to parse
	goMods := make(map[string]string)
	for i, f := range files {
		paths[i] = path.Clean(f.Path)
		if path.Base(paths[i]) == "go.mod" && f.Content != "" {
			goMods[paths[i]] = f.Content
		}
		if f.Content == "" || languageOf(paths[i]) == langNone {
			continue
		}
		keys[i] = cacheKey{paths[i], sha256.Sum256([]byte(f.Content))}
		if _, ok := next[keys[i]]; ok {
			continue
		}
		if p, ok := a.cache[keys[i]]; ok {
			next[keys[i]] = p
			continue
		}
		next[keys[i]] = parsed{}
		todo = append(todo, i)
	}
	for i, p := range parseAll(paths, files, todo) {
		next[keys[todo[i]]] = p
	}
	a.cache = next

	res := newResolver(root, paths, goMods)
	byPath := make(map[string][]int)
	for i, p := range paths {
		byPath[p] = append(byPath[p], i)
	}

	g := Graph{Edges: []Edge{}, Errors: map[string]string{}}
	out := make([][]int, len(files)) // edge indexes by importer
	in := make([][]int, len(files))  // edge indexes by imported
	index := make(map[string]int)    // node id → first file index
	for i := len(files) - 1; i >= 0; i-- {
		index[files[i].NodeID] = i
	}
	seen := make(map[[2]string]bool)
	for i, f := range files {
		if f.Content == "" || languageOf(paths[i]) == langNone {
			continue
		}
		p := next[keys[i]]
		if p.err != "" {
			g.Errors[f.NodeID] = p.err
		}
		lang := languageOf(paths[i])
		for _, imp := range p.imports {
			for _, target := range res.resolve(paths[i], lang, imp) {
				if target == paths[i] {
					continue // a file importing itself
				}
				for _, j := range byPath[target] {
					to := files[j].NodeID
					pair := [2]string{f.NodeID, to}
					if to == f.NodeID || seen[pair] {
						continue
					}
					seen[pair] = true
					e := len(g.Edges)
					g.Edges = append(g.Edges, Edge{ID: EdgeIDPrefix + f.NodeID + "-" + to, From: f.NodeID, To: to})
					out[i] = append(out[i], e)
					in[index[to]] = append(in[index[to]], e)
				}
			}
		}
	}

	rel := make([]string, len(files))
	for i, p := range paths {
		rel[i] = relPath(root, p)
	}
	relOf := func(id string) string { return rel[index[id]] }
	r := Report{
		TotalFileNodes: len(files),
		TotalAutoEdges: len(g.Edges),
		Nodes:          make([]NodeReport, len(files)),
		CentralFiles:   []CentralFile{},
		IsolatedFiles:  []FileRef{},
	}
	for i, f := range files {
		n := NodeReport{ID: f.NodeID, Path: rel[i], Title: f.Title, Imports: []string{}, ImportedBy: []string{}}
		for _, e := range out[i] {
			n.Imports = append(n.Imports, relOf(g.Edges[e].To))
		}
		for _, e := range in[i] {
			n.ImportedBy = append(n.ImportedBy, relOf(g.Edges[e].From))
		}
		n.OutDegree, n.InDegree = len(n.Imports), len(n.ImportedBy)
		r.Nodes[i] = n
		if n.InDegree > 0 {
			r.CentralFiles = append(r.CentralFiles, CentralFile{ID: n.ID, Path: n.Path, Title: n.Title, InDegree: n.InDegree})
		} else if n.OutDegree == 0 {
			r.IsolatedFiles = append(r.IsolatedFiles, FileRef{ID: n.ID, Path: n.Path, Title: n.Title})
		}
	}
	sort.SliceStable(r.CentralFiles, func(i, j int) bool {
		a, b := r.CentralFiles[i], r.CentralFiles[j]
		if a.InDegree != b.InDegree {
			return a.InDegree > b.InDegree
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.ID < b.ID
	})
	if len(r.CentralFiles) > maxCentral {
		r.CentralFiles = r.CentralFiles[:maxCentral]
	}
	g.Report = r
	return g
}

// parseAll parses files[todo[k]] for every k and returns the results in
// todo's order: all JS/TS files in one esbuild batch, which spreads over
// the cores itself, while the other files share a pool of GOMAXPROCS
// goroutines.
func parseAll(paths []string, files []File, todo []int) []parsed {
	out := make([]parsed, len(todo))
	var js []int
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				imps, err := Imports(paths[todo[k]], files[todo[k]].Content)
				out[k] = parsed{imports: imps, err: errString(err)}
			}
		}()
	}
	for k, i := range todo {
		if languageOf(paths[i]) == langJS {
			js = append(js, k)
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if len(js) == 0 {
			return
		}
		srcs := make([]jsSource, len(js))
		for n, k := range js {
			srcs[n] = jsSource{path: paths[todo[k]], content: files[todo[k]].Content}
		}
		for n, r := range parseJSBatch(srcs) {
			out[js[n]] = parsed{imports: r.imports, err: errString(r.err)}
		}
	}()
	for k, i := range todo {
		if languageOf(paths[i]) != langJS {
			work <- k
		}
	}
	close(work)
	wg.Wait()
	return out
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// relPath returns p relative to root, slash-separated ("../x" outside it).
func relPath(root, p string) string {
	r, err := filepath.Rel(filepath.FromSlash(root), filepath.FromSlash(p))
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}
