/** A layer's rule: the layers it may import, and those it may take only `import type` from. */
export interface LayerRule {
  imports: string[];
  types?: string[];
}
export const LAYERS: Record<string, LayerRule>;
export const KNOWN_BREAKS: string[];
export const KNOWN_CYCLES: string[];
/** `src/<folder>`, `main`, `preload` or `renderer` for a repo-relative path; undefined elsewhere. */
export function layerOf(relative: string): string | undefined;
export function importsOf(fileName: string, text: string): Array<{ specifier: string; typeOnly: boolean }>;
/** The problems found under `root`, one line each; empty when the layers hold. */
export function checkLayers(
  root: string,
  options?: { layers?: Record<string, LayerRule>; knownBreaks?: string[]; knownCycles?: string[] },
): string[];
