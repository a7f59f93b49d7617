import { type ReactNode, useState } from 'react';
import type { ServerConfig } from '../../src/api/ui-api.js';
import { type CommandCallout, calloutSentence, commandCallouts } from '../../src/base/command-review.js';
import { ErrorText } from '../components/common.js';
import { Field } from '../components/field.js';
import type { FormResult } from '../lib/server-form.js';
import { useAppStore } from '../store/store-context.js';

/** Adds one server through the host (every form ends here) and closes the panel once it is added. */
export function useSubmit(onDone: () => void) {
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

/** A server's optional display name. */
export function DisplayNameField(props: { value: string; onChange: (name: string) => void }) {
  return (
    <Field label="Display name" hint="Optional">
      <input data-testid="server-name" value={props.value} onChange={(e) => props.onChange(e.target.value)} />
    </Field>
  );
}

/** A server's id, with why it cannot be used (taken, malformed) as soon as it is typed. */
export function ServerIdField(props: {
  value: string;
  error: string | undefined;
  onEdit: (id: string) => void;
}) {
  return (
    <Field label="Id" hint={<>Part of every tool name: mcp__&lt;id&gt;__tool</>} error={props.error}>
      <input data-testid="server-id" value={props.value} onChange={(e) => props.onEdit(e.target.value)} />
    </Field>
  );
}

/** What will run, exactly and untruncated, before it runs (security checklist M13). */
export function CommandReview(props: { config: Extract<ServerConfig, { transport: 'stdio' }> }) {
  const { config } = props;
  const envNames = Object.keys(config.env ?? {});
  return (
    <ProgramReview
      command={config.command}
      args={config.args ?? []}
      envNames={envNames}
      {...(config.cwd === undefined ? {} : { cwd: config.cwd })}
      callouts={commandCallouts({ command: config.command, args: config.args ?? [], envNames })}
      testId="server-review"
    />
  );
}

/**
 * One program as it will run: program and arguments word by word, the environment's names, the
 * working folder, and every call-out (inline scripts shown in full). The command form, pasted
 * configs and imports all use it.
 */
export function ProgramReview(props: {
  command: string;
  args: readonly string[];
  envNames: readonly string[];
  cwd?: string;
  callouts: readonly CommandCallout[];
  testId: string;
}) {
  const words = [props.command, ...props.args];
  const sentence = calloutSentence(props.callouts);
  return (
    <div className="review" data-testid={props.testId}>
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
      {props.envNames.length > 0 && (
        <p className="small">
          Environment: <span className="mono">{props.envNames.join(', ')}</span>
        </p>
      )}
      {props.cwd !== undefined && (
        <p className="small">
          Working folder: <span className="mono">{props.cwd}</span>
        </p>
      )}
      {sentence !== undefined && (
        <div className="callout bad mt-m" data-testid="command-warnings">
          {sentence}
          {props.callouts
            .filter((callout) => callout.code !== undefined && callout.code !== '')
            .map((callout) => (
              <pre
                className="code mt-s"
                key={`${callout.message}\n${callout.code}`}
                data-testid="command-callout-code"
              >
                {callout.code}
              </pre>
            ))}
        </div>
      )}
    </div>
  );
}

/**
 * The end of a stdio form: the review once it is checked, then Review / Add and start, Edit, any
 * extra buttons and the host's error. The command form and the catalog's install share it.
 */
export function ReviewAndSubmit(props: {
  review: FormResult | undefined;
  busy: boolean;
  error: string | undefined;
  onEdit: () => void;
  children?: ReactNode;
}) {
  const { review, busy, error } = props;
  return (
    <>
      {review?.ok && review.config.transport === 'stdio' && <CommandReview config={review.config} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="server-submit">
          {review?.ok ? (busy ? 'Starting…' : 'Add and start') : 'Review'}
        </button>
        {review?.ok && (
          <button type="button" onClick={props.onEdit}>
            Edit
          </button>
        )}
        {props.children}
        {error !== undefined && <ErrorText testId="add-server-error">{error}</ErrorText>}
      </div>
    </>
  );
}
