import { useState } from 'react';
import type { ServerConfig } from '../../src/api/ui-api.js';
import { ErrorText } from '../components/common.js';
import {
  buildCommandConfig,
  buildUrlConfig,
  type CommandFormValues,
  commandWarnings,
  type FormResult,
  type OAuthClientFormValues,
  oauthFormValues,
  suggestServerId,
  type UrlFormValues,
} from '../lib/server-form.js';
import { useAppStore } from '../store/store-context.js';

type Tab = 'command' | 'url' | 'import';

const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'command', label: 'Command (stdio)' },
  { id: 'url', label: 'URL (HTTP / SSE)' },
  { id: 'import', label: 'Paste a config' },
];

/** Add a server by command, by URL, or by pasting another client's config. */
export function AddServerPanel(props: { onDone: () => void }) {
  const [tab, setTab] = useState<Tab>('command');
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
          {tab === 'command' && <CommandForm onDone={props.onDone} />}
          {tab === 'url' && <UrlForm onDone={props.onDone} />}
          {tab === 'import' && <ImportForm onDone={props.onDone} />}
        </div>
      </div>
    </section>
  );
}

function useSubmit(onDone: () => void) {
  const addServer = useAppStore((s) => s.addServer);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (config: ServerConfig) => {
    setBusy(true);
    setError(undefined);
    const outcome = await addServer(config);
    setBusy(false);
    if (outcome.ok) onDone();
    else setError(outcome.error.message);
  };
  return { busy, error, setError, submit };
}

/**
 * A server form's values, with the id suggested from `source` until the user edits the id, and the
 * outcome of the last check (cleared by any edit).
 */
function useServerForm<V extends { id: string }>(initial: V, source: keyof V) {
  const [values, setValues] = useState<V>(initial);
  const [idTouched, setIdTouched] = useState(false);
  const [checked, setChecked] = useState<FormResult>();
  const change = (patch: Partial<V>) => {
    const next = { ...values, ...patch };
    const sourceText = patch[source];
    if (!idTouched && typeof sourceText === 'string') next.id = suggestServerId(sourceText);
    setValues(next);
    setChecked(undefined);
  };
  const fieldError = (field: string) =>
    checked !== undefined && !checked.ok && checked.field === field ? checked.message : undefined;
  const idField = {
    value: values.id,
    error: fieldError('id'),
    onEdit: (id: string) => {
      setIdTouched(true);
      // V's id is a plain string (the constraint); TypeScript cannot narrow a generic's key.
      change({ id } as Partial<V>);
    },
  };
  return { values, change, checked, setChecked, fieldError, idField };
}

function CommandForm(props: { onDone: () => void }) {
  const {
    values,
    change,
    checked: review,
    setChecked: setReview,
    fieldError,
    idField,
  } = useServerForm<CommandFormValues>(
    { id: '', name: '', commandLine: '', env: '', cwd: '' },
    'commandLine',
  );
  const { busy, error, submit } = useSubmit(props.onDone);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const result = buildCommandConfig(values);
        if (review?.ok && result.ok) void submit(result.config);
        else setReview(result);
      }}
    >
      <div className="form-grid">
        <label className="field span-all">
          Command
          <span className="hint">
            The whole command line. Quotes group words; nothing is expanded (write full paths, not ~ or
            $HOME).
          </span>
          <input
            data-testid="server-command"
            className="mono"
            placeholder="npx -y @modelcontextprotocol/server-filesystem /home/me/Documents"
            value={values.commandLine}
            onChange={(e) => change({ commandLine: e.target.value })}
          />
          {fieldError('command') && <ErrorText>{fieldError('command')}</ErrorText>}
        </label>
        <ServerIdField {...idField} />
        <label className="field">
          Display name <span className="hint">Optional</span>
          <input
            data-testid="server-name"
            value={values.name}
            onChange={(e) => change({ name: e.target.value })}
          />
        </label>
        <label className="field">
          Environment
          <span className="hint">KEY=value, one per line. Values are kept in the secret store.</span>
          <textarea
            data-testid="server-env"
            value={values.env}
            onChange={(e) => change({ env: e.target.value })}
          />
          {fieldError('env') && <ErrorText>{fieldError('env')}</ErrorText>}
        </label>
        <label className="field">
          Working folder <span className="hint">Optional</span>
          <input
            data-testid="server-cwd"
            value={values.cwd}
            onChange={(e) => change({ cwd: e.target.value })}
          />
        </label>
      </div>
      {review?.ok && review.config.transport === 'stdio' && <CommandReview config={review.config} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="server-submit">
          {review?.ok ? (busy ? 'Starting…' : 'Add and start') : 'Review'}
        </button>
        {review?.ok && (
          <button type="button" onClick={() => setReview(undefined)}>
            Edit
          </button>
        )}
        {error !== undefined && <ErrorText testId="add-server-error">{error}</ErrorText>}
      </div>
    </form>
  );
}

/** What will run, exactly and untruncated, before it runs (security checklist M13). */
function ServerIdField(props: { value: string; error: string | undefined; onEdit: (id: string) => void }) {
  return (
    <label className="field">
      Id
      <span className="hint">Part of every tool name: mcp__&lt;id&gt;__tool</span>
      <input data-testid="server-id" value={props.value} onChange={(e) => props.onEdit(e.target.value)} />
      {props.error && <ErrorText>{props.error}</ErrorText>}
    </label>
  );
}

function CommandReview(props: { config: Extract<ServerConfig, { transport: 'stdio' }> }) {
  const words = [props.config.command, ...(props.config.args ?? [])];
  const warnings = commandWarnings(words);
  return (
    <div className="review" data-testid="server-review">
      <h3>This program will run with your user's rights</h3>
      <p className="muted small mt-s">
        It can read and change anything you can. Add it only if you trust where it comes from.
      </p>
      <div className="argv">
        {words.map((word, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: words repeat; their position is their identity
          <code key={index}>{word}</code>
        ))}
      </div>
      {props.config.env !== undefined && (
        <p className="small">
          Environment: <span className="mono">{Object.keys(props.config.env).join(', ')}</span>
        </p>
      )}
      {props.config.cwd !== undefined && (
        <p className="small">
          Working folder: <span className="mono">{props.config.cwd}</span>
        </p>
      )}
      {warnings.length > 0 && (
        <div className="callout bad mt-m" data-testid="command-warnings">
          Careful: this command {warnings.join('; ')}.
        </div>
      )}
    </div>
  );
}

function UrlForm(props: { onDone: () => void }) {
  const { values, change, setChecked, fieldError, idField } = useServerForm<UrlFormValues>(
    { id: '', name: '', transport: 'http', url: '', headers: '', oauth: oauthFormValues(undefined) },
    'url',
  );
  const { busy, error, submit } = useSubmit(props.onDone);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const result = buildUrlConfig(values);
        if (result.ok) void submit(result.config);
        else setChecked(result);
      }}
    >
      <div className="form-grid">
        <label className="field span-all">
          URL
          <input
            data-testid="server-url"
            className="mono"
            placeholder="https://example.com/mcp"
            value={values.url}
            onChange={(e) => change({ url: e.target.value })}
          />
          {fieldError('url') && <ErrorText>{fieldError('url')}</ErrorText>}
        </label>
        <ServerIdField {...idField} />
        <label className="field">
          Transport
          <select
            data-testid="server-transport"
            value={values.transport}
            onChange={(e) => change({ transport: e.target.value === 'sse' ? 'sse' : 'http' })}
          >
            <option value="http">Streamable HTTP (falls back to SSE)</option>
            <option value="sse">SSE only (older servers)</option>
          </select>
        </label>
        <label className="field">
          Display name <span className="hint">Optional</span>
          <input value={values.name} onChange={(e) => change({ name: e.target.value })} />
        </label>
        <label className="field">
          Headers
          <span className="hint">
            Name: value, one per line (e.g. Authorization). Kept in the secret store.
          </span>
          <textarea
            data-testid="server-headers"
            value={values.headers}
            onChange={(e) => change({ headers: e.target.value })}
          />
          {fieldError('headers') && <ErrorText>{fieldError('headers')}</ErrorText>}
        </label>
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
      <label className="field">
        OAuth client ID
        <span className="hint">Leave blank to let the server register Toolbridge itself.</span>
        <input
          data-testid="server-oauth-client-id"
          className="mono"
          value={values.clientId}
          onChange={(e) => onChange({ clientId: e.target.value })}
        />
        {errorFor('oauthClientId') && <ErrorText>{errorFor('oauthClientId')}</ErrorText>}
      </label>
      <label className="field">
        OAuth client secret
        <span className="hint">
          {values.secretStored
            ? 'One is kept in the secret store; leave blank to keep it.'
            : 'Only if one was issued. Kept in the secret store.'}
        </span>
        <input
          data-testid="server-oauth-client-secret"
          type="password"
          autoComplete="off"
          value={values.clientSecret}
          onChange={(e) => onChange({ clientSecret: e.target.value })}
        />
      </label>
      <label className="field">
        Redirect port
        <span className="hint">
          The port in the registered redirect URI http://127.0.0.1:&lt;port&gt;/oauth/callback.
        </span>
        <input
          data-testid="server-oauth-redirect-port"
          inputMode="numeric"
          value={values.redirectPort}
          onChange={(e) => onChange({ redirectPort: e.target.value })}
        />
        {errorFor('oauthRedirectPort') && <ErrorText>{errorFor('oauthRedirectPort')}</ErrorText>}
      </label>
    </>
  );
}

function ImportForm(props: { onDone: () => void }) {
  const importServers = useAppStore((s) => s.importServers);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setError(undefined);
        const outcome = await importServers(text);
        setBusy(false);
        if (outcome.ok) props.onDone();
        else setError(outcome.error.message);
      }}
    >
      <label className="field">
        Config JSON
        <span className="hint">
          Paste the contents of Claude Desktop's claude_desktop_config.json, Cursor's mcp.json ("mcpServers")
          or VS Code's mcp.json ("servers"). Every server in it is added and started with your user's rights,
          so read the commands first.
        </span>
        <textarea
          data-testid="import-text"
          rows={10}
          placeholder={
            '{\n  "mcpServers": {\n    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }\n  }\n}'
          }
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || text.trim() === ''}
          data-testid="import-submit"
        >
          {busy ? 'Importing…' : 'Import servers'}
        </button>
        {error !== undefined && <ErrorText testId="import-error">{error}</ErrorText>}
      </div>
    </form>
  );
}
