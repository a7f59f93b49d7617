import { useEffect, useState } from 'react';
import type { AgentView } from '../../src/api/ui-api.js';
import { CopyButton, EmptyState, ErrorText, ViewHeader } from '../components/common.js';
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

/** What stands in for the token on screen until "Show" is pressed; copying always copies the real one. */
const MASK = '•'.repeat(24);

export function AgentsView() {
  const { agents, loaded } = useAppStoreShallow((s) => ({ agents: s.agents, loaded: s.agentsLoaded }));
  return (
    <div className="view">
      <ViewHeader
        title="Agents"
        lede="Each agent connects with its own token, so you can see who called what and revoke one without touching the others."
      />
      <CreateAgentForm />
      {loaded && agents.length === 0 && (
        <div className="mt-m">
          <EmptyState title="No agents yet" testId="agents-empty">
            Create one above, then paste its config into Claude Desktop, Cursor or VS Code.
          </EmptyState>
        </div>
      )}
      <div className="stack mt-m">
        {agents.map((agent) => (
          <AgentItem key={agent.id} agent={agent} />
        ))}
      </div>
    </div>
  );
}

function CreateAgentForm() {
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

function AgentItem(props: { agent: AgentView }) {
  const { agent } = props;
  const { connection, loadConnection, updateAgent, revokeAgent } = useAppStoreShallow((s) => ({
    connection: s.connections[agent.id],
    loadConnection: s.loadConnection,
    updateAgent: s.updateAgent,
    revokeAgent: s.revokeAgent,
  }));
  const [client, setClient] = useState('claude-desktop');
  const [showToken, setShowToken] = useState(false);
  const [context, setContext] = useState(String(agent.contextLengthTokens));
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (connection === undefined) {
      void loadConnection(agent.id).then((o) => setError(o.ok ? undefined : o.error.message));
    }
  }, [agent.id, connection, loadConnection]);
  useEffect(() => setContext(String(agent.contextLengthTokens)), [agent.contextLengthTokens]);

  const config = connection?.configs[client];
  const clientInfo = CLIENTS.find((c) => c.id === client);
  return (
    <section className="panel" data-testid={`agent-${agent.id}`}>
      <div className="panel-head">
        <div className="grow">
          <h2>{agent.name}</h2>
          <span className="faint small">
            {agent.id} · created {formatTime(agent.createdAt)}
          </span>
        </div>
        <div className="actions">
          {confirmRevoke ? (
            <>
              <span className="small muted">The agent loses access at once.</span>
              <button
                type="button"
                className="small danger solid"
                data-testid={`agent-revoke-confirm-${agent.id}`}
                onClick={async () => {
                  const outcome = await revokeAgent(agent.id);
                  if (!outcome.ok) setError(outcome.error.message);
                }}
              >
                Revoke
              </button>
              <button type="button" className="small" onClick={() => setConfirmRevoke(false)}>
                Keep
              </button>
            </>
          ) : (
            <button type="button" className="small danger" onClick={() => setConfirmRevoke(true)}>
              Revoke token
            </button>
          )}
        </div>
      </div>
      <div className="panel-body">
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
              {connection === undefined ? '…' : showToken ? connection.token : MASK}
            </span>
            {connection !== undefined && (
              <>
                <button type="button" className="small ghost" onClick={() => setShowToken(!showToken)}>
                  {showToken ? 'Hide' : 'Show'}
                </button>
                <CopyButton text={connection.token} />
              </>
            )}
          </dd>
          <dt>Context length</dt>
          <dd>
            <form
              className="row"
              onSubmit={async (event) => {
                event.preventDefault();
                const tokens = Number.parseInt(context, 10);
                if (Number.isNaN(tokens) || tokens <= 0) {
                  setError('Context length must be a positive number of tokens.');
                  return;
                }
                const outcome = await updateAgent(agent.id, { contextLengthTokens: tokens });
                setError(outcome.ok ? undefined : outcome.error.message);
              }}
            >
              <input
                type="number"
                min={1000}
                className="w-number"
                aria-label="Context length in tokens"
                data-testid={`agent-context-${agent.id}`}
                value={context}
                onChange={(e) => setContext(e.target.value)}
              />
              <button
                type="submit"
                className="small"
                disabled={context === String(agent.contextLengthTokens)}
              >
                Save
              </button>
              <span className="faint small">
                sizes the tool listing this agent receives (now {formatNumber(agent.contextLengthTokens)})
              </span>
            </form>
          </dd>
        </dl>
        <h3 className="section-title">Connect a client</h3>
        <div className="tabs" role="tablist">
          {CLIENTS.map((c) => (
            <button
              key={c.id}
              type="button"
              role="tab"
              aria-selected={client === c.id}
              data-testid={`agent-config-tab-${c.id}`}
              onClick={() => setClient(c.id)}
            >
              {c.label}
            </button>
          ))}
        </div>
        {clientInfo !== undefined && <p className="muted small mt-m">{clientInfo.where}</p>}
        {config !== undefined ? (
          <div className="mt-s">
            <pre className="code" data-testid="agent-config">
              {showToken || connection === undefined ? config : config.replaceAll(connection.token, MASK)}
            </pre>
            <div className="form-actions">
              <CopyButton text={config} label="Copy config" />
              <span className="faint small">It holds this agent's token: keep it private.</span>
            </div>
          </div>
        ) : (
          connection !== undefined && <p className="muted mt-s">No ready-made config for this client.</p>
        )}
        {error !== undefined && <ErrorText>{error}</ErrorText>}
      </div>
    </section>
  );
}
