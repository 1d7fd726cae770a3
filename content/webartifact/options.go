package webartifact

import "time"

// Default locations, relative to the workspace root; %s is the slug.
const (
	DefaultProjectDir = ".pmx-canvas/artifacts/.web-artifacts/%s"
	DefaultOutputPath = ".pmx-canvas/artifacts/%s.html"
)

// DefaultTimeout bounds a build, npm install included, when
// Options.Timeout is zero: the reference's 600 000 ms.
const DefaultTimeout = 10 * time.Minute

// MaxSourcePreview is the most runes of App.tsx in Result.SourcePreview,
// and MaxSourceFiles the most names in Result.SourceFiles (the reference's
// node data limits).
const (
	MaxSourcePreview = 700
	MaxSourceFiles   = 32
)

// Options are an agent's sources for one artifact and where to put it.
type Options struct {
	// Root is the workspace root, an absolute directory. Relative
	// ProjectPath and OutputPath are resolved against it and both must
	// stay inside it.
	Root string

	Title  string // required; names the slug
	AppTsx string // required: src/App.tsx

	IndexCSS  string // src/index.css, imported by the default main.tsx when set
	MainTsx   string // src/main.tsx; default renders <App/> into #root
	IndexHTML string // index.html; default a minimal page with <div id="root">

	// Files are more project files by project-relative, slash-separated
	// path (src/components/Chart.tsx). Absolute paths and paths that
	// leave the project are refused. The named sources above win over
	// a file of the same path.
	Files map[string]string

	// Deps are npm packages (name[@version]) beyond React, installed
	// with npm into the project's node_modules. React, ReactDOM and the
	// scheduler always come from the embedded builds.
	Deps []string

	ProjectPath string // default DefaultProjectDir with the slug
	OutputPath  string // default DefaultOutputPath with the slug

	// Timeout bounds the build; zero means DefaultTimeout. The context
	// passed to Build bounds it too.
	Timeout time.Duration

	// Now stamps StartedAt and CompletedAt; nil means time.Now.
	Now func() time.Time
}

// Result says what Build wrote.
type Result struct {
	Path        string // output HTML, workspace-relative, slash-separated
	ProjectPath string // project directory, workspace-relative
	Bytes       int    // size of the output HTML

	StartedAt   time.Time
	CompletedAt time.Time
	DurationMs  int64

	// Logs are npm's output and esbuild's warnings, in order.
	Logs []string

	// SourceFiles are the project files Build wrote, project-relative
	// and sorted, at most MaxSourceFiles; SourceFileCount counts all.
	SourceFiles     []string
	SourceFileCount int

	SourcePreview string   // the first MaxSourcePreview runes of App.tsx
	Deps          []string // the deps installed, as given
}
