import { useEffect, useRef, useState } from 'react';
import type { AgentConnectionInfo, AgentView } from '../../src/api/ui-api.js';
import { CopyButton, EmptyState, ErrorText, ViewHeader } from '../components/common.js';
import { type AgentDraft, TOKEN_MASK, useAgentDraft, visibleConfig } from '../drafts/agent-draft.js';
import { formatNumber, formatTime } from '../lib/format.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

const CLIENTS: Array<{ id: string; label: string; where: string }> = [
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    where:
      'Settings → Developer → Edit Config, then merge into claude_desktop_config.json and restart Claude.',
  },
  {
    id: 'cursor',
    label: 'Cursor',
    where: 'Merge into ~/.cursor/mcp.json (or .cursor/mcp.json in a project).',
  },
  {
    id: 'vscode',
    label: 'VS Code',
    where: 'Run "MCP: Open User Configuration" and merge into mcp.json (the "servers" key).',
  },
];

export function AgentsView() {
  const { agents, loaded } = useAppStoreShallow((s) => ({ agents: s.agents, loaded: s.agentsLoaded }));
  // The agent just created: its entry scrolls into view, takes focus and says what to do next.
  const [created, setCreated] = useState<string>();
  return (
    <div className="view">
      <ViewHeader
        title="Agents"
        lede="Each agent connects with its own token, so you can see who called what and revoke one without touching the others."
      />
      <CreateAgentForm onCreated={setCreated} />
      {loaded && agents.length === 0 && (
        <div className="mt-m">
          <EmptyState title="No agents yet" testId="agents-empty">
            Create one above, then paste its config into Claude Desktop, Cursor or VS Code.
          </EmptyState>
        </div>
      )}
      <div className="stack mt-m">
        {agents.map((agent) => (
          <AgentItem key={agent.id} agent={agent} justCreated={agent.id === created} />
        ))}
      </div>
    </div>
  );
}

function CreateAgentForm(props: { onCreated: (id: string) => void }) {
  const createAgent = useAppStore((s) => s.createAgent);
  const [name, setName] = useState('');
  const [context, setContext] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      className="panel panel-body"
      data-testid="create-agent-form"
      onSubmit={async (event) => {
        event.preventDefault();
        const tokens = Number.parseInt(context, 10);
        const outcome = await createAgent(name.trim(), Number.isNaN(tokens) ? undefined : tokens);
        if (outcome.ok) {
          props.onCreated(outcome.value.id);
          setName('');
          setContext('');
          setError(undefined);
        } else setError(outcome.error.message);
      }}
    >
      <div className="row align-end">
        <label className="field grow">
          New agent
          <input
            placeholder="e.g. Claude Desktop at work"
            data-testid="agent-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field">
          Context length (tokens, optional)
          <input
            type="number"
            min={1000}
            placeholder="200000"
            data-testid="agent-context"
            value={context}
            onChange={(e) => setContext(e.target.value)}
          />
        </label>
        <button
          type="submit"
          className="primary mt-l"
          disabled={name.trim() === ''}
          data-testid="agent-create"
        >
          Create agent
        </button>
      </div>
      {error !== undefined && <ErrorText>{error}</ErrorText>}
    </form>
  );
}

function AgentItem(props: { agent: AgentView; justCreated: boolean }) {
  const { agent } = props;
  const { connection, loadConnection, updateAgent, revokeAgent } = useAppStoreShallow((s) => ({
    connection: s.connections[agent.id],
    loadConnection: s.loadConnection,
    updateAgent: s.updateAgent,
    revokeAgent: s.revokeAgent,
  }));
  const draft = useAgentDraft(agent, { updateAgent, revokeAgent });
  const { setError } = draft;
  useEffect(() => {
    if (connection === undefined) {
      void loadConnection(agent.id).then((o) => setError(o.ok ? undefined : o.error.message));
    }
  }, [agent.id, connection, loadConnection, setError]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!props.justCreated) return;
    heading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    heading.current?.focus({ preventScroll: true });
  }, [props.justCreated]);
  return (
    <section className="panel" data-testid={`agent-${agent.id}`}>
      {props.justCreated && (
        <p className="callout ok" role="status" data-testid="agent-created">
          Created "{agent.name}". Copy its config below into your client; it holds this agent's token.
        </p>
      )}
      <div className="panel-head">
        <div className="grow">
          <h2 ref={heading} tabIndex={-1}>
            {agent.name}
          </h2>
          <span className="faint small">
            {agent.id} · created {formatTime(agent.createdAt)}
          </span>
        </div>
        <RevokeControls agent={agent} draft={draft} />
      </div>
      <div className="panel-body">
        <AgentAccess agent={agent} connection={connection} draft={draft} />
        <ClientConfig connection={connection} draft={draft} />
        {draft.error !== undefined && <ErrorText>{draft.error}</ErrorText>}
      </div>
    </section>
  );
}

function RevokeControls(props: { agent: AgentView; draft: AgentDraft }) {
  const { draft } = props;
  return (
    <div className="actions">
      {draft.confirmRevoke ? (
        <>
          <span className="small muted">The agent loses access at once.</span>
          <button
            type="button"
            className="small danger solid"
            data-testid={`agent-revoke-confirm-${props.agent.id}`}
            onClick={() => void draft.revoke()}
          >
            Revoke
          </button>
          <button type="button" className="small" onClick={() => draft.setConfirmRevoke(false)}>
            Keep
          </button>
        </>
      ) : (
        <button type="button" className="small danger" onClick={() => draft.setConfirmRevoke(true)}>
          Revoke token
        </button>
      )}
    </div>
  );
}

/** Endpoint, token and context length. */
function AgentAccess(props: {
  agent: AgentView;
  connection: AgentConnectionInfo | undefined;
  draft: AgentDraft;
}) {
  const { agent, connection, draft } = props;
  return (
    <dl className="kv">
      <dt>Endpoint</dt>
      <dd className="row">
        <span className="mono" data-testid="agent-endpoint">
          {connection?.endpointUrl ?? '…'}
        </span>
        {connection !== undefined && <CopyButton text={connection.endpointUrl} />}
      </dd>
      <dt>Token</dt>
      <dd className="row">
        <span className="mono wrap-anywhere" data-testid="agent-token">
          {connection === undefined ? '…' : draft.showToken ? connection.token : TOKEN_MASK}
        </span>
        {connection !== undefined && (
          <>
            <button type="button" className="small ghost" onClick={draft.toggleToken}>
              {draft.showToken ? 'Hide' : 'Show'}
            </button>
            <CopyButton text={connection.token} />
          </>
        )}
      </dd>
      <dt>Context length</dt>
      <dd>
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            void draft.saveContext();
          }}
        >
          <input
            type="number"
            min={1000}
            className="w-number"
            aria-label="Context length in tokens"
            data-testid={`agent-context-${agent.id}`}
            value={draft.context}
            onChange={(e) => draft.setContext(e.target.value)}
          />
          <button type="submit" className="small" disabled={!draft.contextChanged}>
            Save
          </button>
          <span className="faint small">
            sizes the tool listing this agent receives (now {formatNumber(agent.contextLengthTokens)})
          </span>
        </form>
      </dd>
    </dl>
  );
}

function ClientConfig(props: { connection: AgentConnectionInfo | undefined; draft: AgentDraft }) {
  const { connection, draft } = props;
  const markFirstRun = useAppStore((s) => s.markFirstRun);
  const config = connection?.configs[draft.client];
  const clientInfo = CLIENTS.find((c) => c.id === draft.client);
  return (
    <>
      <h3 className="section-title">Connect a client</h3>
      <div className="tabs" role="tablist">
        {CLIENTS.map((c) => (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={draft.client === c.id}
            data-testid={`agent-config-tab-${c.id}`}
            onClick={() => draft.setClient(c.id)}
          >
            {c.label}
          </button>
        ))}
      </div>
      {clientInfo !== undefined && <p className="muted small mt-m">{clientInfo.where}</p>}
      {config !== undefined ? (
        <div className="mt-s">
          <pre className="code" data-testid="agent-config">
            {visibleConfig(config, connection?.token, draft.showToken)}
          </pre>
          <div className="form-actions">
            <CopyButton text={config} label="Copy config" onCopy={() => markFirstRun('copy-config')} />
            <span className="faint small">It holds this agent's token: keep it private.</span>
          </div>
        </div>
      ) : (
        connection !== undefined && <p className="muted mt-s">No ready-made config for this client.</p>
      )}
    </>
  );
}
