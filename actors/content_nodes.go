package actors

import (
	"strings"

	"github.com/pmxcanvas/pmx-canvas/content/files"
	"github.com/pmxcanvas/pmx-canvas/content/images"
	"github.com/pmxcanvas/pmx-canvas/domain/canvas"
	"github.com/pmxcanvas/pmx-canvas/messages"
)

// addOptions resolves the workspace content a node.add names — the file
// of a file node, the image of an image node — so the core can store it.
// Reading happens here, in the Layout actor, bounded by the file cap;
// network fetches never do (webpages are fetched outside the actor).
func (c *call) addOptions(in *messages.NodeAddInput) (canvas.AddOptions, *messages.Error) {
	opts := canvas.AddOptions{AllowInternal: c.inBatch}
	k := c.ref.sys.content
	switch strings.TrimSpace(in.Type) {
	case "diff":
		if in.GitDiff != nil {
			return opts, messages.BadRequest("gitDiff runs git, which a canvas.batch entry does not: pass the diff text as content.").With("field", "gitDiff")
		}
	case "file":
		p, isPath := canvas.FilePath(in, k.fileExists)
		if !isPath {
			return opts, nil
		}
		snap, err := k.readFile(p)
		switch {
		case err == nil:
			opts.File = snap
		case files.IsNotExist(err):
			rel, rerr := k.root.Resolve(p)
			if rerr != nil {
				return opts, pathError("Invalid file node", rerr)
			}
			opts.FilePath = k.root.Abs(rel)
		default:
			return opts, pathError("Invalid file node", err)
		}
	case "webpage":
		raw := in.URL
		if raw == nil || *raw == "" {
			raw = in.Content
		}
		if raw != nil && strings.TrimSpace(*raw) != "" {
			u, err := normalizeWebpageURL(*raw, "url")
			if err != nil {
				return opts, err
			}
			opts.WebpageURL = u
		}
	case "image":
		src := in.Content
		if src == nil {
			src = in.Path
		}
		if src == nil || strings.TrimSpace(*src) == "" {
			return opts, nil
		}
		s := strings.TrimSpace(*src)
		lower := strings.ToLower(s)
		switch {
		case strings.HasPrefix(lower, "data:"):
			mime, err := images.ParseDataURL(s)
			if err != nil {
				return opts, messages.BadRequest("%s", err.Error()).With("field", "content")
			}
			opts.ImageSrc, opts.ImageMime = s, mime
		case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
			opts.ImageSrc = s
		default:
			info, err := k.image(s)
			if err != nil {
				return opts, err
			}
			opts.Image = info
		}
	}
	return opts, nil
}

// image validates a workspace image file (extension and magic bytes)
// and reads its size.
func (k *contentKit) image(p string) (*canvas.ImageInfo, *messages.Error) {
	rel, err := k.root.Resolve(p)
	if err != nil {
		return nil, pathError("Invalid image node", err)
	}
	info, err := images.ValidateFile(k.root.Abs(rel))
	if err != nil {
		return nil, messages.BadRequest("%s", err.Error()).With("field", "content")
	}
	return &canvas.ImageInfo{Path: info.Path, MimeType: info.MimeType, Width: info.Width, Height: info.Height, Bytes: info.Bytes}, nil
}
