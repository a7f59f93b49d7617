import { describe, expect, it } from 'vitest';
import {
  type ArgumentCheck,
  createArgumentValidator,
  formatPath,
} from '../../../src/bridge/argument-validator.js';

function failure(check: ArgumentCheck) {
  if (check.ok) throw new Error('expected the check to fail');
  return check.error;
}

describe('createArgumentValidator', () => {
  it('lets a call through when the tool has no schema', () => {
    const validator = createArgumentValidator();
    expect(validator.check('t', undefined, { a: 1 }, 'tool_call')).toEqual({ ok: true, args: { a: 1 } });
  });

  it('names every missing required argument before validating anything else', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a', 'b'],
    };
    const error = failure(createArgumentValidator().check('mcp__s__t', schema, { b: 'x' }, 'tool_call'));
    expect(error).toEqual({
      error: "tool_call to 'mcp__s__t' is missing required argument(s): a. The tool was NOT invoked.",
      path: 'arguments',
      constraint: 'required',
      parameters: schema,
      hint: expect.stringContaining('parameters above'),
    });
  });

  it('words the error for a direct call without mentioning tool_call', () => {
    const schema = { type: 'object', required: ['a'] };
    const error = failure(createArgumentValidator().check('pinned', schema, {}, 'direct'));
    expect(error.error).toBe(
      "The call to 'pinned' is missing required argument(s): a. The tool was NOT invoked.",
    );
  });

  it('reports array items and odd keys in the path', () => {
    const schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'integer' } },
        'odd key': { type: 'boolean' },
      },
    };
    const validator = createArgumentValidator();
    expect(failure(validator.check('t', schema, { items: [1, 'x'] }, 'tool_call')).path).toBe(
      'arguments.items[1]',
    );
    expect(failure(validator.check('t', schema, { 'odd key': 'maybe' }, 'tool_call')).path).toBe(
      'arguments["odd key"]',
    );
  });

  it('shows the allowed values of a failed enum', () => {
    const schema = { type: 'object', properties: { p: { enum: ['low', 'high'] } } };
    const error = failure(createArgumentValidator().check('t', schema, { p: 'urgent' }, 'tool_call'));
    expect(error.constraint).toBe('enum');
    expect(error.error).toBe(
      `tool_call to 't' failed argument validation at arguments.p (enum): "urgent" is not one of ["low","high"]. The tool was NOT invoked.`,
    );
  });

  it('collapses whitespace and caps the validator message at 600 characters', () => {
    const long = `${'a'.repeat(400)}\n\n   ${'b'.repeat(400)}`;
    const schema = { type: 'object', properties: { p: { const: long } } };
    const error = failure(createArgumentValidator().check('t', schema, { p: 'x' }, 'tool_call'));
    const detail = error.error.slice(
      error.error.indexOf('(const): ') + '(const): '.length,
      -'. The tool was NOT invoked.'.length,
    );
    expect(detail).toHaveLength(600);
    expect(detail.endsWith('...')).toBe(true);
    expect(detail).not.toMatch(/\s{2}|\n/);
  });

  it('prefers a concrete error from inside anyOf over "no branch matched"', () => {
    const schema = {
      type: 'object',
      properties: { v: { anyOf: [{ type: 'string', minLength: 5 }, { type: 'integer' }] } },
    };
    const error = failure(createArgumentValidator().check('t', schema, { v: 'abc' }, 'tool_call'));
    expect(error.path).toBe('arguments.v');
    expect(['minLength', 'type']).toContain(error.constraint);
  });

  it('accepts null for an OpenAPI nullable property, with or without a type', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', nullable: true }, b: { minLength: 2, nullable: true } },
    };
    const validator = createArgumentValidator();
    expect(validator.check('t', schema, { a: null, b: null }, 'tool_call').ok).toBe(true);
    expect(failure(validator.check('t', schema, { a: 3 }, 'tool_call')).constraint).toBe('type');
  });

  it('never fetches: a non-local $ref anywhere skips validation', () => {
    const schema = {
      type: 'object',
      properties: { deep: { type: 'object', properties: { x: { $ref: 'https://example.invalid/x.json' } } } },
    };
    expect(createArgumentValidator().check('t', schema, { deep: { x: 42 } }, 'tool_call').ok).toBe(true);
  });

  it('follows local $refs', () => {
    const schema = {
      type: 'object',
      $defs: { count: { type: 'integer' } },
      properties: { n: { $ref: '#/$defs/count' } },
    };
    expect(failure(createArgumentValidator().check('t', schema, { n: 'many' }, 'tool_call')).constraint).toBe(
      'type',
    );
  });

  it('fails open on a schema the validator rejects', () => {
    const schema = { type: 'object', properties: { a: { type: 'no-such-type' } } };
    expect(createArgumentValidator().check('t', schema, { a: 1 }, 'tool_call')).toEqual({
      ok: true,
      args: { a: 1 },
    });
  });

  it('picks the draft from $schema: 2020-12 understands prefixItems, draft-07 ignores it', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'integer' }] };
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { t: tuple },
    };
    const legacy = { type: 'object', properties: { t: tuple } };
    const validator = createArgumentValidator();
    expect(failure(validator.check('t', modern, { t: ['x'] }, 'tool_call')).path).toBe('arguments.t[0]');
    expect(validator.check('t', legacy, { t: ['x'] }, 'tool_call').ok).toBe(true);
  });

  it('handles 2019-09 schemas (dependentRequired)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      dependentRequired: { a: ['b'] },
    };
    expect(failure(createArgumentValidator().check('t', schema, { a: 1 }, 'tool_call')).constraint).toBe(
      'dependentRequired',
    );
  });

  it('checks formats', () => {
    const schema = { type: 'object', properties: { to: { type: 'string', format: 'email' } } };
    const validator = createArgumentValidator();
    expect(failure(validator.check('t', schema, { to: 'not an address' }, 'tool_call')).constraint).toBe(
      'format',
    );
    expect(validator.check('t', schema, { to: 'a@example.com' }, 'tool_call').ok).toBe(true);
  });

  it('compiles two tools that share a root $id', () => {
    const validator = createArgumentValidator();
    const first = { $id: 'urn:same', type: 'object', properties: { a: { type: 'integer' } } };
    const second = { $id: 'urn:same', type: 'object', properties: { b: { type: 'integer' } } };
    expect(failure(validator.check('one', first, { a: 'x' }, 'tool_call')).path).toBe('arguments.a');
    expect(failure(validator.check('two', second, { b: 'x' }, 'tool_call')).path).toBe('arguments.b');
  });

  it('validates and dispatches the coerced copy, leaving the caller arguments untouched', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const args = { n: '42' };
    expect(createArgumentValidator().check('t', schema, args, 'tool_call')).toEqual({
      ok: true,
      args: { n: 42 },
    });
    expect(args).toEqual({ n: '42' });
  });

  it('compiles a schema once, even when the catalog is rebuilt with new but equal objects', () => {
    const validator = createArgumentValidator();
    const build = () => ({ type: 'object', properties: { n: { type: 'integer' } } });
    for (let i = 0; i < 5; i += 1) validator.check('t', build(), { n: 1 }, 'tool_call');
    expect(validator.cachedSchemas).toBe(1);
  });

  it('keeps at most maxCachedSchemas compiled schemas and still validates after eviction', () => {
    const validator = createArgumentValidator({ maxCachedSchemas: 2 });
    const schemaFor = (key: string) => ({ type: 'object', properties: { [key]: { type: 'integer' } } });
    for (const key of ['a', 'b', 'c', 'd']) validator.check('t', schemaFor(key), { [key]: 1 }, 'tool_call');
    expect(validator.cachedSchemas).toBe(2);
    expect(failure(validator.check('t', schemaFor('a'), { a: 'x' }, 'tool_call')).path).toBe('arguments.a');
  });
});

describe('formatPath', () => {
  it('walks objects and arrays from a JSON pointer', () => {
    const data = { options: { list: [{ 'a/b': 1 }] } };
    expect(formatPath('', data)).toBe('arguments');
    expect(formatPath('/options/list/0/a~1b', data)).toBe('arguments.options.list[0]["a/b"]');
  });
});

describe('checkOutput', () => {
  const schema = {
    type: 'object',
    properties: { items: { type: 'array', items: { type: 'integer' } } },
    required: ['items'],
  };

  it('issue #14: passes structuredContent that matches, and anything when there is no schema', () => {
    const validator = createArgumentValidator();
    expect(validator.checkOutput('t', schema, { items: [1, 2] })).toEqual({ ok: true });
    expect(validator.checkOutput('t', undefined, { anything: true })).toEqual({ ok: true });
  });

  it('issue #14: names the path and keyword of a mismatch under structuredContent', () => {
    const check = createArgumentValidator().checkOutput('mcp__s__t', schema, { items: [1, 'two'] });
    expect(check).toEqual({
      ok: false,
      message:
        'Tool \'mcp__s__t\' returned structuredContent that does not match its outputSchema at structuredContent.items[1] (type): "two" is not of type "integer".',
    });
  });

  it('issue #14: a declared outputSchema with no structuredContent is a mismatch', () => {
    const check = createArgumentValidator().checkOutput('t', schema, undefined);
    expect(check.ok).toBe(false);
  });

  it('issue #14: a schema that cannot be compiled lets the result through', () => {
    const broken = { type: 'object', properties: { a: { $ref: 'https://example.com/x.json' } } };
    expect(createArgumentValidator().checkOutput('t', broken, { a: 1 })).toEqual({ ok: true });
  });
});
