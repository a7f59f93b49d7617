import { FIRST_RUN_STEPS, type FirstRunStep, showFirstRun } from '../store/first-run-slice.js';
import { useAppStoreShallow } from '../store/store-context.js';
import type { ViewId } from '../store/ui-slice.js';

const STEPS: Record<FirstRunStep, { title: string; text: string; view: ViewId; action: string }> = {
  'copy-config': {
    title: "Copy an agent's config",
    text: 'Agents has ready-made configs for Claude Desktop, Cursor and VS Code, each with its own token.',
    view: 'agents',
    action: 'Open Agents',
  },
  'try-search': {
    title: 'Try a search',
    text: 'See what tool_search gives an agent, and why each tool ranked where it did.',
    view: 'playground',
    action: 'Open Playground',
  },
  'choose-approvals': {
    title: 'Choose approval defaults',
    text: 'Decide what runs without asking, what opens a card, and how long a card waits.',
    view: 'settings',
    action: 'Open Settings',
  },
};

/** Three steps from a fresh install to an agent at work; gone once done or dismissed. */
export function FirstRunChecklist() {
  const { firstRun, dismiss, setView } = useAppStoreShallow((s) => ({
    firstRun: s.firstRun,
    dismiss: s.dismissFirstRun,
    setView: s.setView,
  }));
  if (!showFirstRun(firstRun)) return null;
  return (
    <section className="panel panel-body mt-m" data-testid="first-run" aria-label="Getting started">
      <div className="row">
        <h2 className="grow">Getting started</h2>
        <span className="muted small">
          {firstRun.done.length} of {FIRST_RUN_STEPS.length} done
        </span>
        <button type="button" className="small ghost" data-testid="first-run-dismiss" onClick={dismiss}>
          Dismiss
        </button>
      </div>
      <ol className="checklist">
        {FIRST_RUN_STEPS.map((step) => {
          const done = firstRun.done.includes(step);
          return (
            <li key={step} data-testid={`first-run-${step}`} data-done={done}>
              <span className={`badge ${done ? 'ok' : 'plain'}`}>{done ? 'Done' : 'To do'}</span>
              <div className="grow">
                <strong>{STEPS[step].title}</strong>
                <p className="small muted">{STEPS[step].text}</p>
              </div>
              {!done && (
                <button type="button" className="small" onClick={() => setView(STEPS[step].view)}>
                  {STEPS[step].action}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
