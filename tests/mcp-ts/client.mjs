// Drives `pmx-canvas mcp` with the official TypeScript MCP SDK: lists the
// tools and creates a node through canvas_node. Usage:
//   node client.mjs <pmx-canvas binary> <workspace> <port>
// Prints one JSON line with what it saw; exits non-zero on failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, workspace, port] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: binary,
  args: ["mcp", "--workspace", workspace],
  env: { ...process.env, PMX_CANVAS_PORT: port },
  stderr: "ignore",
});
const client = new Client({ name: "pmx-canvas-ts-test", version: "1.0.0" });
await client.connect(transport);
const info = client.getServerVersion();
const { tools } = await client.listTools();
const result = await client.callTool({
  name: "canvas_node",
  arguments: { action: "add", type: "markdown", title: "From the TypeScript SDK", content: "hello" },
});
await client.close();
console.log(JSON.stringify({
  server: info,
  toolCount: tools.length,
  hasCanvasNode: tools.some((t) => t.name === "canvas_node"),
  isError: result.isError === true,
  text: result.content?.[0]?.text ?? null,
}));
