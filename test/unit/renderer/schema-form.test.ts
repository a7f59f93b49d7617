import { describe, expect, it } from 'vitest';
import { emptyValues, formArguments, formFields, jsonArguments } from '../../../renderer/lib/schema-form.js';
import { readFirstRun, showFirstRun } from '../../../renderer/store/first-run-slice.js';
import { createAppStore } from '../../../renderer/store/index.js';
import { createFakeApi } from '../web/fake-api.js';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Where' },
    mode: { type: 'string', enum: ['read', 'write'] },
    depth: { type: 'integer' },
    ratio: { type: 'number' },
    recursive: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path', 'recursive'],
};

describe('issue #16: the Playground argument form from an input schema', () => {
  it('makes one field per property, enum as a menu, the rest as JSON', () => {
    expect(formFields(schema)).toEqual([
      { name: 'path', kind: 'text', required: true, description: 'Where' },
      { name: 'mode', kind: 'enum', required: false, options: ['read', 'write'] },
      { name: 'depth', kind: 'integer', required: false },
      { name: 'ratio', kind: 'number', required: false },
      { name: 'recursive', kind: 'boolean', required: true },
      { name: 'tags', kind: 'json', required: false },
    ]);
    expect(formFields({ type: 'object' })).toEqual([]);
    expect(formFields(undefined)).toBeUndefined();
    expect(formFields({ type: 'array' })).toBeUndefined();
  });

  it('turns the typed values into arguments, leaving out empty optional ones', () => {
    const fields = formFields(schema)!;
    const values = {
      ...emptyValues(fields),
      path: '/tmp',
      depth: '3',
      ratio: '0.5',
      tags: '["a"]',
      mode: 'read',
    };
    expect(formArguments(fields, values)).toEqual({
      ok: true,
      value: { path: '/tmp', mode: 'read', depth: 3, ratio: 0.5, recursive: false, tags: ['a'] },
    });
    expect(formArguments(fields, { ...emptyValues(fields), path: 'x' })).toEqual({
      ok: true,
      value: { path: 'x', recursive: false },
    });
  });

  it.each([
    [{ path: '' }, '"path" is required.'],
    [{ depth: '2.5' }, '"depth" must be a whole number.'],
    [{ ratio: 'half' }, '"ratio" must be a number.'],
    [{ tags: '[a' }, '"tags" must be JSON, e.g. ["a", "b"] or {"key": "value"}.'],
  ])('says what to fix: %o', (patch, message) => {
    const fields = formFields(schema)!;
    expect(formArguments(fields, { ...emptyValues(fields), path: '/tmp', ...patch })).toEqual({
      ok: false,
      message,
    });
  });

  it('checks the JSON fallback', () => {
    expect(jsonArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(jsonArguments('[1]')).toMatchObject({ ok: false });
    expect(jsonArguments('{')).toEqual({ ok: false, message: 'The arguments are not valid JSON.' });
  });
});

describe('issue #16: the first-run checklist', () => {
  it('reads what was stored, forgivingly, and shows until done or dismissed', () => {
    expect(readFirstRun(null)).toEqual({ done: [], dismissed: false });
    expect(readFirstRun('garbage')).toEqual({ done: [], dismissed: false });
    expect(readFirstRun('{"done":["try-search","nope"],"dismissed":false}')).toEqual({
      done: ['try-search'],
      dismissed: false,
    });
    expect(showFirstRun({ done: ['try-search'], dismissed: false })).toBe(true);
    expect(showFirstRun({ done: ['try-search'], dismissed: true })).toBe(false);
    expect(showFirstRun({ done: ['copy-config', 'try-search', 'choose-approvals'], dismissed: false })).toBe(
      false,
    );
  });

  it('ticks steps off in order and keeps them in storage', () => {
    const kept = new Map<string, string>();
    const storage = {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
    const store = createAppStore(createFakeApi().api, 'open', storage);
    store.getState().markFirstRun('choose-approvals');
    store.getState().markFirstRun('copy-config');
    store.getState().markFirstRun('copy-config');
    expect(store.getState().firstRun.done).toEqual(['copy-config', 'choose-approvals']);
    const again = createAppStore(createFakeApi().api, 'open', storage);
    expect(again.getState().firstRun.done).toEqual(['copy-config', 'choose-approvals']);
    again.getState().dismissFirstRun();
    expect(createAppStore(createFakeApi().api, 'open', storage).getState().firstRun.dismissed).toBe(true);
  });
});
