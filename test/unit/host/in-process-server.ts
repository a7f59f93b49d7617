import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export const LOCAL_TOOLS: Tool[] = [
  {
    name: 'echo',
    description: 'Echo a message back to the caller.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
  {
    name: 'add',
    description: 'Add two numbers and return the sum.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'weather',
    description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  },
];

/** A real SDK server in this process, reached over an in-memory pair: the host's createTransport hook. */
export function inProcessTransport(calls: string[] = []): Transport {
  const server = new Server({ name: 'local', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: LOCAL_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    calls.push(request.params.name);
    if (request.params.name === 'echo')
      return { content: [{ type: 'text', text: `Echo: ${String(args.message)}` }] };
    if (request.params.name === 'add') {
      return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] };
    }
    return { content: [{ type: 'text', text: 'sunny' }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  void server.connect(serverSide);
  return clientSide;
}
