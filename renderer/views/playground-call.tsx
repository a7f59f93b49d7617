import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { useMemo, useState } from 'react';
import type { JsonObject } from '../../src/base/json.js';
import { ErrorText, JsonBlock } from '../components/common.js';
import type { DraftCheck } from '../drafts/form-status.js';
import {
  emptyValues,
  type FormField,
  type FormValues,
  formArguments,
  formFields,
  jsonArguments,
} from '../lib/schema-form.js';
import { selectToolByName } from '../store/selectors.js';
import { useAppStore, useAppStoreShallow } from '../store/store-context.js';

/**
 * Calls one tool through approvals: its arguments in a form generated from its input schema, or
 * as JSON (always there as the fallback, and the only editor for a tool whose schema the form
 * cannot show). The result is shown under the form.
 */
export function CallForm(props: {
  name: string;
  testId: string;
  onResult?: (result: CallToolResult) => void;
}) {
  const { callTool, setView } = useAppStoreShallow((s) => ({ callTool: s.callTool, setView: s.setView }));
  const schema = useAppStore(selectToolByName(props.name.trim()))?.inputSchema;
  const fields = useMemo(() => formFields(schema), [schema]);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [values, setValues] = useState<FormValues>({});
  const [json, setJson] = useState('{}');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<CallToolResult>();
  const useForm = mode === 'form' && fields !== undefined;
  const id = props.testId;

  const submit = async () => {
    const args: DraftCheck<JsonObject> = useForm
      ? formArguments(fields, { ...emptyValues(fields), ...values })
      : jsonArguments(json);
    if (!args.ok) {
      setError(args.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    const outcome = await callTool(props.name.trim(), args.value);
    setBusy(false);
    if (!outcome.ok) setError(outcome.error.message);
    else {
      setResult(outcome.value);
      props.onResult?.(outcome.value);
    }
  };

  return (
    <form
      data-testid={id}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {fields !== undefined && (
        <div className="tabs" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={useForm}
            data-testid={`${id}-mode-form`}
            onClick={() => setMode('form')}
          >
            Form
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={!useForm}
            data-testid={`${id}-mode-json`}
            onClick={() => setMode('json')}
          >
            JSON
          </button>
        </div>
      )}
      {useForm ? (
        <SchemaFields
          fields={fields}
          values={values}
          testId={id}
          onChange={(patch) => setValues({ ...values, ...patch })}
        />
      ) : (
        <label className="field mt-s">
          Arguments (JSON object)
          {fields === undefined && props.name.trim() !== '' && (
            <span className="hint">
              No form for this tool's schema (or it is not listed here): write the arguments as JSON.
            </span>
          )}
          <textarea
            data-testid={`${id}-args`}
            rows={5}
            value={json}
            onChange={(e) => setJson(e.target.value)}
          />
        </label>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          data-testid={`${id}-submit`}
          disabled={busy || props.name.trim() === ''}
        >
          {busy ? 'Waiting…' : 'Call'}
        </button>
        {busy && (
          <span className="muted small">
            If this tool asks first, approve it in{' '}
            <button type="button" className="small" onClick={() => setView('cards')}>
              Cards
            </button>
          </span>
        )}
        {error !== undefined && <ErrorText testId={`${id}-error`}>{error}</ErrorText>}
      </div>
      {result !== undefined && !busy && (
        <div className="mt-s">
          {result.isError === true && <div className="callout bad">The tool reported an error.</div>}
          <JsonBlock value={result} testId={`${id}-result`} className="mt-s" />
        </div>
      )}
    </form>
  );
}

function SchemaFields(props: {
  fields: readonly FormField[];
  values: FormValues;
  testId: string;
  onChange: (patch: FormValues) => void;
}) {
  if (props.fields.length === 0) return <p className="muted small mt-s">This tool takes no arguments.</p>;
  return (
    <div className="form-grid mt-s">
      {props.fields.map((field) => {
        const value = props.values[field.name] ?? '';
        const testId = `${props.testId}-field-${field.name}`;
        const set = (next: string) => props.onChange({ [field.name]: next });
        return (
          <div key={field.name} className={`field${field.kind === 'json' ? ' span-all' : ''}`}>
            <label className="mono" htmlFor={testId}>
              {field.name}
              {field.required && <span className="bad-text"> *</span>}
            </label>
            {field.description !== undefined && <span className="hint">{field.description}</span>}
            {field.kind === 'enum' ? (
              <select id={testId} data-testid={testId} value={value} onChange={(e) => set(e.target.value)}>
                <option value="">{field.required ? 'choose…' : '(not set)'}</option>
                {field.options?.map((option) => (
                  <option key={option}>{option}</option>
                ))}
              </select>
            ) : field.kind === 'boolean' ? (
              <select id={testId} data-testid={testId} value={value} onChange={(e) => set(e.target.value)}>
                {!field.required && <option value="">(not set)</option>}
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : field.kind === 'json' ? (
              <textarea
                data-testid={testId}
                rows={3}
                placeholder="JSON"
                value={value}
                onChange={(e) => set(e.target.value)}
              />
            ) : (
              <input
                id={testId}
                data-testid={testId}
                type={field.kind === 'text' ? 'text' : 'number'}
                step={field.kind === 'integer' ? 1 : 'any'}
                value={value}
                onChange={(e) => set(e.target.value)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
