import { describe, expect, it } from 'vitest';
import type { GatewayFailure } from '../../../src/connectors/gateway-client.js';
import { parseSearchResponse } from '../../../src/connectors/gateway-wire.js';
import {
  connectorCatalogEntry,
  connectorDocuments,
  connectorsStatus,
  NOT_SET_UP_HINT,
} from '../../../src/connectors/merge.js';

/** Builds a search answer the way the wire parser would, from a compact description. */
function answer(groups: Array<{ useCase?: string; tools: string[] }>, schemas: Record<string, unknown>) {
  const parsed = parseSearchResponse({ results: groups, schemas });
  if (parsed === undefined) throw new Error('fixture is not a valid search answer');
  return parsed;
}

const gmailSend = {
  connector: 'gmail',
  tool: 'GMAIL_SEND_EMAIL',
  description: 'Send an email via gmail',
  inputSchema: { type: 'object', required: ['to', 'subject'] },
};

describe('connectorDocuments', () => {
  it('turns each kept slug into a document named for the agent, labelled with the connector', () => {
    const docs = connectorDocuments(
      ['send an email'],
      answer([{ useCase: 'send an email', tools: ['GMAIL_SEND_EMAIL'] }], { GMAIL_SEND_EMAIL: gmailSend }),
    );
    expect(docs).toEqual([
      [
        {
          name: 'connectors__gmail__SEND_EMAIL',
          description: 'Send an email via gmail',
          inputSchema: { type: 'object', required: ['to', 'subject'] },
          server: 'gmail',
          slug: 'GMAIL_SEND_EMAIL',
        },
      ],
    ]);
  });

  it('drops slugs without a schema and schemas without a connector', () => {
    const docs = connectorDocuments(
      ['send an email'],
      answer([{ tools: ['GMAIL_SEND_EMAIL', 'ORPHAN_TOOL', 'NO_CONNECTOR'] }], {
        GMAIL_SEND_EMAIL: gmailSend,
        NO_CONNECTOR: { tool: 'NO_CONNECTOR', description: 'd' },
      }),
    );
    expect(docs[0]?.map((d) => d.name)).toEqual(['connectors__gmail__SEND_EMAIL']);
  });

  it('matches groups by position, not by their index field', () => {
    const docs = connectorDocuments(
      ['first', 'second'],
      parseSearchResponse({
        results: [
          { index: 1, tools: ['A_ONE'] },
          { index: 0, tools: ['B_TWO'] },
        ],
        schemas: { A_ONE: { connector: 'a', description: '' }, B_TWO: { connector: 'b', description: '' } },
      })!,
    );
    expect(docs.map((group) => group.map((d) => d.name))).toEqual([
      ['connectors__a__ONE'],
      ['connectors__b__TWO'],
    ]);
  });

  it('drops a group whose echoed use case differs from its query, keeping its siblings', () => {
    const docs = connectorDocuments(
      ['send an email', 'read notes'],
      answer(
        [
          { useCase: 'SOMETHING ELSE', tools: ['CUSTOM_X_READ'] },
          { useCase: 'read notes', tools: ['CUSTOM_X_READ'] },
        ],
        { CUSTOM_X_READ: { connector: 'custom_x', description: 'd' } },
      ),
    );
    expect(docs).toEqual([[], [expect.objectContaining({ name: 'connectors__custom_x__READ' })]]);
  });

  it('accepts an empty or missing echo, and gives missing groups no documents', () => {
    const docs = connectorDocuments(
      ['a', 'b', 'c'],
      answer([{ useCase: '', tools: ['X_ONE'] }, { tools: ['X_ONE'] }], {
        X_ONE: { connector: 'x', description: '' },
      }),
    );
    expect(docs.map((group) => group.length)).toEqual([1, 1, 0]);
  });

  it('lower-cases a vendor-cased connector in the name but keeps its spelling as the label', () => {
    const docs = connectorDocuments(
      ['custom_x read'],
      answer([{ tools: ['CUSTOM_X_READ'] }], {
        CUSTOM_X_READ: { connector: 'CUSTOM_X', tool: 'CUSTOM_X_READ', description: 'd', input_schema: {} },
      }),
    );
    expect(docs[0]).toEqual([
      {
        name: 'connectors__custom_x__READ',
        description: 'd',
        inputSchema: {},
        server: 'CUSTOM_X',
        slug: 'CUSTOM_X_READ',
      },
    ]);
  });

  it.each([
    ['prefixed first', ['GMAIL_FETCH_PROFILE', 'FETCH_PROFILE']],
    ['literal first', ['FETCH_PROFILE', 'GMAIL_FETCH_PROFILE']],
  ])('keeps only the prefixed twin (%s) and warns once', (_label, tools) => {
    const warnings: string[] = [];
    const docs = connectorDocuments(
      ['gmail fetch profile'],
      answer([{ tools }], {
        GMAIL_FETCH_PROFILE: { connector: 'gmail', description: 'prefixed twin' },
        FETCH_PROFILE: { connector: 'gmail', description: 'literal twin' },
      }),
      (message) => warnings.push(message),
    );
    expect(docs[0]?.map((d) => [d.name, d.description])).toEqual([
      ['connectors__gmail__FETCH_PROFILE', 'prefixed twin'],
    ]);
    expect(warnings).toHaveLength(1);
  });

  it('applies the twin rule per group, so the same name may appear in two groups', () => {
    const docs = connectorDocuments(
      ['q1', 'q2'],
      answer([{ tools: ['FETCH_PROFILE'] }, { tools: ['GMAIL_FETCH_PROFILE'] }], {
        GMAIL_FETCH_PROFILE: { connector: 'gmail', description: 'prefixed twin' },
        FETCH_PROFILE: { connector: 'gmail', description: 'literal twin' },
      }),
      () => {},
    );
    expect(docs.map((group) => group.map((d) => d.slug))).toEqual([
      ['FETCH_PROFILE'],
      ['GMAIL_FETCH_PROFILE'],
    ]);
  });

  it('drops a slug whose connector could not be parsed back out of the name', () => {
    const docs = connectorDocuments(
      ['q'],
      answer([{ tools: ['BAD_TOOL'] }], { BAD_TOOL: { connector: 'bad__name', description: '' } }),
    );
    expect(docs).toEqual([[]]);
  });
});

describe('connectorsStatus', () => {
  const failure = (kind: GatewayFailure['kind']): GatewayFailure => ({ kind, message: 'm' });

  it('is silent when the gateway is dark', () => {
    expect(connectorsStatus(failure('dark'))).toBeUndefined();
  });

  it('says unreachable without suggesting the app is missing', () => {
    const status = connectorsStatus(failure('unreachable'));
    expect(status).toMatchObject({ status: 'unavailable', reason: 'unreachable' });
    expect(status?.hint).toContain('Do not conclude that an app is missing');
  });

  it('asks for a new sign-in when the token was refused', () => {
    const status = connectorsStatus(failure('sign_in_expired'));
    expect(status).toMatchObject({ status: 'unavailable', reason: 'sign_in_expired' });
    expect(status?.hint).toContain('sign in to the connector gateway again');
  });

  it('points to manage_connections when nothing is set up, and lists unanswered names', () => {
    expect(connectorsStatus(failure('not_set_up'), ['connectors__a__B'])).toEqual({
      status: 'not_set_up',
      hint: NOT_SET_UP_HINT,
      names: ['connectors__a__B'],
    });
    expect(NOT_SET_UP_HINT).toContain('manage_connections');
  });
});

describe('connectorCatalogEntry', () => {
  it('makes a connectors-source catalog entry keyed by the lower-case connector', () => {
    expect(
      connectorCatalogEntry({
        name: 'connectors__custom_x__READ',
        description: 'd',
        inputSchema: { type: 'object' },
      }),
    ).toEqual({
      name: 'connectors__custom_x__READ',
      serverId: 'custom_x',
      toolName: 'READ',
      source: 'connectors',
      description: 'd',
      inputSchema: { type: 'object' },
    });
  });
});
