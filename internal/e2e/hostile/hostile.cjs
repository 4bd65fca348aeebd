// A stdio MCP server that attacks whoever prints what it says: its tool
// names, descriptions, results, log messages, error messages and stderr
// carry every trick a peer can play on a terminal, a CI log, XML, HTML or
// Markdown (see tricks.json). It speaks enough MCP to be driven whole.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");

const tricks = JSON.parse(fs.readFileSync(path.join(__dirname, "tricks.json"), "utf8"));
tricks.push("A".repeat(70000) + "\n::error::after an overlong string");
const all = tricks.join(" ");
const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

process.stderr.write(all + "\n");

const tools = tricks.slice(0, 6).map((t, i) => ({
  name: "tool" + i + t.slice(0, 40),
  description: t,
  inputSchema: { type: "object", properties: { ["p" + t.slice(0, 8)]: { type: "string", description: t } } },
}));

function answer(msg) {
  const p = msg.params || {};
  switch (msg.method) {
    case "initialize":
      return { result: {
        protocolVersion: p.protocolVersion || "2025-11-25",
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: "hostile" + tricks[0], version: tricks[1] },
        instructions: all,
      } };
    case "ping":
      return { result: {} };
    case "tools/list":
      return { result: { tools } };
    case "tools/call":
      send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "error", logger: tricks[2], data: all } });
      if ((p.name || "").startsWith("tool0")) {
        return { result: { content: [{ type: "text", text: all }], isError: true } };
      }
      return { error: { code: -32603, message: all, data: { tricks } } };
    case "logging/setLevel":
      return { result: {} };
    default:
      return { error: { code: -32601, message: "\n::error::no such method " + msg.method + " " + all } };
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: all } });
    return;
  }
  if (!msg || typeof msg !== "object" || msg.id === undefined || !msg.method) return;
  send({ jsonrpc: "2.0", id: msg.id, ...answer(msg) });
});
