/**
 * The catalog's part of settings.json: `tools` (per-tool switches: enabled, pinned) and
 * `toolSearch` (tool-search-config.ts), with their defaults and validation. Pure;
 * host/settings-document.ts composes it with the other domains' sections.
 */
import { isPlainObject } from '../base/json.js';
import { describeValue, type SettingsChecker, type SettingsSection } from '../base/settings-check.js';
import {
  checkToolSearchSettings,
  DEFAULT_TOOL_SEARCH_SETTINGS,
  type ToolSearchSettings,
} from './tool-search-config.js';

export interface ToolSettings {
  enabled?: boolean;
  pinned?: boolean;
}

export interface CatalogSection {
  /** Agent-facing tool name → per-tool switches. Absent means enabled, not pinned. */
  tools: Record<string, ToolSettings>;
  toolSearch: ToolSearchSettings;
}

export const CATALOG_SECTION: SettingsSection<CatalogSection> = {
  defaults: () => ({ tools: {}, toolSearch: { ...DEFAULT_TOOL_SEARCH_SETTINGS } }),
  check(c, raw) {
    const base = CATALOG_SECTION.defaults();
    return {
      tools: c.field(raw, 'tools', base.tools, (value) => checkTools(c, value)),
      toolSearch: c.field(raw, 'toolSearch', base.toolSearch, (value) => checkToolSearchSettings(c, value)),
    };
  },
};

function checkTools(c: SettingsChecker, raw: unknown): Record<string, ToolSettings> {
  const tools: Record<string, ToolSettings> = {};
  if (!isPlainObject(raw)) {
    c.issue(
      'tools',
      `must be an object keyed by tool name, like {"mcp__github__create_issue": {"pinned": true}}; got ${describeValue(raw)}.`,
    );
    return tools;
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `tools[${JSON.stringify(name)}]`;
    if (!isPlainObject(value)) {
      c.issue(
        path,
        `must be an object like {"enabled": false} or {"pinned": true}; got ${describeValue(value)}.`,
      );
      continue;
    }
    c.knownKeys(value, path, ['enabled', 'pinned']);
    const entry: ToolSettings = {};
    if (value.enabled !== undefined) entry.enabled = c.boolean(value.enabled, `${path}.enabled`);
    if (value.pinned !== undefined) entry.pinned = c.boolean(value.pinned, `${path}.pinned`);
    tools[name] = entry;
  }
  return tools;
}
