import { useMemo, useState } from 'react';
import type { Policy, ServerView, ToolChangeView, ToolView } from '../../src/api/ui-api.js';
import {
  EmptyState,
  ErrorText,
  JsonBlock,
  ServerText,
  StatusBadge,
  Toggle,
  ToolName,
  ViewHeader,
} from '../components/common.js';
import { FirstRunChecklist } from '../components/first-run.js';
import { DetailsToggle, ItemTitle } from '../components/item-head.js';
import { EffectivePolicy, PolicySelect } from '../components/policy-controls.js';
import { SignInNeeded } from '../components/sign-in-needed.js';
import { describeTransport, type ServerDraft, useServerDraft } from '../drafts/server-draft.js';
import { formatTime, prettyJson } from '../lib/format.js';
import { filterServers, suspiciousTools } from '../lib/server-filter.js';
import { buildOAuthClient, type OAuthClientFormValues, oauthFormValues } from '../lib/server-form.js';
import { selectHostLost, selectServerList, selectToolsOf } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { AddServerPanel, type AddServerTab, OAuthClientFields } from './add-server-panel.js';

export function ServersView() {
  const servers = useAppStoreShallow(selectServerList);
  const tools = useAppStore((s) => s.tools);
  const loaded = useAppStore((s) => s.serversLoaded);
  const [adding, setAdding] = useState<AddServerTab>();
  const [query, setQuery] = useState('');
  const matches = useMemo(
    () => filterServers(servers, (id) => tools[id] ?? [], query),
    [servers, tools, query],
  );
  return (
    <div className="view">
      <ViewHeader
        title="Servers"
        lede="The MCP servers behind Toolbridge. Agents see their tools through tool_search, or directly when pinned."
        actions={
          adding === undefined && (
            <>
              <button
                type="button"
                data-testid="add-from-catalog-button"
                onClick={() => setAdding('catalog')}
              >
                Add from catalog
              </button>
              <button
                type="button"
                className="primary"
                data-testid="add-server-button"
                onClick={() => setAdding('command')}
              >
                Add server
              </button>
            </>
          )
        }
      />
      <FirstRunChecklist />
      {adding !== undefined && <AddServerPanel tab={adding} onDone={() => setAdding(undefined)} />}
      <SuspiciousNotice />
      {loaded && servers.length === 0 && adding === undefined && (
        <EmptyState
          title="No servers yet"
          testId="servers-empty"
          actions={
            <>
              <button type="button" onClick={() => setAdding('catalog')}>
                Add from catalog
              </button>
              <button type="button" className="primary" onClick={() => setAdding('command')}>
                Add your first server
              </button>
            </>
          }
        >
          Pick one from the catalog that comes with Toolbridge, add one by its command (for example npx -y
          @modelcontextprotocol/server-filesystem with a folder), by URL, or paste the config you already use
          in Claude Desktop, Cursor or VS Code.
        </EmptyState>
      )}
      {servers.length > 0 && (
        <div className="filters mt-m">
          <label className="field grow">
            Filter servers and tools
            <input
              type="search"
              placeholder="name, command, tool or description…"
              data-testid="servers-filter"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </label>
        </div>
      )}
      {query.trim() !== '' && matches.length === 0 && (
        <p className="muted mt-m" data-testid="servers-filter-empty">
          No server or tool matches "{query.trim()}".
        </p>
      )}
      <div className="stack mt-m">
        {matches.map(({ server, tools: matched }) => (
          <ServerItem key={server.id} server={server} matchedTools={matched} />
        ))}
      </div>
    </div>
  );
}

/** One notice over the list while any tool's description hides text. */
function SuspiciousNotice() {
  const tools = useAppStoreShallow((s) => suspiciousTools(Object.values(s.tools).flat()));
  if (tools.length === 0) return null;
  const servers = [...new Set(tools.map((tool) => tool.serverId))];
  return (
    <div className="callout warn mt-m" role="status" data-testid="servers-suspicious-notice">
      {tools.length === 1 ? 'A tool' : `${tools.length} tools`} of {servers.join(', ')} hide text in their
      descriptions, a way to slip instructions past you. Each asks before every call until you have read it
      and set its own approval; the rows below say which.
    </div>
  );
}

function ServerItem(props: { server: ServerView; matchedTools: ToolView[] }) {
  const { server } = props;
  const { authorizeServer, notify } = useAppStoreShallow((s) => ({
    authorizeServer: s.authorizeServer,
    notify: s.notify,
  }));
  const draft = useServerDraft(server, { authorizeServer, notify });
  const hostLost = useAppStore(selectHostLost);
  const id = server.id;
  return (
    <section className="panel" data-testid={`server-${id}`}>
      <div className="server-head">
        <StatusBadge status={server.status} stale={hostLost} testId={`server-status-${id}`} />
        <div className="server-title grow">
          <ItemTitle name={server.name} id={id} showId={server.name !== id} />
        </div>
        <p className="server-command mono" data-testid={`server-command-${id}`}>
          {describeTransport(server)}
        </p>
        <div className="server-controls" data-testid={`server-controls-${id}`}>
          <ServerControls server={server} draft={draft} />
        </div>
      </div>
      <ServerNotices server={server} draft={draft} />
      {props.matchedTools.length > 0 && (
        <ul className="server-matches" data-testid={`server-matches-${id}`}>
          {props.matchedTools.map((tool) => (
            <li key={tool.name}>
              <ToolName name={tool.name} /> <span className="muted small">{tool.description}</span>
            </li>
          ))}
        </ul>
      )}
      {draft.open && <ServerDetail server={server} />}
    </section>
  );
}

function ServerControls(props: { server: ServerView; draft: ServerDraft }) {
  const { server, draft } = props;
  const { setServerEnabled, restartServer, removeServer, setServerPolicy } = useAppStoreShallow((s) => ({
    setServerEnabled: s.setServerEnabled,
    restartServer: s.restartServer,
    removeServer: s.removeServer,
    setServerPolicy: s.setServerPolicy,
  }));
  const defaultPolicy = useAppStore((s) => s.settings?.defaultPolicy);
  const { busy, run } = draft;
  const id = server.id;
  return (
    <>
      <span className="badge plain" data-testid={`server-tool-count-${id}`}>
        {server.toolCount} {server.toolCount === 1 ? 'tool' : 'tools'}
      </span>
      <PolicySelect
        label="Approval"
        value={server.policy}
        inheritLabel={defaultPolicy === undefined ? 'Default' : `Default (${defaultPolicy})`}
        disabled={busy}
        testId={`server-policy-${id}`}
        onChange={(policy) => void run('Could not change the policy of', () => setServerPolicy(id, policy))}
      />
      <Toggle
        label="Enabled"
        checked={server.enabled}
        disabled={busy}
        testId={`server-enabled-${id}`}
        onChange={(enabled) => void run('Could not change', () => setServerEnabled(id, enabled))}
      />
      <button
        type="button"
        className="small"
        disabled={busy || !server.enabled}
        data-testid={`server-restart-${id}`}
        onClick={() => void run('Could not restart', () => restartServer(id))}
      >
        Restart
      </button>
      {draft.confirmRemove ? (
        <>
          <button
            type="button"
            className="small danger solid"
            data-testid={`server-remove-confirm-${id}`}
            onClick={() => void run('Could not remove', () => removeServer(id))}
          >
            Remove
          </button>
          <button type="button" className="small" onClick={() => draft.setConfirmRemove(false)}>
            Keep
          </button>
        </>
      ) : (
        <button
          type="button"
          className="small ghost"
          data-testid={`server-remove-${id}`}
          onClick={() => draft.setConfirmRemove(true)}
        >
          Remove
        </button>
      )}
      <DetailsToggle
        open={draft.open}
        onToggle={draft.toggleOpen}
        openLabel="Hide"
        closedLabel="Tools & log"
        testId={`server-expand-${id}`}
      />
    </>
  );
}

/** The error with what to do about it, reconnects, and a name problem. */
function ServerNotices(props: { server: ServerView; draft: ServerDraft }) {
  const { server, draft } = props;
  const id = server.id;
  const flagged = suspiciousTools(useAppStore(selectToolsOf(id)));
  return (
    <>
      {flagged.length > 0 && (
        <div className="callout warn server-error" data-testid={`server-suspicious-${id}`}>
          {flagged.length === 1 ? 'One tool' : `${flagged.length} tools`} of this server hide text in their
          descriptions ({[...new Set(flagged.flatMap((tool) => tool.suspicious ?? []))].join(', ')}):{' '}
          {flagged.map((tool) => tool.toolName).join(', ')}. They ask before every call until you read them
          under Tools &amp; log and set their own approval.
        </div>
      )}
      {server.status === 'needs-auth' && <SignInNeeded server={server} draft={draft} />}
      {server.lastError !== undefined && server.status !== 'connected' && server.status !== 'needs-auth' && (
        <div className="callout bad server-error" data-testid={`server-error-${id}`}>
          <ServerText text={server.lastError} className="wrap-anywhere" />
          <p className="small mt-s">Check the command or URL and the log below, then press Restart.</p>
        </div>
      )}
      {server.reconnects !== undefined && (
        <p className="muted small" data-testid={`server-reconnects-${id}`}>
          Reconnected on its own {server.reconnects.count === 1 ? 'once' : `${server.reconnects.count} times`}
          ; last at {new Date(server.reconnects.lastAt).toLocaleString()}, because{' '}
          {server.reconnects.lastReason}.
        </p>
      )}
      {server.nameProblem !== undefined && (
        <div className="callout warn server-error" data-testid={`server-name-problem-${id}`}>
          {server.nameProblem}
        </div>
      )}
    </>
  );
}

function ServerDetail(props: { server: ServerView }) {
  const { server } = props;
  const tools = useAppStore(selectToolsOf(server.id));
  const defaultPolicy = useAppStore((s) => s.settings?.defaultPolicy);
  return (
    <div className="server-detail">
      <h3 className="section-title">Tools</h3>
      <p className="muted small">
        Approval is per tool: a tool's own choice wins over the server's, which wins over the default in
        Settings. Saved rules ("Always allow") are listed in Settings.
      </p>
      {tools.length === 0 ? (
        <p className="muted">
          {server.status === 'connected'
            ? 'This server lists no tools.'
            : 'Tools appear once the server is connected.'}
        </p>
      ) : (
        <div className="tool-list" data-testid={`server-tools-${server.id}`}>
          {tools.map((tool) => (
            <ToolRow key={tool.name} tool={tool} inherits={inheritedLabel(server, defaultPolicy)} />
          ))}
        </div>
      )}
      <h3 className="section-title">Server log (stderr)</h3>
      {server.stderrTail.length === 0 ? (
        <p className="muted">Nothing written to stderr yet.</p>
      ) : (
        <pre className="code log" data-testid={`server-stderr-${server.id}`}>
          {server.stderrTail.join('\n')}
        </pre>
      )}
      {server.config.transport !== 'stdio' && <OAuthClientEditor server={server} />}
      <h3 className="section-title">Config</h3>
      <JsonBlock value={server.config} />
    </div>
  );
}

/** Sets or clears a remote server's pre-registered OAuth client (used by Sign in instead of registering). */
function OAuthClientEditor(props: { server: ServerView }) {
  const { server } = props;
  const config = server.config;
  const current = config.transport === 'stdio' ? undefined : config.oauth;
  const { updateServer, notify } = useAppStoreShallow((s) => ({
    updateServer: s.updateServer,
    notify: s.notify,
  }));
  const [values, setValues] = useState<OAuthClientFormValues>(() => oauthFormValues(current));
  const [invalid, setInvalid] = useState<{ field: string; message: string }>();
  const [busy, setBusy] = useState(false);
  if (config.transport === 'stdio') return null;
  const save = async () => {
    const client = buildOAuthClient(values);
    if (!client.ok) {
      setInvalid(client);
      return;
    }
    const { oauth: _previous, ...rest } = config;
    setBusy(true);
    const outcome = await updateServer(
      server.id,
      client.oauth === undefined ? rest : { ...rest, oauth: client.oauth },
    );
    setBusy(false);
    if (!outcome.ok)
      notify('error', `Could not save the OAuth client of "${server.name}": ${outcome.error.message}`);
    else setValues(oauthFormValues(client.oauth));
  };
  return (
    <>
      <h3 className="section-title">OAuth client</h3>
      <p className="muted small">
        For servers that do not let apps register themselves: register Toolbridge with the server's
        authorization server, enter what it gave you, then press Sign in.
      </p>
      <form
        data-testid={`server-oauth-${server.id}`}
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className="form-grid">
          <OAuthClientFields
            values={values}
            errorFor={(field) => (invalid?.field === field ? invalid.message : undefined)}
            onChange={(patch) => {
              setValues({ ...values, ...patch });
              setInvalid(undefined);
            }}
          />
        </div>
        <div className="form-actions">
          <button
            type="submit"
            className="small"
            disabled={busy}
            data-testid={`server-oauth-save-${server.id}`}
          >
            Save OAuth client
          </button>
        </div>
      </form>
    </>
  );
}

/** What a tool without its own policy follows: its server's, else the default. */
function inheritedLabel(server: ServerView, defaultPolicy: Policy | undefined): string {
  if (server.policy !== undefined) return `Inherit (server: ${server.policy})`;
  return defaultPolicy === undefined ? 'Inherit (default)' : `Inherit (default: ${defaultPolicy})`;
}

function ToolRow(props: { tool: ToolView; inherits: string }) {
  const { tool } = props;
  const { setToolEnabled, setToolPinned, setToolPolicy, acceptToolChange, notify } = useAppStoreShallow(
    (s) => ({
      acceptToolChange: s.acceptToolChange,
      setToolEnabled: s.setToolEnabled,
      setToolPinned: s.setToolPinned,
      setToolPolicy: s.setToolPolicy,
      notify: s.notify,
    }),
  );
  const [showSchema, setShowSchema] = useState(false);
  const [error, setError] = useState<string>();
  const change = async (call: () => Promise<{ ok: boolean; error?: { message: string } }>) => {
    const outcome = await call();
    setError(outcome.ok ? undefined : outcome.error?.message);
    if (!outcome.ok) notify('error', `${tool.name}: ${outcome.error?.message ?? 'failed'}`);
  };
  return (
    <div className={`tool-row${tool.enabled ? '' : ' disabled'}`} data-testid={`tool-${tool.name}`}>
      <div className="row">
        <ToolName name={tool.name} className="name grow" />
        {tool.pinned && tool.directName && (
          <span className="badge accent plain" data-testid={`tool-direct-name-${tool.name}`}>
            listed as {tool.directName}
          </span>
        )}
        {tool.enabled && !tool.pinned && (
          <span className="badge plain">{tool.deferred ? 'Via search' : 'Listed'}</span>
        )}
        {tool.readOnlyHint === true && <span className="badge plain">Read-only (hint)</span>}
        {tool.suspicious !== undefined && (
          <span
            className="badge warn"
            data-testid={`tool-suspicious-${tool.name}`}
            title={tool.suspicious.join(', ')}
          >
            Hidden text: asks until reviewed
          </span>
        )}
        {tool.change !== undefined && (
          <span className="badge warn" data-testid={`tool-held-${tool.name}`}>
            Changed: held
          </span>
        )}
        <Toggle
          label="Enabled"
          checked={tool.enabled}
          testId={`tool-enabled-${tool.name}`}
          onChange={(enabled) => void change(() => setToolEnabled(tool.name, enabled))}
        />
        <Toggle
          label="Pinned"
          checked={tool.pinned}
          disabled={!tool.enabled}
          testId={`tool-pinned-${tool.name}`}
          onChange={(pinned) => void change(() => setToolPinned(tool.name, pinned))}
        />
        <PolicySelect
          label="Approval"
          value={tool.policy.setting}
          inheritLabel={props.inherits}
          testId={`tool-policy-${tool.name}`}
          onChange={(policy) => void change(() => setToolPolicy(tool.name, policy))}
        />
        <button
          type="button"
          className="small ghost"
          aria-expanded={showSchema}
          data-testid={`tool-schema-toggle-${tool.name}`}
          onClick={() => setShowSchema(!showSchema)}
        >
          Schema
        </button>
      </div>
      {tool.change !== undefined && (
        <ToolChange
          change={tool.change}
          name={tool.name}
          onAccept={() => void change(() => acceptToolChange(tool.name))}
        />
      )}
      {tool.description !== '' && <ServerText text={tool.description} className="desc" />}
      <EffectivePolicy policy={tool.policy} testId={`tool-policy-effective-${tool.name}`} />
      {error !== undefined && <ErrorText>{error}</ErrorText>}
      {showSchema && (
        <div className="mt-s">
          <JsonBlock value={tool.inputSchema ?? { type: 'object' }} testId={`tool-schema-${tool.name}`} />
        </div>
      )}
    </div>
  );
}

const DEFINITION_PARTS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * A held tool: what its server changed since the person reviewed it, old beside new for every
 * part that differs. Agents neither see nor call it until Accept; Keep held leaves it so.
 */
function ToolChange(props: { change: ToolChangeView; name: string; onAccept: () => void }) {
  const { change, name } = props;
  const [kept, setKept] = useState(false);
  const parts = DEFINITION_PARTS.filter(
    (part) => prettyJson(change.reviewed[part] ?? null) !== prettyJson(change.current[part] ?? null),
  );
  if (kept) {
    return (
      <p className="small muted" data-testid={`tool-change-kept-${name}`}>
        Held: agents do not see this tool until you accept its change.{' '}
        <button type="button" className="small ghost" onClick={() => setKept(false)}>
          Review
        </button>
      </p>
    );
  }
  return (
    <div className="callout warn mt-s" data-testid={`tool-change-${name}`}>
      <p>
        Its server changed this tool since you reviewed it ({formatTime(change.reviewedAt)}). Agents do not
        see it, and its calls are refused, until you accept the change.
      </p>
      {parts.map((part) => (
        <div key={part} className="tool-diff mt-s" data-testid={`tool-change-${name}-${part}`}>
          <h4 className="small">{part}</h4>
          <div className="row">
            <div className="grow">
              <p className="small muted">Reviewed</p>
              <DefinitionPart value={change.reviewed[part]} testId={`tool-change-old-${name}-${part}`} />
            </div>
            <div className="grow">
              <p className="small muted">Now</p>
              <DefinitionPart value={change.current[part]} testId={`tool-change-new-${name}-${part}`} />
            </div>
          </div>
        </div>
      ))}
      <div className="card-actions">
        <button
          type="button"
          className="primary"
          data-testid={`tool-accept-change-${name}`}
          onClick={props.onAccept}
        >
          Accept change
        </button>
        <button type="button" data-testid={`tool-keep-held-${name}`} onClick={() => setKept(true)}>
          Keep held
        </button>
      </div>
    </div>
  );
}

function DefinitionPart(props: { value: unknown; testId: string }) {
  if (props.value === undefined)
    return (
      <p className="small muted" data-testid={props.testId}>
        (none)
      </p>
    );
  if (typeof props.value === 'string') return <ServerText text={props.value} testId={props.testId} />;
  return <JsonBlock value={props.value} testId={props.testId} />;
}
