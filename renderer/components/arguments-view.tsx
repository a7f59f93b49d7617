import { type ReactNode, useState } from 'react';
import type { ArgumentSecret } from '../../src/api/ui-api.js';
import type { JsonValue } from '../../src/base/json.js';

/** `content`, `headers.Authorization`, `list[2]`, `a["odd key"]`: a value's place in the arguments. */
export function formatArgumentPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === '' ? '(the arguments)' : out;
}

/**
 * The arguments exactly as they will be sent, every key shown (`__proto__` too), as indented
 * JSON. A secret-looking value is masked and marked, with a Reveal toggle that shows it exactly.
 */
export function ArgumentsView(props: {
  value: JsonValue;
  secrets: readonly ArgumentSecret[];
  testId?: string;
}) {
  const masked = new Map(props.secrets.map((secret) => [JSON.stringify(secret.path), secret]));
  return (
    <pre className="code" data-testid={props.testId}>
      {renderValue(props.value, [], '', masked)}
    </pre>
  );
}

/** The warning above the arguments: which values look secret, and what they look like. */
export function SecretWarning(props: { secrets: readonly ArgumentSecret[]; testId?: string }) {
  if (props.secrets.length === 0) return null;
  return (
    <div className="callout warn mt-m" role="alert" data-testid={props.testId}>
      <strong>
        {props.secrets.length === 1 ? 'A secret-looking value is' : 'Secret-looking values are'} about to be
        sent.
      </strong>{' '}
      Reveal {props.secrets.length === 1 ? 'it' : 'each'} below and approve only if it should go to this tool:
      <ul className="secret-list">
        {props.secrets.map((secret) => (
          <li key={JSON.stringify(secret.path)}>
            <span className="mono">{formatArgumentPath(secret.path)}</span>: {secret.kinds.join('; ')}
          </li>
        ))}
      </ul>
    </div>
  );
}

function renderValue(
  value: JsonValue,
  path: Array<string | number>,
  indent: string,
  masked: ReadonlyMap<string, ArgumentSecret>,
): ReactNode {
  const secret = masked.get(JSON.stringify(path));
  if (secret !== undefined && (value === null || typeof value !== 'object'))
    return <MaskedValue value={value} secret={secret} />;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries: Array<[string | number, JsonValue]> = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  return (
    <>
      {open}
      {'\n'}
      {entries.map(([key, member], index) => (
        <span key={typeof key === 'number' ? key : JSON.stringify(key)}>
          {inner}
          {typeof key === 'string' && <span className="json-key">{JSON.stringify(key)}</span>}
          {typeof key === 'string' && ': '}
          {renderValue(member, [...path, key], inner, masked)}
          {index < entries.length - 1 ? ',' : ''}
          {'\n'}
        </span>
      ))}
      {indent}
      {close}
    </>
  );
}

function MaskedValue(props: { value: string | number | boolean | null; secret: ArgumentSecret }) {
  const [revealed, setRevealed] = useState(false);
  const where = formatArgumentPath(props.secret.path);
  return (
    <span className="masked-value" data-testid="card-secret" data-path={where} data-revealed={revealed}>
      {revealed ? (
        <span data-testid="card-secret-value">{JSON.stringify(props.value)}</span>
      ) : (
        <span className="masked" title={`Masked: ${props.secret.kinds.join('; ')}`}>
          "••••••••"
        </span>
      )}{' '}
      <span className="badge warn plain small">masked: {props.secret.kinds.join('; ')}</span>{' '}
      <button
        type="button"
        className="small ghost"
        data-testid="card-secret-reveal"
        aria-pressed={revealed}
        aria-label={`${revealed ? 'Hide' : 'Reveal'} the value of ${where}`}
        onClick={() => setRevealed(!revealed)}
      >
        {revealed ? 'Hide' : 'Reveal'}
      </button>
    </span>
  );
}
