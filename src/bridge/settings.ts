/**
 * The bridge's part of settings.json: `maxResultBytes`, the most one tool result may send the
 * agent (result-cap.ts cuts the rest with a note). Pure; host/settings-document.ts composes it.
 */
import type { SettingsSection } from '../base/settings-check.js';

/** 256 KiB: about 64k tokens, already a large share of an agent's context. */
export const DEFAULT_MAX_RESULT_BYTES = 256 * 1024;
/** Up to 10 MiB, the most one message from a stdio server may hold anyway. */
export const MAX_RESULT_BYTES_RANGE = [4 * 1024, 10 * 1024 * 1024] as const;

export interface BridgeSection {
  /** The most one tool result may send the agent; more is cut with a note (result-cap.ts). */
  maxResultBytes: number;
}

export const BRIDGE_SECTION: SettingsSection<BridgeSection> = {
  defaults: () => ({ maxResultBytes: DEFAULT_MAX_RESULT_BYTES }),
  check: (c, raw) => ({
    maxResultBytes: c.field(raw, 'maxResultBytes', DEFAULT_MAX_RESULT_BYTES, (value) =>
      c.integer(value, 'maxResultBytes', ...MAX_RESULT_BYTES_RANGE, 'bytes, e.g. 262144 for 256 KiB'),
    ),
  }),
};
