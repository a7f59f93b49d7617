import { describe, expect, it } from 'vitest';
import {
  namespaceContentBlock,
  namespacedPromptName,
  namespacedUri,
  parseNamespacedUri,
  parsePromptName,
} from '../../../src/catalog/upstream-names.js';

describe('upstream names', () => {
  it('issue #14: a resource URI round-trips verbatim under its server, whatever it holds', () => {
    for (const uri of [
      'file:///tmp/a b.txt',
      'notes://note/{id}',
      'https://x.example/p?q=1#f',
      'toolbridge://other/x',
    ]) {
      expect(parseNamespacedUri(namespacedUri('files-2', uri))).toEqual({ serverId: 'files-2', name: uri });
    }
  });

  it('issue #14: names that are not ours do not parse', () => {
    for (const uri of [
      'file:///x',
      'toolbridge://',
      'toolbridge:///x',
      'toolbridge://UP/x',
      'toolbridge://a/',
    ]) {
      expect(parseNamespacedUri(uri)).toBeUndefined();
    }
    expect(parsePromptName('plain')).toBeUndefined();
    expect(parsePromptName('__x')).toBeUndefined();
  });

  it('issue #14: a prompt name splits at its first __, the prompt keeping any of its own', () => {
    expect(parsePromptName(namespacedPromptName('srv', 'a__b'))).toEqual({ serverId: 'srv', name: 'a__b' });
  });

  it('issue #14: resource links and embedded resources name their server; other blocks are untouched', () => {
    expect(namespaceContentBlock('s', { type: 'resource_link', uri: 'x://1', name: 'one' })).toEqual({
      type: 'resource_link',
      uri: 'toolbridge://s/x://1',
      name: 'one',
    });
    expect(namespaceContentBlock('s', { type: 'resource', resource: { uri: 'x://2', text: 't' } })).toEqual({
      type: 'resource',
      resource: { uri: 'toolbridge://s/x://2', text: 't' },
    });
    const text = { type: 'text', text: 'x://3' };
    expect(namespaceContentBlock('s', text)).toBe(text);
  });
});
