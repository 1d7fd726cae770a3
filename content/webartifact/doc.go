// Package webartifact builds a web artifact: a small React (or plain
// TypeScript) app written by an agent, bundled into one self-contained HTML
// file that the canvas shows in a sandboxed frame.
//
// It is the builder behind the reference's webartifact.build operation
// (POST /api/canvas/web-artifact). Where the reference scaffolds a Vite
// project, installs packages with pnpm or npm and runs a bundle script,
// Build bundles in-process with esbuild's Go API and takes React, ReactDOM
// and the scheduler from production builds embedded in the binary (see
// vendor/README.md), so the default artifact needs no npm install and no
// network. Only extra Options.Deps are installed with npm, into the
// project's node_modules.
//
// The package is pure: it writes the project and the output file under the
// workspace root it is given and returns what it did; registering the
// operation, creating the canvas node and confining caller paths belong to
// its callers.
package webartifact
