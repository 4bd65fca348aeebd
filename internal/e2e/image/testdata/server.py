"""A small stdio MCP server in plain Python, as a user's repository holds
one: a tool that says who runs it. At start it writes server-env.json in
its working folder, the workspace: the uid and gid it runs as, and which of
the runner's secret variables reached it (none should)."""

import json
import os
import sys

SECRETS = ["INPUT_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL"]
VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"]

TOOL = {
    "name": "whoami",
    "title": "Who runs this server",
    "description": "Says the uid and gid the server runs as.",
    "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}


def whoami():
    return {"content": [{"type": "text", "text": "uid %d gid %d" % (os.getuid(), os.getgid())}], "isError": False}


def answer(msg):
    method, params = msg.get("method"), msg.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        return {
            "protocolVersion": asked if asked in VERSIONS else VERSIONS[0],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "python-whoami", "version": "1.0.0"},
        }, None
    if method == "ping":
        return {}, None
    if method == "tools/list":
        return {"tools": [TOOL]}, None
    if method == "tools/call":
        if params.get("name") != TOOL["name"]:
            return None, {"code": -32602, "message": "unknown tool: %s" % params.get("name")}
        return whoami(), None
    return None, {"code": -32601, "message": "method not found: %s" % method}


def main():
    with open("server-env.json", "w") as f:
        json.dump({"uid": os.getuid(), "gid": os.getgid(), "secrets": [k for k in SECRETS if k in os.environ]}, f)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}
            print(json.dumps(reply), flush=True)
            continue
        if not isinstance(msg, dict) or "id" not in msg or "method" not in msg:
            continue
        result, error = answer(msg)
        reply = {"jsonrpc": "2.0", "id": msg["id"]}
        if error is None:
            reply["result"] = result
        else:
            reply["error"] = error
        print(json.dumps(reply), flush=True)


main()
