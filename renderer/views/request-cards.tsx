import { type ReactNode, useState } from 'react';
import type { CardDecision, ElicitationCardView, SamplingCardView } from '../../src/api/ui-api.js';
import type { JsonObject } from '../../src/base/json.js';
import { ErrorText, ExternalLink, ServerText } from '../components/common.js';
import { useAppStore } from '../store/store-context.js';
import { CardTimes, useArmed } from './approval-card.js';

/** Field names that suggest a secret: the field is masked, with a Reveal toggle. */
const SECRET_NAME = /pass(word|phrase)?|secret|token|api[-_ ]?key|private|pin\b|otp/i;

interface CardProps<V> {
  card: V;
  now: number;
  armedAt: number;
}

/** Sends a decision once; keeps the host's error (bad form values) for the card to show. */
function useDecision(id: string, armed: boolean) {
  const resolveCard = useAppStore((s) => s.resolveCard);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const decide = async (decision: CardDecision) => {
    if (busy || !armed) return;
    setBusy(true);
    setError(undefined);
    const outcome = await resolveCard(id, decision);
    setBusy(false);
    if (!outcome.ok && outcome.error.code !== 'NOT_FOUND') setError(outcome.error.message);
  };
  return { busy, error, decide };
}

/** What both request cards share: the frame, who asks what, the times, the buttons and the error. */
function RequestCardShell(props: {
  card: ElicitationCardView | SamplingCardView;
  label: string;
  what: string;
  now: number;
  armed: boolean;
  error: string | undefined;
  actions: ReactNode;
  children: ReactNode;
}) {
  const { card } = props;
  return (
    <section
      className="panel card"
      data-card={card.id}
      data-testid={`card-${card.id}`}
      data-kind={card.kind}
      data-armed={props.armed}
      aria-label={props.label}
    >
      <div className="panel-body">
        <div className="card-title">
          <span className="badge accent plain">{card.serverId}</span>
          <span className="muted">{props.what}</span>
          {card.origin !== undefined && (
            <span className="muted small">
              while running <span className="tool">{card.origin.toolName}</span>
            </span>
          )}
        </div>
        <CardTimes card={card} now={props.now} armed={props.armed} />
        {props.children}
        <div className="card-actions">{props.actions}</div>
        {props.error !== undefined && <ErrorText testId="card-error">{props.error}</ErrorText>}
      </div>
    </section>
  );
}

/** One decision button of a request card. */
function DecisionButton(props: {
  testId: string;
  className?: string;
  disabled: boolean;
  title?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.className}
      disabled={props.disabled}
      data-testid={props.testId}
      title={props.title}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/**
 * A server asks the person for input: a form built from its schema, or a URL whose host name is
 * shown before anything opens. The tool call waits for accept, decline or cancel.
 */
export function ElicitationCard(props: CardProps<ElicitationCardView>) {
  const { card } = props;
  const armed = useArmed(props.armedAt);
  const { busy, error, decide } = useDecision(card.id, armed);
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(card));
  const disabled = busy || !armed;
  const accept = () => {
    if (card.mode === 'url') {
      openVetted(card.url);
      void decide({ action: 'accept' });
    } else void decide({ action: 'accept', content: formContent(card, values) });
  };
  return (
    <RequestCardShell
      card={card}
      label={`Server ${card.serverId} asks for input`}
      what={card.mode === 'url' ? 'asks you to open a page' : 'asks you for input'}
      now={props.now}
      armed={armed}
      error={error}
      actions={
        <>
          <DecisionButton testId="card-accept" className="primary" disabled={disabled} onClick={accept}>
            {card.mode === 'url' ? `Open ${card.urlHost ?? 'the page'}` : 'Send'}
          </DecisionButton>
          <DecisionButton
            testId="card-decline"
            className="danger"
            disabled={disabled}
            onClick={() => void decide({ action: 'decline' })}
          >
            Decline
          </DecisionButton>
          <DecisionButton
            testId="card-cancel"
            className="ghost"
            disabled={disabled}
            title="Dismiss without answering; the server hears the request was cancelled"
            onClick={() => void decide({ action: 'cancel' })}
          >
            Dismiss
          </DecisionButton>
        </>
      }
    >
      <ServerText text={card.message} className="mt-m" testId="card-elicitation-message" />
      {card.mode === 'url' ? (
        <UrlRow card={card} />
      ) : (
        <ElicitationForm card={card} values={values} onChange={setValues} />
      )}
    </RequestCardShell>
  );
}

/** Only http(s) pages open; anything else stays text on the card. */
function openVetted(url: string | undefined): void {
  if (url === undefined) return;
  try {
    const protocol = new URL(url).protocol;
    if (protocol === 'https:' || protocol === 'http:') window.open(url, '_blank', 'noopener,noreferrer');
  } catch {
    // Not a URL: nothing opens; the server still hears the answer.
  }
}

function UrlRow(props: { card: ElicitationCardView }) {
  const { card } = props;
  return (
    <div className="target-row mt-m" data-testid="card-url-row">
      <span className="badge info">link</span>
      <div className="grow">
        <strong data-testid="card-url-host">{card.urlHost}</strong>
        <div className="small mono wrap-anywhere" data-testid="card-url">
          {card.url}
        </div>
        {card.url !== undefined && (
          <div className="faint small">
            Opens in your browser. Check the host name before you open it; nothing opens unless you do.{' '}
            <ExternalLink href={card.url}>{card.urlHost}</ExternalLink>
          </div>
        )}
      </div>
    </div>
  );
}

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  /** Labels for `enum`, in its order (the spec's legacy titled enum). */
  enumNames?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  /** A multi-select: `items` holds the choices (`enum`, or `anyOf` of `{const, title}`). */
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown; title?: string }> };
  default?: unknown;
  format?: string;
}

/** A field's value as the form holds it: text, a checkbox, or the chosen values of a multi-select. */
type FieldValue = string | boolean | string[];

/** The choices of a select or multi-select, value and label; undefined for a free field. */
function choicesOf(field: FieldSchema): Array<{ value: string; label: string }> | undefined {
  if (field.type === 'array') {
    return (
      field.items?.enum?.map((value) => ({ value: String(value), label: String(value) })) ??
      field.items?.anyOf?.map((option) => ({
        value: String(option.const),
        label: option.title ?? String(option.const),
      }))
    );
  }
  return (
    field.enum?.map((value, index) => ({
      value: String(value),
      label: String(field.enumNames?.[index] ?? value),
    })) ??
    field.oneOf?.map((option) => ({
      value: String(option.const),
      label: option.title ?? String(option.const),
    }))
  );
}

function fieldsOf(card: ElicitationCardView): Array<[string, FieldSchema]> {
  const properties = (card.requestedSchema?.properties ?? {}) as Record<string, FieldSchema>;
  return Object.entries(properties);
}

function requiredOf(card: ElicitationCardView): Set<string> {
  const required = card.requestedSchema?.required;
  return new Set(Array.isArray(required) ? required.filter((name) => typeof name === 'string') : []);
}

function initialValues(card: ElicitationCardView): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const [name, field] of fieldsOf(card)) {
    if (field.type === 'boolean') values[name] = field.default === true;
    else if (field.type === 'array')
      values[name] = Array.isArray(field.default) ? field.default.map(String) : [];
    else if (field.default !== undefined) values[name] = String(field.default);
  }
  return values;
}

/** The typed values as the schema wants them; an empty optional field is left out. */
function formContent(card: ElicitationCardView, values: Record<string, FieldValue>): JsonObject {
  const content: JsonObject = {};
  for (const [name, field] of fieldsOf(card)) {
    const value = values[name];
    if (value === undefined || value === '') continue;
    if (typeof value === 'boolean' || Array.isArray(value)) content[name] = value;
    else if (field.type === 'number' || field.type === 'integer') content[name] = Number(value);
    else content[name] = value;
  }
  return content;
}

function ElicitationForm(props: {
  card: ElicitationCardView;
  values: Record<string, FieldValue>;
  onChange: (values: Record<string, FieldValue>) => void;
}) {
  const required = requiredOf(props.card);
  const set = (name: string, value: FieldValue) => props.onChange({ ...props.values, [name]: value });
  return (
    <div className="stack mt-m" data-testid="card-elicitation-form">
      {fieldsOf(props.card).map(([name, field]) => (
        <div key={name} className="field" data-testid={`card-field-${name}`}>
          <label htmlFor={fieldId(props.card.id, name)}>
            {field.title ?? name}
            {required.has(name) && <span className="muted"> (required)</span>}
          </label>
          <FieldInput
            id={fieldId(props.card.id, name)}
            name={name}
            field={field}
            value={props.values[name]}
            onChange={(value) => set(name, value)}
          />
          {field.description !== undefined && <ServerText text={field.description} className="faint small" />}
        </div>
      ))}
    </div>
  );
}

function fieldId(cardId: string, name: string): string {
  return `card-${cardId}-field-${encodeURIComponent(name)}`;
}

function FieldInput(props: {
  id: string;
  name: string;
  field: FieldSchema;
  value: FieldValue | undefined;
  onChange: (value: FieldValue) => void;
}) {
  const { field, name } = props;
  const [reveal, setReveal] = useState(false);
  const testId = `card-input-${name}`;
  if (field.type === 'boolean') {
    return (
      <input
        id={props.id}
        type="checkbox"
        data-testid={testId}
        checked={props.value === true}
        onChange={(e) => props.onChange(e.target.checked)}
      />
    );
  }
  const choices = choicesOf(field);
  if (choices !== undefined && field.type === 'array') {
    const chosen = Array.isArray(props.value) ? props.value : [];
    return (
      <span className="row" id={props.id} data-testid={testId}>
        {choices.map((choice) => (
          <label key={choice.value} className="small">
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(e) =>
                props.onChange(
                  e.target.checked
                    ? [...chosen, choice.value]
                    : chosen.filter((value) => value !== choice.value),
                )
              }
            />{' '}
            {choice.label}
          </label>
        ))}
      </span>
    );
  }
  if (choices !== undefined) {
    return (
      <select
        data-testid={testId}
        value={String(props.value ?? '')}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">Choose…</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }
  const secret = SECRET_NAME.test(name) || SECRET_NAME.test(field.title ?? '');
  const type =
    field.type === 'number' || field.type === 'integer'
      ? 'number'
      : secret && !reveal
        ? 'password'
        : field.format === 'email'
          ? 'email'
          : field.format === 'date'
            ? 'date'
            : 'text';
  return (
    <span className="row">
      <input
        id={props.id}
        type={type}
        data-testid={testId}
        value={String(props.value ?? '')}
        onChange={(e) => props.onChange(e.target.value)}
        autoComplete="off"
      />
      {secret && (
        <button type="button" className="small ghost" onClick={() => setReveal(!reveal)}>
          {reveal ? 'Hide' : 'Reveal'}
        </button>
      )}
    </span>
  );
}

/**
 * A server asks for a reply of the agent's model, which spends the person's model: the prompt is
 * shown exactly, with the server asking and the agent whose model answers.
 */
export function SamplingCard(props: CardProps<SamplingCardView>) {
  const { card } = props;
  const armed = useArmed(props.armedAt);
  const { busy, error, decide } = useDecision(card.id, armed);
  const disabled = busy || !armed;
  return (
    <RequestCardShell
      card={card}
      label={`Server ${card.serverId} asks ${card.agentId}'s model for a reply`}
      what={`asks the model of ${card.agentId} for a reply (up to ${card.maxTokens} tokens)`}
      now={props.now}
      armed={armed}
      error={error}
      actions={
        <>
          <DecisionButton
            testId="card-approve"
            className="primary"
            disabled={disabled}
            onClick={() => void decide({ action: 'approve' })}
          >
            Approve
          </DecisionButton>
          <DecisionButton
            testId="card-deny"
            className="danger"
            disabled={disabled}
            onClick={() => void decide({ action: 'deny' })}
          >
            Deny
          </DecisionButton>
        </>
      }
    >
      {card.systemPrompt !== undefined && (
        <>
          <h3 className="section-title">System prompt</h3>
          <ServerText text={card.systemPrompt} testId="card-system-prompt" />
        </>
      )}
      <h3 className="section-title">Messages</h3>
      <div className="stack" data-testid="card-sampling-messages">
        {card.messages.map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages have no id and never reorder
          <div key={index} className="small">
            <span className="badge plain">{message.role}</span>{' '}
            {contentBlocks(message.content).map((block, blockIndex) =>
              block.text !== undefined ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no id and never reorder
                <ServerText key={blockIndex} text={block.text} inline />
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no id and never reorder
                <span key={blockIndex} className="muted">
                  [{block.label}]
                </span>
              ),
            )}
          </div>
        ))}
      </div>
      {card.includeContext !== undefined && card.includeContext !== 'none' && (
        <p className="callout warn mt-m">
          The server also asks the agent to add context from{' '}
          {card.includeContext === 'allServers' ? 'all servers' : 'this server'}.
        </p>
      )}
    </RequestCardShell>
  );
}

/** A message's content blocks: text as text, anything else named by its type and MIME type. */
function contentBlocks(content: unknown): Array<{ text?: string; label?: string }> {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => {
    const { type, text, mimeType } = (block ?? {}) as { type?: unknown; text?: unknown; mimeType?: unknown };
    if (type === 'text' && typeof text === 'string') return { text };
    return { label: [type, mimeType].filter((part) => typeof part === 'string').join(' ') || 'content' };
  });
}
