import type { ListingForm, TierView } from '../../src/api/ui-api.js';
import { CopyButton, EmptyState, ErrorText, ToolName, ViewHeader } from '../components/common.js';
import {
  CONTEXT_STEPS,
  contextFromStep,
  MAX_CONTEXT,
  MIN_CONTEXT,
  stepFromContext,
} from '../lib/context-scale.js';
import { formatCompact, formatNumber } from '../lib/format.js';
import { connectorToolsText, TIER_EXPLAINED, whyThisForm } from '../lib/tier-text.js';
import { selectTierLabel, TIER_LABELS } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

const PRESETS = [8_000, 32_000, 128_000, 200_000, 1_000_000];

const FORM_TEXT: Record<ListingForm, string> = {
  full: 'Every deferred tool is listed with a short description.',
  names: 'Every deferred tool is listed by name only.',
  mixed: 'Smaller servers list names; the largest are collapsed to one summary line each.',
  groups: 'Each server is collapsed to one line; the agent searches to find names.',
  none: 'No listing fits the budget; the agent relies on tool_search alone.',
};

export function TiersView() {
  const { tier, tierError, preview, agents, setTierPreview } = useAppStoreShallow((s) => ({
    tier: s.tier,
    tierError: s.tierError,
    preview: s.tierPreview,
    agents: s.agents,
    setTierPreview: s.setTierPreview,
  }));
  const label = useAppStore(selectTierLabel);
  const context = preview.contextLengthTokens;

  return (
    <div className="view">
      <ViewHeader
        title="Tiers"
        lede="How much of the catalog an agent sees depends on its context length. Slide to preview what a model with that window receives."
      />
      <section className="panel panel-body slider-block">
        <div className="row">
          <div className="grow">
            <div className="muted small">Context length</div>
            <div className="slider-value" data-testid="tier-context-value">
              {formatNumber(context)} tokens
            </div>
          </div>
          <label className="field w-field">
            Preview for
            <select
              data-testid="tier-agent"
              value={preview.agentId ?? ''}
              onChange={(e) => {
                const agent = agents.find((a) => a.id === e.target.value);
                void setTierPreview(
                  agent === undefined
                    ? { agentId: undefined }
                    : { agentId: agent.id, contextLengthTokens: agent.contextLengthTokens },
                );
              }}
            >
              <option value="">No agent: the slider's context length</option>
              {agents.map((agent) => (
                <option key={agent.id} value={agent.id}>
                  {agent.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <input
          type="range"
          min={0}
          max={CONTEXT_STEPS}
          step={1}
          aria-label="Context length"
          data-testid="tier-slider"
          value={stepFromContext(context)}
          onChange={(e) =>
            void setTierPreview({ contextLengthTokens: contextFromStep(Number(e.target.value)) })
          }
        />
        <div className="ticks">
          <span>{formatCompact(MIN_CONTEXT)}</span>
          <span>{formatCompact(MAX_CONTEXT)}</span>
        </div>
        <div className="row">
          {PRESETS.map((tokens) => (
            <button
              key={tokens}
              type="button"
              className="small"
              aria-pressed={context === tokens}
              onClick={() => void setTierPreview({ contextLengthTokens: tokens })}
            >
              {formatCompact(tokens)}
            </button>
          ))}
        </div>
      </section>

      {tierError !== undefined && <ErrorText testId="tier-error">{tierError.message}</ErrorText>}
      {tier === undefined ? (
        tierError === undefined && <p className="muted mt-m">Loading the preview…</p>
      ) : (
        <TierDetails tier={tier} label={label ?? ''} />
      )}
    </div>
  );
}

function TierDetails(props: { tier: TierView; label: string }) {
  const { tier } = props;
  if (
    tier.tier === 0 &&
    tier.deferredCount === 0 &&
    tier.visibleToolNames.length === 0 &&
    tier.connectorTools === undefined
  ) {
    return (
      <div className="mt-m">
        <EmptyState title="Nothing to preview yet">
          Add a server in Servers; once its tools are in the catalog you will see here how an agent receives
          them.
        </EmptyState>
      </div>
    );
  }
  return (
    <>
      <TierStats tier={tier} label={props.label} />
      <TierExplainer tier={tier} />
      <SchemaCost tier={tier} />
      <h3 className="section-title">Tools the agent lists directly ({tier.visibleToolNames.length})</h3>
      <div className="chips" data-testid="tier-visible-tools">
        {tier.visibleToolNames.map((name) => (
          <span key={name} className="chip">
            <ToolName name={name} />
          </span>
        ))}
      </div>
      <h3 className="section-title">The exact tool_search description</h3>
      <section className="panel">
        <div className="panel-head">
          <span className="muted small">
            {formatNumber(tier.toolSearchDescription.length)} characters, as the model receives it
          </span>
          <div className="actions">
            <CopyButton text={tier.toolSearchDescription} />
          </div>
        </div>
        <div className="panel-body">
          <pre className="code" data-testid="tier-description">
            {tier.toolSearchDescription || '(no tool_search: nothing is deferred)'}
          </pre>
        </div>
      </section>
    </>
  );
}

function TierStats(props: { tier: TierView; label: string }) {
  const { tier } = props;
  const used = tier.form === 'none' ? 0 : tier.listingTokens;
  const fill = tier.budgetTokens > 0 ? Math.min(100, (used / tier.budgetTokens) * 100) : 0;
  return (
    <div className="stat-grid mt-m">
      <div className="panel stat">
        <div className="label">Tier</div>
        <div className="value" data-testid="tier-value" data-tier={tier.tier}>
          Tier {tier.tier}
        </div>
        <div className="note">{props.label.replace(/^Tier \d · /, '')}</div>
      </div>
      <div className="panel stat">
        <div className="label">Listing form</div>
        <div className="value" data-testid="tier-form" data-form={tier.form}>
          {tier.form}
        </div>
        <div className="note">{FORM_TEXT[tier.form]}</div>
      </div>
      <div className="panel stat">
        <div className="label">Listing budget</div>
        <div className="value">
          <span data-testid="tier-listing-tokens">{formatNumber(used)}</span>
          <span className="muted"> / </span>
          <span data-testid="tier-budget" data-budget={tier.budgetTokens}>
            {formatNumber(tier.budgetTokens)}
          </span>
        </div>
        <div className={`meter${used > tier.budgetTokens ? ' over' : ''}`}>
          <span style={{ width: `${fill}%` }} />
        </div>
        <div className="note">estimated tokens used by the listing / allowed</div>
      </div>
      <div className="panel stat">
        <div className="label">Deferred tools</div>
        <div className="value" data-testid="tier-deferred-count">
          {formatNumber(tier.deferredCount + (tier.connectorTools?.count ?? 0))}
        </div>
        <div className="note" data-testid="tier-deferred-note">
          {tier.connectorTools === undefined
            ? 'reached through tool_search and tool_call'
            : `${formatNumber(tier.deferredCount)} local + ${formatNumber(tier.connectorTools.count)} connector${tier.connectorTools.uncountedApps > 0 || tier.connectorTools.problem !== undefined ? ' counted' : ''}, reached through tool_search and tool_call`}
        </div>
      </div>
    </div>
  );
}

/** The tiers and listing forms in plain words, this one marked, and why it was chosen. */
function TierExplainer(props: { tier: TierView }) {
  const { tier } = props;
  const search = useAppStore((s) => s.settings?.toolSearch);
  return (
    <>
      <h3 className="section-title">What this means</h3>
      <section className="panel panel-body" data-testid="tier-explainer">
        <ul className="plain-list">
          {([0, 1, 2] as const).map((n) => (
            <li key={n} aria-current={n === tier.tier ? 'true' : undefined} data-testid={`tier-explain-${n}`}>
              <strong>{TIER_LABELS[n]}</strong>
              {n === tier.tier && <span className="badge accent plain">this agent</span>}
              <p className="small muted">{TIER_EXPLAINED[n]}</p>
            </li>
          ))}
        </ul>
        <p className="mt-m" data-testid="tier-why">
          <strong>Why “{tier.form}”: </strong>
          {whyThisForm(tier, search)}
        </p>
        {tier.connectorTools !== undefined && (
          <p className="small mt-s" data-testid="tier-connectors">
            {connectorToolsText(tier.connectorTools)} They add nothing to this listing, and tool_search finds
            them next to the local ones.
          </p>
        )}
      </section>
    </>
  );
}

function SchemaCost(props: { tier: TierView }) {
  const { tier } = props;
  const saved = tier.deferredTokens > 0 ? Math.max(0, 1 - tier.visibleTokens / tier.deferredTokens) : 0;
  const scale = Math.max(tier.deferredTokens, tier.visibleTokens, 1);
  return (
    <>
      <h3 className="section-title">Schema cost</h3>
      <section className="panel panel-body compare">
        <div className="compare-row">
          <span>All deferred schemas</span>
          <div className="bar muted-bar" style={{ width: `${(tier.deferredTokens / scale) * 100}%` }} />
          <span className="num" data-testid="tier-deferred-tokens">
            {formatNumber(tier.deferredTokens)}
          </span>
        </div>
        <div className="compare-row">
          <span>What the agent sees</span>
          <div className="bar" style={{ width: `${(tier.visibleTokens / scale) * 100}%` }} />
          <span className="num" data-testid="tier-visible-tokens">
            {formatNumber(tier.visibleTokens)}
          </span>
        </div>
        <p className="muted small">
          {tier.deferredTokens > 0
            ? `Listing the deferred tools directly would cost about ${formatNumber(tier.deferredTokens)} tokens; the agent's tool list costs about ${formatNumber(tier.visibleTokens)} (${Math.round(saved * 100)}% less). Token counts here are estimates (characters ÷ 4); a model's tokenizer may count up to a quarter more for lists of tool names.`
            : `No local tool is deferred: the agent sees every local tool directly${tier.connectorTools === undefined ? '' : ', and finds connector tools through tool_search'}.`}
        </p>
      </section>
    </>
  );
}
