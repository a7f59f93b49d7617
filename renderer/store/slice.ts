import type { StateCreator } from 'zustand/vanilla';

/**
 * One slice of the app state (zustand's slices pattern), written against its own state and the
 * slices it reads (`Needs`), never the whole store: so no slice imports `index.ts`, which composes
 * them, and there is no import cycle.
 */
export type Slice<T, Needs = unknown> = StateCreator<T & Needs, [], [], T>;
