/**
 * The tool definitions the person has seen: trust on first use of each tool's definition hash,
 * then every change waits for review (checklist P2, issue #12 "rug pull"). A tool whose current
 * hash differs from its reviewed one is held: agents do not see it and its calls are refused
 * until the person accepts the change in the UI, where the old and new definitions are shown.
 */
import { isPlainObject } from '../base/json.js';
import type { ToolDefinition } from '../catalog/types.js';
import { type Clock, systemClock } from './approval-queue.js';
import { definitionHash } from './definition-hash.js';
import type { ToolKey } from './tool-key.js';

/** One tool's reviewed definition. */
export interface ReviewedDefinition extends ToolKey {
  hash: string;
  definition: ToolDefinition;
  /** ISO 8601. */
  reviewedAt: string;
  /** `first-use`: recorded the first time the tool was seen; `user`: accepted in the UI. */
  reviewedBy: 'first-use' | 'user';
}

/** The reviews file's name in the data folder. */
export const REVIEWS_FILE_NAME = 'tool-reviews.json';

/** Where the records live: a JSON file written whole and atomically (the host passes one). */
export interface ReviewsFile {
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
}

const FILE_VERSION = 1;

export class DefinitionReviews {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: ReviewsFile | undefined,
    private readonly records: Map<string, ReviewedDefinition>,
    private readonly clock: Clock,
  ) {}

  /** Reads the records; a missing or unreadable file starts empty (every tool is then first seen). */
  static async open(file?: ReviewsFile, clock: Clock = systemClock): Promise<DefinitionReviews> {
    const records = new Map<string, ReviewedDefinition>();
    const raw = await file?.read();
    const tools = isPlainObject(raw) && Array.isArray(raw.tools) ? raw.tools : [];
    for (const record of tools) {
      if (isRecord(record)) records.set(keyOf(record), record);
    }
    return new DefinitionReviews(file, records, clock);
  }

  /** The reviewed definition a tool is held against: present only when its current hash differs. */
  heldAgainst(key: ToolKey, hash: string): ReviewedDefinition | undefined {
    const record = this.records.get(keyOf(key));
    return record !== undefined && record.hash !== hash ? record : undefined;
  }

  /** The person accepted exactly this definition in the UI, not merely trusted it on first use. */
  acceptedByUser(key: ToolKey, hash: string): boolean {
    const record = this.records.get(keyOf(key));
    return record?.reviewedBy === 'user' && record.hash === hash;
  }

  /** Records the tools seen for the first time (trust on first use); a known tool is left as reviewed. */
  observe(serverId: string, definitions: readonly ToolDefinition[]): void {
    let added = false;
    for (const definition of definitions) {
      const key = { serverId, toolName: definition.name };
      if (this.records.has(keyOf(key))) continue;
      this.records.set(keyOf(key), this.record(key, definition, 'first-use'));
      added = true;
    }
    if (added) void this.persist();
  }

  /** The person accepted the tool's current definition: it is the reviewed one from now on. */
  async accept(key: ToolKey, definition: ToolDefinition): Promise<void> {
    this.records.set(keyOf(key), this.record(key, definition, 'user'));
    await this.persist();
  }

  private record(key: ToolKey, definition: ToolDefinition, reviewedBy: ReviewedDefinition['reviewedBy']) {
    return {
      serverId: key.serverId,
      toolName: key.toolName,
      hash: definitionHash(definition),
      definition: structuredClone(definition),
      reviewedAt: new Date(this.clock.now()).toISOString(),
      reviewedBy,
    };
  }

  /** Resolves once every write queued so far has finished (or failed with its warning). */
  settled(): Promise<void> {
    return this.writing;
  }

  /** Writes are queued, each the whole current set, so the file always holds one complete state. */
  private persist(): Promise<void> {
    const file = this.file;
    if (file === undefined) return Promise.resolve();
    const snapshot = { version: FILE_VERSION, tools: [...this.records.values()] };
    this.writing = this.writing
      .then(() => file.write(snapshot))
      .catch((error: unknown) => {
        console.warn('toolbridge: could not save the reviewed tool definitions:', String(error));
      });
    return this.writing;
  }
}

function keyOf(key: ToolKey): string {
  return JSON.stringify([key.serverId, key.toolName]);
}

function isRecord(value: unknown): value is ReviewedDefinition {
  return (
    isPlainObject(value) &&
    typeof value.serverId === 'string' &&
    typeof value.toolName === 'string' &&
    typeof value.hash === 'string' &&
    isPlainObject(value.definition) &&
    value.definition.name === value.toolName &&
    typeof value.reviewedAt === 'string' &&
    (value.reviewedBy === 'first-use' || value.reviewedBy === 'user')
  );
}
