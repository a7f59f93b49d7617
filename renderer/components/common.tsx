import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { ServerStatus } from '../../src/api/ui-api.js';
import { findSuspicious, revealHidden } from '../../src/base/suspicious-text.js';
import { nameParts, prettyJson } from '../lib/format.js';

export function ViewHeader(props: { title: string; lede: ReactNode; actions?: ReactNode }) {
  return (
    <header className="view-header">
      <div className="grow">
        <h1>{props.title}</h1>
        <p className="lede">{props.lede}</p>
      </div>
      {props.actions !== undefined && <div className="actions">{props.actions}</div>}
    </header>
  );
}

export function EmptyState(props: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="panel empty" data-testid={props.testId}>
      <h2>{props.title}</h2>
      <p>{props.children}</p>
      {props.actions !== undefined && <div className="actions">{props.actions}</div>}
    </div>
  );
}

const STATUS_LABELS: Record<ServerStatus, string> = {
  starting: 'Starting',
  connected: 'Connected',
  error: 'Error',
  'needs-auth': 'Needs sign-in',
  disabled: 'Disabled',
};

/** A server's status; `stale` when the host is unreachable, so the last known state is not shown as current. */
export function StatusBadge(props: { status: ServerStatus; stale?: boolean; testId?: string }) {
  if (props.stale === true) {
    return (
      <span
        className="badge plain"
        data-testid={props.testId}
        data-status="unknown"
        title={`Toolbridge is not reachable; last known: ${STATUS_LABELS[props.status]}`}
      >
        Unknown
      </span>
    );
  }
  return (
    <span className={`badge ${props.status}`} data-testid={props.testId} data-status={props.status}>
      {STATUS_LABELS[props.status]}
    </span>
  );
}

export function Toggle(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={props.checked}
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.label}
    </label>
  );
}

/** JSON as readable, selectable text; never interpreted as markup. */
export function JsonBlock(props: { value: unknown; testId?: string; className?: string }) {
  return (
    <pre className={`code ${props.className ?? ''}`} data-testid={props.testId}>
      {prettyJson(props.value)}
    </pre>
  );
}

export function ErrorText(props: { children: ReactNode; testId?: string }) {
  return (
    <p className="error-text" role="alert" data-testid={props.testId}>
      {props.children}
    </p>
  );
}

export function CopyButton(props: { text: string; label?: string; testId?: string; onCopy?: () => void }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="button"
      className="small"
      data-testid={props.testId}
      onClick={() => {
        props.onCopy?.();
        void navigator.clipboard.writeText(props.text).then(() => {
          setCopied(true);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}

/**
 * Text a server sent (a tool description, an error): shown in full as plain text, with a warning
 * and a "show hidden characters" view when it carries tricks meant to hide instructions.
 */
export function ServerText(props: { text: string; className?: string; testId?: string; inline?: boolean }) {
  const warnings = findSuspicious(props.text);
  const [reveal, setReveal] = useState(false);
  const Tag = props.inline === true && warnings.length === 0 ? 'span' : 'div';
  return (
    <Tag className={props.className} data-testid={props.testId}>
      {reveal ? revealHidden(props.text) : props.text}
      {warnings.length > 0 && (
        <div className="row mt-s">
          <span className="badge warn" data-testid="suspicious-text" title={warnings.join(', ')}>
            Contains {warnings.join(', ')}
          </span>
          <button type="button" className="small ghost" onClick={() => setReveal(!reveal)}>
            {reveal ? 'Show as sent' : 'Show hidden characters'}
          </button>
        </div>
      )}
    </Tag>
  );
}

/** A link only for http(s) URLs; anything else (javascript:, file:, data:) stays plain text. */
export function ExternalLink(props: { href: string; children?: ReactNode }) {
  let safe = false;
  try {
    const protocol = new URL(props.href).protocol;
    safe = protocol === 'https:' || protocol === 'http:';
  } catch {
    safe = false;
  }
  if (!safe) return <span className="mono wrap-anywhere">{props.href}</span>;
  return (
    <a href={props.href} target="_blank" rel="noopener noreferrer">
      {props.children ?? props.href}
    </a>
  );
}

/** A tool or server name in mono that wraps only after `_`, `-`, `.`, `/` or `:`, never mid-word. */
export function ToolName(props: { name: string; className?: string; testId?: string }) {
  const parts = nameParts(props.name);
  return (
    <span
      className={`tool-name${props.className === undefined ? '' : ` ${props.className}`}`}
      data-testid={props.testId}
    >
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name, in order
        <span key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </span>
      ))}
    </span>
  );
}
