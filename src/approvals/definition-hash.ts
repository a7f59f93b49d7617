import { createHash } from 'node:crypto';
import type { ToolDefinition } from '../catalog/types.js';
import { canonicalJson } from './canonical-json.js';

/**
 * SHA-256 (hex) of the canonical JSON of the parts of a tool definition the user judges it by:
 * name, title, description, input and output schema, annotations. Key order does not change it;
 * any other change, however deeply nested, does. A changed hash means standing approvals lapse.
 */
export function definitionHash(definition: ToolDefinition): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  return sha256Hex(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations }));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
