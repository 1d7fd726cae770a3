// Package mcpapp is the client side of hosting MCP Apps (the official MCP
// Apps extension, SEP-1865, "io.modelcontextprotocol/ui"): it connects to an
// external MCP server as an MCP client, finds a tool that declares an
// interactive ui:// HTML resource, calls the tool, reads the resource and
// prepares its HTML for a sandboxed iframe (a storage shim and, when the
// resource declares one, a Content-Security-Policy <meta>).
//
// Dial connects over stdio (a spawned command, in its own process group) or
// streamable HTTP and performs the initialize handshake as client
// "pmx-canvas-app-host", advertising the MCP Apps UI extension. Open does
// what the canvas needs to put an app on the board. The pass-through calls
// (CallTool, ReadResource and the List calls) return the server's JSON
// result unchanged so the hosting layer can forward it to the app in the
// browser. Done and Err report a lost connection: the hosting actor shows
// Err's text as the node's sessionError.
//
// The package knows nothing about canvases, nodes or actors.
package mcpapp
