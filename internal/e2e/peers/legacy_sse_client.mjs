// A 2024-11-05 client over HTTP with SSE, for recording real sessions of
// that transport: the TypeScript SDK's own SSEClientTransport opens the SSE
// connection, follows the server's endpoint event and POSTs there. The SDK's
// Client always proposes its newest revision, so this script speaks the
// session's messages itself, proposing 2024-11-05 or the revision given.
//
// usage: node legacy_sse_client.mjs URL [REVISION]
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

const url = new URL(process.argv[2]);
const revision = process.argv[3] ?? '2024-11-05';
const transport = new SSEClientTransport(url);
const waiting = new Map();
let nextID = 1;

transport.onmessage = (msg) => {
  if (msg.id !== undefined && waiting.has(msg.id) && (msg.result !== undefined || msg.error !== undefined)) {
    waiting.get(msg.id)(msg);
    waiting.delete(msg.id);
    return;
  }
  if (msg.method === 'roots/list' && msg.id !== undefined) {
    transport.send({ jsonrpc: '2.0', id: msg.id, result: { roots: [] } });
  } else if (msg.method === 'ping' && msg.id !== undefined) {
    transport.send({ jsonrpc: '2.0', id: msg.id, result: {} });
  }
};

function request(method, params) {
  const id = nextID++;
  const answered = new Promise((resolve, reject) => {
    waiting.set(id, resolve);
    setTimeout(() => reject(new Error(`no answer to ${method} in 10s`)), 10000).unref();
  });
  const msg = { jsonrpc: '2.0', id, method };
  if (params !== undefined) {
    msg.params = params;
  }
  return transport.send(msg).then(() => answered);
}

await transport.start();
const init = await request('initialize', {
  protocolVersion: revision,
  capabilities: { roots: { listChanged: true } },
  clientInfo: { name: 'mcpverdict-legacy-sse-client', version: '1.0.0' },
});
if (init.result?.protocolVersion !== revision) {
  throw new Error(`the server negotiated ${JSON.stringify(init.result?.protocolVersion)}`);
}
await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
await request('ping');
const caps = init.result.capabilities ?? {};
if (caps.tools) {
  await request('tools/list');
  await request('tools/call', { name: 'echo', arguments: { message: 'over HTTP with SSE' } });
}
if (caps.prompts) {
  await request('prompts/list');
}
if (caps.resources) {
  await request('resources/list');
}
await transport.close();
