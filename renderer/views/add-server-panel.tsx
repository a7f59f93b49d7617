import { useMemo, useState } from 'react';
import type { ImportReview } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import { Field } from '../components/field.js';
import {
  buildCommandConfig,
  buildUrlConfig,
  type CommandFormValues,
  type FormResult,
  type OAuthClientFormValues,
  oauthFormValues,
  serverIdTaken,
  suggestServerId,
  type UrlFormValues,
} from '../lib/server-form.js';

import type { Outcome } from '../store/outcome.js';
import { useAppStoreShallow } from '../store/store-context.js';
import { CatalogBrowser } from './catalog-panel.js';
import {
  DisplayNameField,
  ProgramReview,
  ReviewAndSubmit,
  ServerIdField,
  useSubmit,
} from './server-review.js';

export type AddServerTab = 'catalog' | 'command' | 'url' | 'import';

const TABS: Array<{ id: AddServerTab; label: string }> = [
  { id: 'catalog', label: 'From the catalog' },
  { id: 'command', label: 'Command (stdio)' },
  { id: 'url', label: 'URL (HTTP / SSE)' },
  { id: 'import', label: 'Paste a config' },
];

/** Add a server from the bundled catalog, by command, by URL, or by pasting another client's config. */
export function AddServerPanel(props: { onDone: () => void; tab?: AddServerTab }) {
  const [tab, setTab] = useState<AddServerTab>(props.tab ?? 'command');
  return (
    <section className="panel" data-testid="add-server-panel">
      <div className="panel-head">
        <h2>Add a server</h2>
        <div className="actions">
          <button type="button" className="ghost small" onClick={props.onDone}>
            Close
          </button>
        </div>
      </div>
      <div className="panel-body">
        <div className="tabs" role="tablist">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              data-testid={`add-tab-${t.id}`}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="mt-l">
          {tab === 'catalog' && <CatalogBrowser onDone={props.onDone} />}
          {tab === 'command' && <CommandForm onDone={props.onDone} />}
          {tab === 'url' && <UrlForm onDone={props.onDone} />}
          {tab === 'import' && <ImportForm onDone={props.onDone} />}
        </div>
      </div>
    </section>
  );
}

/**
 * A server form's values, with the id suggested from `source` until the user edits the id, and the
 * outcome of the last check (cleared by any edit).
 */
function useServerForm<V extends { id: string }>(initial: V, source: keyof V) {
  const ids = useAppStoreShallow((s) => Object.keys(s.servers));
  const taken = useMemo(() => new Set(ids), [ids]);
  const [values, setValues] = useState<V>(initial);
  const [idTouched, setIdTouched] = useState(false);
  const [checked, setChecked] = useState<FormResult>();
  const change = (patch: Partial<V>) => {
    const next = { ...values, ...patch };
    const sourceText = patch[source];
    if (!idTouched && typeof sourceText === 'string') next.id = suggestServerId(sourceText, taken);
    setValues(next);
    setChecked(undefined);
  };
  const fieldError = (field: string) =>
    checked !== undefined && !checked.ok && checked.field === field ? checked.message : undefined;
  const idField = {
    value: values.id,
    // Said as soon as the id is typed, not only on Review.
    error: fieldError('id') ?? serverIdTaken(values.id.trim(), taken),
    onEdit: (id: string) => {
      setIdTouched(true);
      // V's id is a plain string (the constraint); TypeScript cannot narrow a generic's key.
      change({ id } as Partial<V>);
    },
  };
  return { values, change, checked, setChecked, fieldError, idField, taken };
}

function CommandForm(props: { onDone: () => void }) {
  const {
    values,
    change,
    checked: review,
    setChecked: setReview,
    fieldError,
    idField,
    taken,
  } = useServerForm<CommandFormValues>(
    { id: '', name: '', commandLine: '', env: '', cwd: '' },
    'commandLine',
  );
  const { busy, error, submit } = useSubmit(props.onDone);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const result = buildCommandConfig(values, taken);
        if (review?.ok && result.ok) void submit(result.config);
        else setReview(result);
      }}
    >
      <div className="form-grid">
        <Field
          label="Command"
          hint="The whole command line. Quotes group words; nothing is expanded (write full paths, not ~ or $HOME)."
          error={fieldError('command')}
          className="span-all"
        >
          <input
            data-testid="server-command"
            className="mono"
            placeholder="npx -y @modelcontextprotocol/server-filesystem /home/me/Documents"
            value={values.commandLine}
            onChange={(e) => change({ commandLine: e.target.value })}
          />
        </Field>
        <ServerIdField {...idField} />
        <DisplayNameField value={values.name} onChange={(name) => change({ name })} />
        <Field
          label="Environment"
          hint="KEY=value, one per line. Values are kept in the secret store."
          error={fieldError('env')}
        >
          <textarea
            data-testid="server-env"
            value={values.env}
            onChange={(e) => change({ env: e.target.value })}
          />
        </Field>
        <Field label="Working folder" hint="Optional">
          <input
            data-testid="server-cwd"
            value={values.cwd}
            onChange={(e) => change({ cwd: e.target.value })}
          />
        </Field>
      </div>
      <ReviewAndSubmit review={review} busy={busy} error={error} onEdit={() => setReview(undefined)} />
    </form>
  );
}

function UrlForm(props: { onDone: () => void }) {
  const { values, change, setChecked, fieldError, idField, taken } = useServerForm<UrlFormValues>(
    { id: '', name: '', transport: 'http', url: '', headers: '', oauth: oauthFormValues(undefined) },
    'url',
  );
  const { busy, error, submit } = useSubmit(props.onDone);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const result = buildUrlConfig(values, taken);
        if (result.ok) void submit(result.config);
        else setChecked(result);
      }}
    >
      <div className="form-grid">
        <Field label="URL" error={fieldError('url')} className="span-all">
          <input
            data-testid="server-url"
            className="mono"
            placeholder="https://example.com/mcp"
            value={values.url}
            onChange={(e) => change({ url: e.target.value })}
          />
        </Field>
        <ServerIdField {...idField} />
        <Field label="Transport">
          <select
            data-testid="server-transport"
            value={values.transport}
            onChange={(e) => change({ transport: e.target.value === 'sse' ? 'sse' : 'http' })}
          >
            <option value="http">Streamable HTTP (falls back to SSE)</option>
            <option value="sse">SSE only (older servers)</option>
          </select>
        </Field>
        <DisplayNameField value={values.name} onChange={(name) => change({ name })} />
        <Field
          label="Headers"
          hint="Name: value, one per line (e.g. Authorization). Kept in the secret store."
          error={fieldError('headers')}
        >
          <textarea
            data-testid="server-headers"
            value={values.headers}
            onChange={(e) => change({ headers: e.target.value })}
          />
        </Field>
        <details className="span-all">
          <summary>OAuth client (only for servers that do not let apps register themselves)</summary>
          <div className="form-grid mt-s">
            <OAuthClientFields
              values={values.oauth ?? oauthFormValues(undefined)}
              errorFor={fieldError}
              onChange={(patch) =>
                change({ oauth: { ...(values.oauth ?? oauthFormValues(undefined)), ...patch } })
              }
            />
          </div>
        </details>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="server-submit">
          {busy ? 'Connecting…' : 'Add and connect'}
        </button>
        {error !== undefined && <ErrorText testId="add-server-error">{error}</ErrorText>}
      </div>
    </form>
  );
}

/**
 * A pre-registered OAuth client: what the server's authorization server gave when Toolbridge was
 * registered with it by hand. The secret goes to the secret store; the form never shows it again.
 */
export function OAuthClientFields(props: {
  values: OAuthClientFormValues;
  errorFor: (field: string) => string | undefined;
  onChange: (patch: Partial<OAuthClientFormValues>) => void;
}) {
  const { values, errorFor, onChange } = props;
  return (
    <>
      <Field
        label="OAuth client ID"
        hint="Leave blank to let the server register Toolbridge itself."
        error={errorFor('oauthClientId')}
      >
        <input
          data-testid="server-oauth-client-id"
          className="mono"
          value={values.clientId}
          onChange={(e) => onChange({ clientId: e.target.value })}
        />
      </Field>
      <Field
        label="OAuth client secret"
        hint={
          values.secretStored
            ? 'One is kept in the secret store; leave blank to keep it.'
            : 'Only if one was issued. Kept in the secret store.'
        }
      >
        <input
          data-testid="server-oauth-client-secret"
          type="password"
          autoComplete="off"
          value={values.clientSecret}
          onChange={(e) => onChange({ clientSecret: e.target.value })}
        />
      </Field>
      <Field
        label="Redirect port"
        hint={<>The port in the registered redirect URI http://127.0.0.1:&lt;port&gt;/oauth/callback.</>}
        error={errorFor('oauthRedirectPort')}
      >
        <input
          data-testid="server-oauth-redirect-port"
          inputMode="numeric"
          value={values.redirectPort}
          onChange={(e) => onChange({ redirectPort: e.target.value })}
        />
      </Field>
    </>
  );
}

function ImportForm(props: { onDone: () => void }) {
  const { reviewImport, confirmImport } = useAppStoreShallow((s) => ({
    reviewImport: s.reviewImport,
    confirmImport: s.confirmImport,
  }));
  const [text, setText] = useState('');
  const [review, setReview] = useState<ImportReview>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async <T,>(action: () => Promise<Outcome<T>>, done: (value: T) => void) => {
    setBusy(true);
    setError(undefined);
    const outcome = await action();
    setBusy(false);
    if (outcome.ok) done(outcome.value);
    else setError(outcome.error.message);
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        // Nothing runs on the first press: the host answers what it would add, for review.
        if (review === undefined) void run(() => reviewImport(text), setReview);
        else void run(() => confirmImport(review.id), props.onDone);
      }}
    >
      {review === undefined ? (
        <Field
          label="Config JSON"
          hint={
            <>
              Paste the contents of Claude Desktop's claude_desktop_config.json, Cursor's mcp.json
              ("mcpServers") or VS Code's mcp.json ("servers"). You review every server before anything runs.
            </>
          }
        >
          <textarea
            data-testid="import-text"
            rows={10}
            placeholder={
              '{\n  "mcpServers": {\n    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }\n  }\n}'
            }
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
      ) : (
        <ImportReviewList review={review} />
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || text.trim() === '' || (review !== undefined && review.servers.length === 0)}
          data-testid={review === undefined ? 'import-submit' : 'import-confirm'}
        >
          {review === undefined
            ? busy
              ? 'Reading…'
              : 'Review servers'
            : busy
              ? 'Starting…'
              : `Confirm: add and start ${review.servers.length === 1 ? 'this server' : `these ${review.servers.length} servers`}`}
        </button>
        {review !== undefined && (
          <button type="button" data-testid="import-edit" onClick={() => setReview(undefined)}>
            Edit
          </button>
        )}
        {error !== undefined && <ErrorText testId="import-error">{error}</ErrorText>}
      </div>
    </form>
  );
}

/** Every server a pasted config would add, each reviewed like the command form's, before anything runs. */
function ImportReviewList(props: { review: ImportReview }) {
  const { review } = props;
  return (
    <div data-testid="import-review">
      <p className="muted">
        Read each server below. Nothing has been added or started; Confirm adds and starts exactly these.
      </p>
      {review.notes.length > 0 && (
        <ul className="small" data-testid="import-notes">
          {review.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {review.servers.map((server) => (
        <div className="mt-m" key={server.id} data-testid={`import-review-${server.id}`}>
          <h3>
            <span className="mono">{server.id}</span>
            {server.name !== undefined && <span className="muted"> ({server.name})</span>}
            {!server.enabled && <span className="badge plain small"> added turned off</span>}
          </h3>
          {server.transport === 'stdio' ? (
            <ProgramReview
              command={server.command ?? ''}
              args={server.args ?? []}
              envNames={server.envNames ?? []}
              {...(server.cwd === undefined ? {} : { cwd: server.cwd })}
              callouts={server.callouts}
              testId={`import-program-${server.id}`}
            />
          ) : (
            <p className="small">
              Connects to <span className="mono">{server.url}</span> ({server.transport})
              {(server.headerNames ?? []).length > 0 && (
                <>
                  {' '}
                  with headers <span className="mono">{server.headerNames!.join(', ')}</span>
                </>
              )}
            </p>
          )}
        </div>
      ))}
    </div>
  );
}
