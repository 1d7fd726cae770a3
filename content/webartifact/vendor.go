package webartifact

import (
	"embed"
	"fmt"
	"path"

	"github.com/evanw/esbuild/pkg/api"
)

// vendorFS holds the production CommonJS builds of React, ReactDOM and the
// scheduler (vendor/README.md says which versions and how to refresh them).
//
//go:embed vendor/react/*.js vendor/react-dom/*.js vendor/scheduler/*.js
var vendorFS embed.FS

// vendorNamespace is the esbuild namespace of the embedded modules; error
// messages and source maps name them "pmx-vendor:<file>".
const vendorNamespace = "pmx-vendor"

// vendorFile maps a bare import the embedded builds serve to its file in
// vendorFS, or "" for any other import (react-dom/server, say), which
// esbuild then resolves from the project's node_modules as usual.
func vendorFile(spec string) string {
	switch spec {
	case "react":
		return "vendor/react/react.production.js"
	case "react/jsx-runtime", "react/jsx-dev-runtime":
		// The dev runtime is asked for only by jsx: "automatic" with
		// development on, which Build never sets; serve the production
		// runtime rather than fail.
		return "vendor/react/react-jsx-runtime.production.js"
	case "react-dom":
		return "vendor/react-dom/react-dom.production.js"
	case "react-dom/client":
		return "vendor/react-dom/react-dom-client.production.js"
	case "scheduler":
		return "vendor/scheduler/scheduler.production.js"
	}
	return ""
}

// vendorPlugin resolves react, react-dom, react-dom/client,
// react/jsx-runtime and scheduler to the embedded builds, whatever the
// project's node_modules holds, so an artifact never bundles two Reacts.
func vendorPlugin() api.Plugin {
	return api.Plugin{
		Name: "pmx-vendor-react",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: `^(react|react-dom|scheduler)(/.*)?$`},
				func(args api.OnResolveArgs) (api.OnResolveResult, error) {
					file := vendorFile(args.Path)
					if file == "" {
						return api.OnResolveResult{}, nil
					}
					return api.OnResolveResult{Path: path.Base(file), Namespace: vendorNamespace, PluginData: file}, nil
				})
			b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: vendorNamespace},
				func(args api.OnLoadArgs) (api.OnLoadResult, error) {
					file, _ := args.PluginData.(string)
					src, err := vendorFS.ReadFile(file)
					if err != nil {
						return api.OnLoadResult{}, fmt.Errorf("embedded %s: %w", args.Path, err)
					}
					s := string(src)
					return api.OnLoadResult{Contents: &s, Loader: api.LoaderJS}, nil
				})
		},
	}
}
