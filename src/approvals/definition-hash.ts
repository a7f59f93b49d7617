import { createHash } from 'node:crypto';
import type { CatalogEntry, ToolDefinition } from '../catalog/types.js';
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

/**
 * The hash an approval of `entry` binds to: a local tool's definition as the catalog hashes it
 * (`localHash`); a connector tool's name alone, since the gateway sends no schema before the call.
 */
export function approvalHash(entry: CatalogEntry, localHash: (name: string) => string): string {
  return entry.source === 'connectors' ? connectorApprovalHash(entry.name) : localHash(entry.name);
}

/** A connector tool's approval hash, from its agent-facing name. */
export function connectorApprovalHash(name: string): string {
  return definitionHash({ name });
}
