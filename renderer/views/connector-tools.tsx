import { useEffect, useState } from 'react';
import type { ConnectorAppView, ConnectorToolView } from '../../src/api/ui-api.js';
import { ErrorText, ServerText, ToolName } from '../components/common.js';
import { EffectivePolicy, PolicySelect } from '../components/policy-controls.js';
import { filterConnectorTools } from '../drafts/connection-draft.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

/** An app's tools with their approval, like a server's under Tools & log; a filter for the long lists. */
export function ConnectorTools(props: { app: ConnectorAppView }) {
  const id = props.app.connector;
  const { listed, load } = useAppStoreShallow((s) => ({
    listed: s.connectorTools[id],
    load: s.loadConnectorTools,
  }));
  const [error, setError] = useState<string>();
  const [query, setQuery] = useState('');
  useEffect(() => {
    void load(id).then((outcome) => setError(outcome.ok ? undefined : outcome.error.message));
  }, [id, load]);
  if (error !== undefined)
    return (
      <div className="server-detail">
        <ErrorText testId={`connection-tools-error-${id}`}>{error}</ErrorText>
      </div>
    );
  if (listed === undefined) return <p className="server-detail muted">Loading tools…</p>;
  const shown = filterConnectorTools(listed.tools, query);
  return (
    <div className="server-detail" data-testid={`connection-tools-${id}`}>
      <p className="muted small">
        Approval is per tool, as for a server's tools: Deny refuses an agent's call, Ask opens a card, Allow
        runs it. A tool without its own choice follows the default in Settings.
      </p>
      {!listed.listed ? (
        <p className="muted" data-testid={`connection-tools-unlisted-${id}`}>
          {listed.message}
        </p>
      ) : (
        <>
          <label className="field mt-s">
            Filter {listed.tools.length} tools
            <input
              type="search"
              data-testid={`connection-tools-filter-${id}`}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </label>
          <div className="tool-list mt-s">
            {shown.map((tool) => (
              <ConnectorToolRow key={tool.name} tool={tool} />
            ))}
            {shown.length === 0 && <p className="tool-row muted">No tool matches "{query.trim()}".</p>}
          </div>
        </>
      )}
    </div>
  );
}

function ConnectorToolRow(props: { tool: ConnectorToolView }) {
  const { tool } = props;
  const setPolicy = useAppStore((s) => s.setConnectorToolPolicy);
  const defaultPolicy = useAppStore((s) => s.settings?.defaultPolicy);
  const [error, setError] = useState<string>();
  return (
    <div className="tool-row" data-testid={`connector-tool-${tool.name}`}>
      <div className="row">
        <ToolName name={tool.name} className="name grow" />
        {tool.blocked && <span className="badge plain">Turned off on the gateway</span>}
        <PolicySelect
          label="Approval"
          value={tool.policy.setting}
          inheritLabel={
            defaultPolicy === undefined ? 'Inherit (default)' : `Inherit (default: ${defaultPolicy})`
          }
          testId={`connector-tool-policy-${tool.name}`}
          onChange={(policy) =>
            void setPolicy(tool.name, policy).then((outcome) =>
              setError(outcome.ok ? undefined : outcome.error.message),
            )
          }
        />
      </div>
      {tool.description !== '' && <ServerText text={tool.description} className="desc" />}
      <EffectivePolicy policy={tool.policy} testId={`connector-tool-policy-effective-${tool.name}`} />
      {error !== undefined && <ErrorText>{error}</ErrorText>}
    </div>
  );
}
