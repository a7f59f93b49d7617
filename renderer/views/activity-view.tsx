import { useEffect, useMemo, useState } from 'react';
import type { ActivityEntry, ActivityQuery } from '../../src/api/ui-api.js';
import { EmptyState, ErrorText, JsonBlock, ServerText, ToolName, ViewHeader } from '../components/common.js';
import { Field } from '../components/field.js';
import {
  isoToLocalInput,
  localInputToIso,
  TIME_RANGES,
  type TimeRangeId,
  withField,
  withTimeRange,
} from '../drafts/activity-filter.js';

import { downloadText } from '../lib/download.js';
import { decidedByText, formatAccount, formatBytes, formatDuration, formatTime } from '../lib/format.js';
import { activityFacets, selectSelectedActivity } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

// Every decision has a badge (the compiler checks the record is complete); the filter lists them in this order.
const DECISION_BADGE: Record<ActivityEntry['decision'], string> = {
  allow: 'ok',
  ask: 'accent',
  deny: 'bad',
  interrupted: 'warn',
  timeout: 'warn',
  'policy-change': 'accent',
};
const DECISIONS = Object.keys(DECISION_BADGE) as Array<ActivityEntry['decision']>;

export function ActivityView() {
  const { activity, loaded, filter, loadActivity, exportActivity, selectActivity } = useAppStoreShallow(
    (s) => ({
      activity: s.activity,
      loaded: s.activityLoaded,
      filter: s.activityFilter,
      loadActivity: s.loadActivity,
      exportActivity: s.exportActivity,
      selectActivity: s.selectActivity,
    }),
  );
  const [error, setError] = useState<string>();
  const filtered = Object.keys(filter).length > 0;

  const exportAs = async (format: 'jsonl' | 'csv') => {
    const outcome = await exportActivity(format);
    if (!outcome.ok) {
      setError(outcome.error.message);
      return;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    downloadText(
      `toolbridge-activity-${stamp}.${format}`,
      outcome.value,
      format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    );
  };

  return (
    <div className="view">
      <ViewHeader
        title="Activity"
        lede="Every call an agent made through Toolbridge, who decided, and what came back, and every approval policy changed here. Arguments are shown with secrets redacted."
        actions={
          <>
            <button type="button" data-testid="activity-export-jsonl" onClick={() => void exportAs('jsonl')}>
              Export JSONL
            </button>
            <button type="button" data-testid="activity-export-csv" onClick={() => void exportAs('csv')}>
              Export CSV
            </button>
          </>
        }
      />
      <Filters
        filter={filter}
        onChange={async (next) => {
          const outcome = await loadActivity(next);
          setError(outcome.ok ? undefined : outcome.error.message);
        }}
      />
      {error !== undefined && <ErrorText>{error}</ErrorText>}
      {loaded && activity.length === 0 ? (
        <div className="mt-m">
          <EmptyState
            title={filtered ? 'No calls match these filters' : 'No calls yet'}
            testId="activity-empty"
          >
            {filtered
              ? 'Clear a filter to see more.'
              : 'Connect an agent (see Agents) or try a call in the Playground; every call is recorded here.'}
          </EmptyState>
        </div>
      ) : (
        <ActivityTable />
      )}
      <Drawer onClose={() => selectActivity(undefined)} />
    </div>
  );
}

function ActivityTable() {
  const { activity, cursor, loadMore, selectActivity, selectedId } = useAppStoreShallow((s) => ({
    activity: s.activity,
    cursor: s.activityCursor,
    loadMore: s.loadMoreActivity,
    selectActivity: s.selectActivity,
    selectedId: s.selectedActivityId,
  }));
  return (
    <section className="panel mt-m">
      <table className="data" data-testid="activity-table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Agent</th>
            <th>Tool</th>
            <th>Decision</th>
            <th className="num">Duration</th>
            <th className="num">Result</th>
          </tr>
        </thead>
        <tbody>
          {activity.map((entry) => (
            <tr
              key={entry.id}
              data-testid="activity-row"
              aria-selected={entry.id === selectedId}
              tabIndex={0}
              onClick={() => selectActivity(entry.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') selectActivity(entry.id);
              }}
            >
              <td className="small">{formatTime(entry.time)}</td>
              <td>{entry.agentId}</td>
              <td>
                <ToolName name={entry.toolName} />
              </td>
              <td>
                <span className={`badge ${DECISION_BADGE[entry.decision]}`}>{entry.decision}</span>{' '}
                <span className="faint small" data-testid="activity-decided-by">
                  {decidedByText(entry)}
                </span>
              </td>
              <td className="num">{formatDuration(entry.durationMs)}</td>
              <td className="num">
                {entry.isError ? (
                  <span className="badge bad plain">error</span>
                ) : (
                  formatBytes(entry.resultBytes)
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {cursor !== undefined && (
        <div className="panel-body">
          <button type="button" onClick={() => void loadMore()} data-testid="activity-more">
            Load older calls
          </button>
        </div>
      )}
    </section>
  );
}

function Filters(props: { filter: ActivityQuery; onChange: (filter: ActivityQuery) => void }) {
  const { filter, onChange } = props;
  return (
    <div className="filters" data-testid="activity-filters">
      <TextAndTimeFilters filter={filter} onChange={onChange} />
      <ChoiceFilters filter={filter} onChange={onChange} />
      <button type="button" disabled={Object.keys(filter).length === 0} onClick={() => onChange({})}>
        Clear
      </button>
    </div>
  );
}

/** Free text over every field the host searches, and a time range (quick ranges or From/To). */
function TextAndTimeFilters(props: { filter: ActivityQuery; onChange: (filter: ActivityQuery) => void }) {
  const { filter, onChange } = props;
  const [range, setRange] = useState<TimeRangeId>(
    filter.since === undefined && filter.until === undefined ? 'any' : 'custom',
  );
  return (
    <>
      <Field label="Search" className="grow">
        <input
          type="search"
          placeholder="tool, server, agent, arguments…"
          data-testid="activity-filter-text"
          value={filter.text ?? ''}
          onChange={(e) => onChange(withField(filter, 'text', e.target.value))}
        />
      </Field>
      <Field label="When">
        <select
          data-testid="activity-filter-range"
          value={range}
          onChange={(e) => {
            const next = e.target.value as TimeRangeId;
            setRange(next);
            if (next !== 'custom') onChange(withTimeRange(filter, next, new Date()));
          }}
        >
          {TIME_RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
      </Field>
      {range === 'custom' && (
        <>
          <TimeBound label="From" bound="since" filter={filter} onChange={onChange} />
          <TimeBound label="To" bound="until" filter={filter} onChange={onChange} />
        </>
      )}
    </>
  );
}

/** One end of a custom time range, in the browser's local time. */
function TimeBound(props: {
  label: string;
  bound: 'since' | 'until';
  filter: ActivityQuery;
  onChange: (filter: ActivityQuery) => void;
}) {
  const { bound, filter } = props;
  return (
    <Field label={props.label}>
      <input
        type="datetime-local"
        data-testid={`activity-filter-${bound}`}
        value={isoToLocalInput(filter[bound])}
        onChange={(e) => props.onChange(withField(filter, bound, localInputToIso(e.target.value)))}
      />
    </Field>
  );
}

function ChoiceFilters(props: { filter: ActivityQuery; onChange: (filter: ActivityQuery) => void }) {
  const activity = useAppStore((s) => s.activity);
  const facets = useMemo(() => activityFacets(activity), [activity]);
  const servers = useAppStoreShallow((s) => Object.keys(s.servers).sort());
  const agents = useAppStoreShallow((s) => s.agents.map((a) => a.id));
  const catalogTools = useAppStoreShallow((s) =>
    Object.values(s.tools).flatMap((list) => list.map((t) => t.name)),
  );
  const { filter, onChange } = props;
  const pick = (key: 'toolName' | 'serverId' | 'agentId' | 'decision', value: string) =>
    onChange(withField(filter, key, value as ActivityQuery[typeof key]));
  const serverOptions = [...new Set([...servers, ...facets.servers])].sort();
  const agentOptions = [...new Set([...agents, ...facets.agents])].sort();
  const toolOptions = [...new Set([...catalogTools, ...facets.tools])].sort();
  return (
    <>
      <Field label="Tool">
        <select
          data-testid="activity-filter-tool"
          value={filter.toolName ?? ''}
          onChange={(e) => pick('toolName', e.target.value)}
        >
          <option value="">any</option>
          {toolOptions.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </Field>
      <Field label="Server">
        <select value={filter.serverId ?? ''} onChange={(e) => pick('serverId', e.target.value)}>
          <option value="">any</option>
          {serverOptions.map((id) => (
            <option key={id}>{id}</option>
          ))}
        </select>
      </Field>
      <Field label="Agent">
        <select value={filter.agentId ?? ''} onChange={(e) => pick('agentId', e.target.value)}>
          <option value="">any</option>
          {agentOptions.map((id) => (
            <option key={id}>{id}</option>
          ))}
        </select>
      </Field>
      <Field label="Decision">
        <select
          data-testid="activity-filter-decision"
          value={filter.decision ?? ''}
          onChange={(e) => pick('decision', e.target.value)}
        >
          <option value="">any</option>
          {DECISIONS.map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      </Field>
    </>
  );
}

function Drawer(props: { onClose: () => void }) {
  const entry = useAppStore(selectSelectedActivity);
  useEffect(() => {
    if (entry === undefined) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') props.onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [entry, props.onClose]);
  if (entry === undefined) return null;
  return (
    <aside className="drawer" data-testid="activity-drawer" aria-label="Call details">
      <div className="panel-head">
        <h2>
          <ToolName name={entry.toolName} />
        </h2>
        <div className="actions">
          <button type="button" className="small" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
      <div className="drawer-body">
        <dl className="kv">
          <dt>Time</dt>
          <dd>{formatTime(entry.time)}</dd>
          <dt>Agent</dt>
          <dd>{entry.agentId}</dd>
          <dt>Server</dt>
          <dd>{entry.serverId}</dd>
          {entry.account !== undefined && (
            <>
              <dt>Account</dt>
              <dd data-testid="activity-account">{formatAccount(entry.account)}</dd>
            </>
          )}
          <dt>Decision</dt>
          <dd>
            <span className={`badge ${DECISION_BADGE[entry.decision]}`}>{entry.decision}</span>{' '}
            {decidedByText(entry)}
          </dd>
          <dt>Duration</dt>
          <dd>{formatDuration(entry.durationMs)}</dd>
          <dt>Result</dt>
          <dd>
            {formatBytes(entry.resultBytes)}
            {entry.isError ? ' · error' : ''}
          </dd>
          <dt>Id</dt>
          <dd className="mono small">{entry.id}</dd>
        </dl>
        {entry.message !== undefined && (
          <>
            <h3 className="section-title">Message</h3>
            <ServerText text={entry.message} className="wrap-anywhere" />
          </>
        )}
        <h3 className="section-title">Arguments</h3>
        <JsonBlock value={entry.arguments} testId="activity-arguments" />
      </div>
    </aside>
  );
}
