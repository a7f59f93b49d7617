/** A connector account's alias: 1–32 lower-case letters, digits or `-`, starting with a letter or digit. */
export const ACCOUNT_ALIAS = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const ACCOUNT_ALIAS_RULE =
  'an alias is 1–32 lower-case letters, digits or "-", starting with a letter or digit';
