package actors

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/pmxcanvas/pmx-canvas/content/webartifact"
	"github.com/pmxcanvas/pmx-canvas/content/workspace"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// Web artifacts: webartifact.build bundles in the caller's goroutine (an
// OwnerWorkspace operation: esbuild and npm never hold a mailbox), then
// shows the file through the Layout (the internal webartifact.place).

// webArtifactPlaceInput is the internal webartifact.place write.
type webArtifactPlaceInput struct{ Node canvas.WebArtifactNode }

// webArtifactPlaced is webartifact.place's reply.
type webArtifactPlaced struct {
	ID      string
	Created bool
}

func init() {
	workspaceHandlers["webartifact.build"] = webArtifactBuild
	internalOps["webartifact.place"] = &messages.Op{Name: "webartifact.place", Owner: messages.OwnerLayout, Kind: messages.Write}
	writeHandlers["webartifact.place"] = func(c *call) (any, *messages.Error) {
		n, created, err := canvas.PlaceWebArtifact(c.tx, c.env.Args.(*webArtifactPlaceInput).Node)
		if err != nil {
			return nil, err
		}
		return &webArtifactPlaced{ID: n.ID, Created: created}, nil
	}
}

func webArtifactBuild(ctx context.Context, s *System, ref *canvasRef, env *messages.Envelope) (any, *messages.Error) {
	in := env.Args.(*messages.WebArtifactBuildInput)
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" || in.AppTsx == nil || strings.TrimSpace(*in.AppTsx) == "" {
		field := "title"
		if in.Title != nil && strings.TrimSpace(*in.Title) != "" {
			field = "appTsx"
		}
		return nil, messages.BadRequest("Missing required fields: title, appTsx.").With("field", field)
	}
	for _, f := range []struct {
		field string
		v     *string
	}{{"initScriptPath", in.InitScriptPath}, {"bundleScriptPath", in.BundleScriptPath}} {
		if field, v := f.field, f.v; v != nil && *v != "" {
			return nil, messages.BadRequest("%s is not supported: this server bundles in-process with esbuild and runs no init or bundle script; drop the field.", field).With("field", field)
		}
	}
	for _, d := range in.Deps {
		if err := webartifact.ValidateDep(d); err != nil {
			return nil, messages.BadRequest("%s", err.Error()).With("field", "deps")
		}
	}
	root := s.content.root
	opts := webartifact.Options{Root: root.Dir(), Title: *in.Title, AppTsx: *in.AppTsx, Files: in.Files, Deps: in.Deps,
		IndexCSS: str(in.IndexCSS), MainTsx: str(in.MainTsx), IndexHTML: str(in.IndexHTML),
		Timeout: webartifact.DefaultTimeout}
	if in.TimeoutMs != nil {
		opts.Timeout = time.Duration(*in.TimeoutMs * float64(time.Millisecond))
	}
	// Both paths are confined here, symbolic links evaluated, as every
	// workspace path is; the builder checks them again lexically.
	for _, p := range []struct {
		field string
		given *string
		dst   *string
	}{{"projectPath", in.ProjectPath, &opts.ProjectPath}, {"outputPath", in.OutputPath, &opts.OutputPath}} {
		if p.given == nil || *p.given == "" {
			continue
		}
		rel, err := root.Resolve(*p.given)
		if err != nil {
			if workspace.IsOutside(err) {
				return nil, messages.BadRequest("%s: %s.", p.field, err.Error()).With("field", p.field)
			}
			return nil, messages.BadRequest("%s %q: %v", p.field, *p.given, err).With("field", p.field)
		}
		*p.dst = rel
	}
	res, err := webartifact.Build(ctx, opts)
	if err != nil {
		return nil, buildError(err)
	}
	out := &messages.WebArtifactBuilt{OK: true, Path: root.Abs(res.Path), Bytes: res.Bytes, ProjectPath: root.Abs(res.ProjectPath),
		StartedAt: canvas.ISOTime(res.StartedAt), CompletedAt: canvas.ISOTime(res.CompletedAt), DurationMs: res.DurationMs,
		TimeoutMs: opts.Timeout.Milliseconds(), Logs: buildLogs(res),
		Metadata: messages.WebArtifactMetadata{Title: *in.Title, Slug: webartifact.Slug(*in.Title), Builder: "esbuild",
			SourceFiles: res.SourceFiles, SourceFileCount: res.SourceFileCount, SourcePreview: res.SourcePreview,
			Deps: nonNil(res.Deps)}}
	out.URL = canvas.ArtifactURL(out.Path)
	if in.IncludeLogs != nil && *in.IncludeLogs {
		stdout, stderr := strings.Join(res.Logs, "\n"), ""
		out.Stdout, out.Stderr = &stdout, &stderr
	}
	if in.OpenInCanvas == nil || *in.OpenInCanvas {
		reply, werr := s.write(ctx, ref, "webartifact.place", env, &webArtifactPlaceInput{Node: canvas.WebArtifactNode{
			Title: *in.Title, Path: out.Path, ProjectPath: out.ProjectPath, Bytes: res.Bytes, SourceFiles: res.SourceFiles,
			SourceFileCount: res.SourceFileCount, SourcePreview: res.SourcePreview, Deps: res.Deps}})
		if werr != nil {
			return nil, werr
		}
		placed := reply.Body.(*webArtifactPlaced)
		out.OpenedInCanvas, out.NodeID = true, &placed.ID
		if placed.Created {
			out.ID = placed.ID
		}
		return &messages.Reply{Body: out, Revision: reply.Revision}, nil
	}
	return out, nil
}

// buildError maps a failed build to the caller's error: sources that do
// not compile, a bad field and npm failures are 400 with the text (the
// reference's "400 with the build error text"); a timeout is 504.
func buildError(err error) *messages.Error {
	var be *webartifact.BuildError
	switch {
	case errors.As(err, &be):
		e := messages.BadRequest("%s", be.Error())
		if len(be.Messages) > 0 {
			e = e.With("field", sourceField(be.Messages[0]))
		}
		return e
	case errors.Is(err, context.DeadlineExceeded):
		return messages.Make(messages.CodeTimeout, "web artifact build timed out: %v", err).With("field", "timeoutMs")
	}
	return messages.BadRequest("%s", err.Error())
}

// sourceField names the input field holding the file of an esbuild
// message ("src/App.tsx:3:7: …").
func sourceField(msg string) string {
	file, _, _ := strings.Cut(msg, ":")
	switch file {
	case "src/App.tsx":
		return "appTsx"
	case "src/main.tsx":
		return "mainTsx"
	case "src/index.css":
		return "indexCss"
	case "index.html":
		return "indexHtml"
	}
	return "files"
}

// buildLogs are the reply's step lines: what was written, installed and
// bundled, then npm's and esbuild's own lines.
func buildLogs(res *webartifact.Result) []string {
	logs := []string{"[web-artifact] wrote " + plural(res.SourceFileCount, "project file") + " to " + res.ProjectPath}
	if len(res.Deps) > 0 {
		logs = append(logs, "[web-artifact] installed with npm: "+strings.Join(res.Deps, ", "))
	}
	logs = append(logs, "[web-artifact] bundled with esbuild into "+res.Path+" ("+plural(res.Bytes, "byte")+")")
	return append(logs, res.Logs...)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
