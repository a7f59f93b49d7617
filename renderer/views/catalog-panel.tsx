import { useEffect, useMemo, useState } from 'react';
import type { CatalogServerView, McpCatalogInput } from '../../src/api/ui-api.js';
import { ErrorText, ExternalLink, ToolName } from '../components/common.js';
import { Field } from '../components/field.js';
import {
  askedInputs,
  buildCatalogConfig,
  type CatalogFormValues,
  catalogFormValues,
  filterCatalog,
} from '../lib/catalog-install.js';
import type { FormResult } from '../lib/server-form.js';
import { serverIdTaken } from '../lib/server-form.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';
import { DisplayNameField, ReviewAndSubmit, ServerIdField, useSubmit } from './server-review.js';

/**
 * Servers → Add from catalog: the bundled install catalog, searchable, each entry saying what it
 * does, what runs and what it needs. Install opens the entry's form, then the command form's
 * review; only then is it added (addServer), like any other server.
 */
export function CatalogBrowser(props: { onDone: () => void }) {
  const listCatalogServers = useAppStore((s) => s.listCatalogServers);
  const [catalog, setCatalog] = useState<CatalogServerView[]>();
  const [error, setError] = useState<string>();
  const [query, setQuery] = useState('');
  const [installing, setInstalling] = useState<CatalogServerView>();
  useEffect(() => {
    void listCatalogServers().then((outcome) => {
      if (outcome.ok) setCatalog(outcome.value);
      else setError(outcome.error.message);
    });
  }, [listCatalogServers]);
  const shown = useMemo(() => filterCatalog(catalog ?? [], query), [catalog, query]);

  if (error !== undefined) return <ErrorText testId="catalog-error">{error}</ErrorText>;
  if (catalog === undefined) return <p className="muted">Reading the catalog…</p>;
  if (installing !== undefined) {
    return (
      <CatalogInstallForm server={installing} onBack={() => setInstalling(undefined)} onDone={props.onDone} />
    );
  }
  return (
    <div data-testid="catalog-browser">
      <p className="muted small">
        Servers that come with Toolbridge: each runs from Toolbridge's own install with its Node, so nothing
        is downloaded. You review the exact command before anything runs.
      </p>
      <label className="field mt-m">
        Search the catalog
        <input
          type="search"
          data-testid="catalog-search"
          placeholder="files, memory, knowledge graph…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {shown.length === 0 ? (
        <p className="muted mt-m" data-testid="catalog-empty">
          No server in the catalog matches “{query}”. Add it by its command or URL instead.
        </p>
      ) : (
        <div className="mt-m">
          <ul className="plain-list">
            {shown.map((server) => (
              <CatalogRow key={server.id} server={server} onInstall={() => setInstalling(server)} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The ids of configured servers that already run this entry's script. */
function useInstalledAs(server: CatalogServerView): string[] {
  return useAppStoreShallow((s) =>
    Object.values(s.servers)
      .filter((view) => view.config.transport === 'stdio' && view.config.args?.[0] === server.script)
      .map((view) => view.id),
  );
}

function CatalogRow(props: { server: CatalogServerView; onInstall: () => void }) {
  const { server } = props;
  const installedAs = useInstalledAs(server);
  const needs = [...server.arguments, ...server.env];
  return (
    <li className="catalog-row" data-testid={`catalog-row-${server.id}`}>
      <div className="row">
        <div className="grow">
          <h3>{server.title}</h3>
          <p className="small">{server.description}</p>
        </div>
        <button
          type="button"
          className="primary"
          data-testid={`catalog-install-${server.id}`}
          onClick={props.onInstall}
        >
          Install…
        </button>
      </div>
      {installedAs.length > 0 && (
        <p className="small" data-testid={`catalog-installed-${server.id}`}>
          <span className="badge ok plain">installed</span> as{' '}
          <span className="mono">{installedAs.join(', ')}</span>; installing again adds another copy.
        </p>
      )}
      {server.details !== undefined && <p className="small muted mt-s">{server.details}</p>}
      <p className="small mt-s" data-testid={`catalog-package-${server.id}`}>
        Runs <span className="mono">{server.packageName}</span> {server.packageVersion} over stdio, from
        Toolbridge's own install
        {server.repositoryUrl !== undefined && (
          <>
            {' '}
            · <ExternalLink href={server.repositoryUrl}>source</ExternalLink>
          </>
        )}
      </p>
      <div className="small mt-s" data-testid={`catalog-needs-${server.id}`}>
        {needs.length === 0 ? (
          'Needs nothing from you.'
        ) : (
          <>
            Needs:
            <ul>
              {needs.map((input) => (
                <li key={`${input.kind}:${input.name}`}>
                  <InputSummary input={input} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      {server.tools.length > 0 && (
        <details className="mt-s">
          <summary className="small">Its tools ({server.tools.length})</summary>
          <div className="chips">
            {server.tools.map((tool) => (
              <span key={tool} className="chip">
                <ToolName name={tool} />
              </span>
            ))}
          </div>
        </details>
      )}
    </li>
  );
}

const KIND_TEXT: Record<McpCatalogInput['kind'], string> = {
  positional: 'argument',
  named: 'option',
  env: 'environment variable',
};

/** One thing a server needs, in words: what, whether it is required or secret, and its value. */
function InputSummary(props: { input: McpCatalogInput }) {
  const { input } = props;
  return (
    <>
      <span className="mono">{input.name}</span> ({KIND_TEXT[input.kind]}
      {input.value !== undefined ? ', set by the catalog' : input.isRequired ? ', required' : ', optional'}
      {input.isRepeated ? ', one or more' : ''})
      {input.isSecret && (
        <>
          {' '}
          <span className="badge warn plain" data-testid="catalog-secret">
            secret: kept in the secret store
          </span>
        </>
      )}
      {input.description !== undefined && <>: {input.description}</>}
      {input.value !== undefined ? (
        <>
          {' '}
          Always <span className="mono">{input.value}</span>.
        </>
      ) : (
        input.default !== undefined &&
        !input.isSecret && (
          <>
            {' '}
            Proposed: <span className="mono">{input.default}</span>.
          </>
        )
      )}
    </>
  );
}

/** An entry's values, then the command form's review, then addServer. */
function CatalogInstallForm(props: { server: CatalogServerView; onBack: () => void; onDone: () => void }) {
  const { server } = props;
  const ids = useAppStoreShallow((s) => Object.keys(s.servers));
  const taken = useMemo(() => new Set(ids), [ids]);
  const [values, setValues] = useState<CatalogFormValues>(() => catalogFormValues(server, taken));
  const [review, setReview] = useState<FormResult>();
  const { busy, error, submit } = useSubmit(props.onDone);
  const change = (patch: Partial<CatalogFormValues>) => {
    setValues({ ...values, ...patch });
    setReview(undefined);
  };
  const fieldError = (field: string) =>
    review !== undefined && !review.ok && review.field === field ? review.message : undefined;
  return (
    <form
      data-testid="catalog-install-form"
      onSubmit={(event) => {
        event.preventDefault();
        const result = buildCatalogConfig(server, values, taken);
        if (review?.ok && result.ok) void submit(result.config);
        else setReview(result);
      }}
    >
      <h3>Install {server.title}</h3>
      <div className="form-grid mt-m">
        <ServerIdField
          value={values.id}
          error={fieldError('id') ?? serverIdTaken(values.id.trim(), taken)}
          onEdit={(id) => change({ id })}
        />
        <DisplayNameField value={values.name} onChange={(name) => change({ name })} />
        {askedInputs(server).map(({ key, input }) => (
          <CatalogInputField
            key={key}
            input={input}
            testId={`catalog-input-${key}`}
            value={values.inputs[key] ?? ''}
            error={fieldError(key)}
            onChange={(text) => change({ inputs: { ...values.inputs, [key]: text } })}
          />
        ))}
      </div>
      <ReviewAndSubmit review={review} busy={busy} error={error} onEdit={() => setReview(undefined)}>
        <button type="button" className="ghost" data-testid="catalog-back" onClick={props.onBack}>
          Back to the catalog
        </button>
      </ReviewAndSubmit>
    </form>
  );
}

function CatalogInputField(props: {
  input: McpCatalogInput;
  testId: string;
  value: string;
  error: string | undefined;
  onChange: (text: string) => void;
}) {
  const { input } = props;
  const hint = [
    KIND_TEXT[input.kind],
    input.isRequired ? 'required' : 'optional',
    ...(input.isRepeated ? ['one per line'] : []),
    ...(input.isSecret ? ['secret: kept in the secret store, never shown again'] : []),
  ].join(' · ');
  const control =
    input.choices !== undefined ? (
      <select data-testid={props.testId} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {!input.isRequired && <option value="">(not set)</option>}
        {input.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    ) : input.isRepeated ? (
      <textarea
        data-testid={props.testId}
        className="mono"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    ) : (
      <input
        data-testid={props.testId}
        className={input.isSecret ? undefined : 'mono'}
        type={input.isSecret ? 'password' : 'text'}
        autoComplete="off"
        inputMode={input.format === 'number' ? 'decimal' : undefined}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  return (
    <Field
      label={<span className="mono">{input.name}</span>}
      hint={`${hint}${input.description === undefined ? '' : `. ${input.description}`}`}
      error={props.error}
      className="span-all"
    >
      {control}
    </Field>
  );
}
