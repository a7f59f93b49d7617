import { useState } from 'react';
import type { QueryWordView, SearchExplanationView } from '../../src/api/ui-api.js';
import type { JsonObject } from '../../src/base/json.js';
import { EmptyState, ErrorText, JsonBlock, ToolName, ViewHeader } from '../components/common.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { CallForm } from './playground-call.js';

/** Try the agent's three bridge tools by hand: search, describe, call (through approvals). */
export function PlaygroundView() {
  const [callName, setCallName] = useState('');
  const [describeNames, setDescribeNames] = useState('');
  return (
    <div className="view">
      <ViewHeader
        title="Playground"
        lede="Use tool_search, tool_describe and tool_call the way an agent does, and see why each result ranked where it did."
      />
      <SearchPanel />
      <DescribePanel names={describeNames} setNames={setDescribeNames} />
      <CallPanel name={callName} setName={setCallName} />
    </div>
  );
}

function SearchPanel() {
  const { runSearch, result, toolCount, markFirstRun } = useAppStoreShallow((s) => ({
    runSearch: s.runSearch,
    markFirstRun: s.markFirstRun,
    result: s.searchResult,
    toolCount: Object.values(s.tools).reduce((sum, tools) => sum + tools.length, 0),
  }));
  const [queries, setQueries] = useState<string[]>(['']);
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [showRaw, setShowRaw] = useState(false);
  const setQuery = (index: number, value: string) =>
    setQueries(queries.map((q, i) => (i === index ? value : q)));

  return (
    <section className="panel">
      <div className="panel-head">
        <h2>tool_search</h2>
        <span className="muted small">Several queries run as one call, like an agent's batch.</span>
      </div>
      <form
        className="panel-body"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          const parsed = Number.parseInt(limit, 10);
          const outcome = await runSearch(queries, Number.isNaN(parsed) ? undefined : parsed);
          setBusy(false);
          if (!outcome.ok) setError(outcome.error.message);
          else markFirstRun('try-search');
        }}
      >
        <div className="query-list">
          {queries.map((query, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: query rows have no identity beyond their position
            <div className="row" key={index}>
              <input
                className="grow"
                placeholder={index === 0 ? 'e.g. read a file' : 'another query'}
                aria-label={`Query ${index + 1}`}
                data-testid={`playground-query-${index}`}
                value={query}
                onChange={(e) => setQuery(index, e.target.value)}
              />
              {queries.length > 1 && (
                <button
                  type="button"
                  className="small ghost"
                  aria-label={`Remove query ${index + 1}`}
                  onClick={() => setQueries(queries.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              )}
            </div>
          ))}
        </div>
        <div className="form-actions">
          <button
            type="button"
            data-testid="playground-add-query"
            disabled={queries.length >= 20}
            onClick={() => setQueries([...queries, ''])}
          >
            Add query
          </button>
          <label className="row small">
            Limit
            <input
              type="number"
              min={1}
              max={50}
              placeholder="default"
              className="mono w-number"
              data-testid="playground-limit"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
          </label>
          <button
            type="submit"
            className="primary"
            data-testid="playground-search"
            disabled={busy || queries.every((q) => q.trim() === '')}
          >
            {busy ? 'Searching…' : 'Search'}
          </button>
          {error !== undefined && <ErrorText testId="playground-search-error">{error}</ErrorText>}
        </div>
      </form>
      {toolCount === 0 && result === undefined && (
        <div className="panel-body">
          <EmptyState title="The catalog is empty">
            Add a server first; its tools become searchable here.
          </EmptyState>
        </div>
      )}
      {result !== undefined && (
        <div className="panel-body" data-testid="playground-results">
          {result.explanations.map((explanation, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same query may be asked twice
            <ResultGroup key={index} index={index} explanation={explanation} />
          ))}
          <div className="form-actions">
            <button type="button" className="small ghost" onClick={() => setShowRaw(!showRaw)}>
              {showRaw ? 'Hide' : 'Show'} exactly what the agent receives
            </button>
          </div>
          {showRaw && <JsonBlock value={result.response} testId="playground-raw" />}
        </div>
      )}
    </section>
  );
}

function ResultGroup(props: { index: number; explanation: SearchExplanationView }) {
  const { explanation } = props;
  const best = Math.max(...explanation.matches.map((m) => m.score), 0);
  return (
    <div className="result-group" data-testid={`result-group-${props.index}`}>
      <div className="row">
        <h3 className="grow">“{explanation.query}”</h3>
        <span className="badge plain">
          {explanation.matches.length} {explanation.matches.length === 1 ? 'match' : 'matches'}
        </span>
      </div>
      <div className="row small mt-s" data-testid="explain-summary">
        <span className="muted">Gate token:</span>
        {explanation.gateToken === undefined ? (
          <span className="faint" data-testid="explain-gate">
            none (only a word naming an app that is not installed stops a search)
          </span>
        ) : (
          <span className="chip" data-testid="explain-gate">
            {explanation.gateToken}
          </span>
        )}
        <span className="muted">Answerable terms:</span>
        {explanation.answerableTerms.length === 0 ? (
          <span className="faint">none</span>
        ) : (
          <span className="chips" data-testid="explain-terms">
            {explanation.answerableTerms.map((term) => (
              <span key={term} className="chip">
                {term}
              </span>
            ))}
          </span>
        )}
      </div>
      {explanation.words.length > 0 && <WordFates words={explanation.words} />}
      {explanation.corrections !== undefined && explanation.corrections.length > 0 && (
        <p className="small muted mt-s">
          Read as:{' '}
          {explanation.corrections.map((c) => (
            <span key={`${c.from}-${c.to}`} className="chip">
              {c.from} → {c.to}
            </span>
          ))}
        </p>
      )}
      {explanation.unknownWords !== undefined && (
        <div className="callout mt-s small" data-testid="explain-unknown">
          Read as an app no installed tool mentions, so nothing is returned:
          <ul>
            {explanation.unknownWords.map(({ word, why }) => (
              <li key={word}>
                <span className="chip">{word}</span> {why}
              </li>
            ))}
          </ul>
        </div>
      )}
      {explanation.matches.length === 0 ? (
        <p className="muted mt-m">
          No tool matched. The agent gets an empty result and is told to rephrase; try the words a tool's
          description would use.
        </p>
      ) : (
        <div className="mt-s">
          {explanation.matches.map((match, rank) => (
            <MatchRow key={match.name} match={match} rank={rank} best={best} />
          ))}
        </div>
      )}
    </div>
  );
}

const FATE_LABELS: Record<QueryWordView['fate'], string> = {
  kept: 'kept',
  dropped: 'dropped',
  unknown: 'stops the search',
};

/** Every query word and what became of it: kept, dropped and why, corrected, bridged to related words. */
function WordFates(props: { words: QueryWordView[] }) {
  return (
    <details className="word-fates mt-s small" data-testid="explain-words">
      <summary>
        <span className="muted">Words:</span>{' '}
        {props.words.map((word, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a query may repeat a word
          <span key={index} className={`chip fate-${word.fate}`} title={word.why}>
            {word.word}
          </span>
        ))}
      </summary>
      <ul>
        {props.words.map((word, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a query may repeat a word
            key={index}
            data-testid="explain-word"
            data-fate={word.fate}
            data-reason={word.reason}
          >
            <span className={`chip fate-${word.fate}`}>{word.word}</span> <b>{FATE_LABELS[word.fate]}</b>{' '}
            <span className="muted">({word.reason})</span>
            {word.why !== word.reason && <> {word.why}</>}
            {word.correctedTo !== undefined && <> · corrected to “{word.correctedTo}”</>}
            {word.expandedTo !== undefined && (
              <>
                {' '}
                · also scored:{' '}
                {word.expandedTo.map((related) => (
                  <span
                    key={`${related.word}-${related.source}`}
                    className="chip"
                    title={`from ${related.source}, weight ${related.weight} of the query's own words`}
                  >
                    {related.word} ×{related.weight.toFixed(2)}{' '}
                    <span className="faint">{related.source}</span>
                  </span>
                ))}
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function DescribePanel(props: { names: string; setNames: (names: string) => void }) {
  const { describeTools, described } = useAppStoreShallow((s) => ({
    describeTools: s.describeTools,
    described: s.described,
  }));
  const [error, setError] = useState<string>();
  return (
    <section className="panel">
      <div className="panel-head">
        <h2>tool_describe</h2>
        <span className="muted small">The full schemas the agent loads before calling.</span>
      </div>
      <form
        className="panel-body"
        onSubmit={async (event) => {
          event.preventDefault();
          const names = props.names
            .split(/[\s,]+/)
            .map((n) => n.trim())
            .filter((n) => n !== '');
          const outcome = await describeTools(names);
          setError(outcome.ok ? undefined : outcome.error.message);
        }}
      >
        <div className="row">
          <input
            className="grow mono"
            placeholder="mcp__server__tool, another name"
            aria-label="Tool names to describe"
            data-testid="describe-names"
            value={props.names}
            onChange={(e) => props.setNames(e.target.value)}
          />
          <button
            type="submit"
            className="primary"
            data-testid="describe-submit"
            disabled={props.names.trim() === ''}
          >
            Describe
          </button>
        </div>
        {error !== undefined && <ErrorText>{error}</ErrorText>}
        {described !== undefined && (
          <div className="mt-m">
            <JsonBlock value={described} testId="describe-result" />
          </div>
        )}
      </form>
    </section>
  );
}

function CallPanel(props: { name: string; setName: (name: string) => void }) {
  return (
    <section className="panel">
      <div className="panel-head">
        <h2>tool_call</h2>
        <span className="muted small">Goes through your approval policy like any agent's call.</span>
      </div>
      <div className="panel-body">
        <label className="field">
          Tool name
          <input
            className="mono"
            data-testid="call-name"
            placeholder="mcp__server__tool"
            value={props.name}
            onChange={(e) => props.setName(e.target.value)}
          />
        </label>
        <CallForm name={props.name} testId="call" />
      </div>
    </section>
  );
}

type Match = SearchExplanationView['matches'][number];

/** One result: why it ranked, and Describe / Call, whose output opens right under it. */
function MatchRow(props: { match: Match; rank: number; best: number }) {
  const { match, best } = props;
  const describeTools = useAppStore((s) => s.describeTools);
  const [open, setOpen] = useState<'describe' | 'call'>();
  const [described, setDescribed] = useState<JsonObject>();
  const [error, setError] = useState<string>();
  const describe = async () => {
    if (open === 'describe') {
      setOpen(undefined);
      return;
    }
    setOpen('describe');
    const outcome = await describeTools([match.name]);
    setError(outcome.ok ? undefined : outcome.error.message);
    if (outcome.ok) setDescribed(outcome.value);
  };
  return (
    <>
      <div className="match" data-testid="result-match" data-name={match.name}>
        <span className="rank">{props.rank + 1}</span>
        <div>
          <ToolName name={match.name} className="match-name" />
          <div className="term-scores" data-testid="match-terms">
            {Object.entries(match.terms)
              .sort((a, b) => b[1] - a[1])
              .map(([term, score]) => (
                <span key={term} className="chip">
                  {term} <b>{score.toFixed(2)}</b>
                </span>
              ))}
          </div>
        </div>
        <div className="row">
          <span className="mono small" title="BM25 score" data-testid="match-score">
            {match.score.toFixed(2)}
          </span>
          <span className="meter score-meter">
            <span style={{ width: `${best > 0 ? (match.score / best) * 100 : 0}%` }} />
          </span>
          <button
            type="button"
            className="small"
            aria-expanded={open === 'describe'}
            data-testid={`match-describe-button-${match.name}`}
            onClick={() => void describe()}
          >
            Describe
          </button>
          <button
            type="button"
            className="small"
            aria-expanded={open === 'call'}
            data-testid={`match-call-button-${match.name}`}
            onClick={() => setOpen(open === 'call' ? undefined : 'call')}
          >
            Call
          </button>
        </div>
      </div>
      {open === 'describe' && (
        <div className="match-output">
          {error !== undefined ? (
            <ErrorText>{error}</ErrorText>
          ) : (
            described !== undefined && <JsonBlock value={described} testId={`match-describe-${match.name}`} />
          )}
        </div>
      )}
      {open === 'call' && (
        <div className="match-output">
          <CallForm name={match.name} testId={`match-call-${match.name}`} />
        </div>
      )}
    </>
  );
}
