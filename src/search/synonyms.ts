/**
 * Small groups of action words that tool descriptions and queries use interchangeably. Kept
 * short on purpose: each group is a few verbs that mean the same thing for a tool, so a query
 * saying "open a ticket" also finds "create ticket" without drifting to unrelated tools.
 */
export const ACTION_SYNONYMS: readonly (readonly string[])[] = Object.freeze([
  Object.freeze(['create', 'add', 'new', 'open', 'make']),
  Object.freeze(['delete', 'remove', 'erase', 'destroy']),
  Object.freeze(['get', 'fetch', 'retrieve', 'read', 'show']),
  Object.freeze(['list', 'enumerate']),
  Object.freeze(['update', 'edit', 'modify', 'change']),
  Object.freeze(['send', 'post']),
  Object.freeze(['search', 'find', 'lookup']),
  Object.freeze(['run', 'execute', 'trigger']),
]);
