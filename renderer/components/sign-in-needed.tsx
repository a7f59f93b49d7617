import type { ServerView } from '../../src/api/ui-api.js';
import { canSignIn, type ServerDraft, useServerDraft } from '../drafts/server-draft.js';
import { useAppStoreShallow } from '../store/store-context.js';
import { ExternalLink, ServerText } from './common.js';

/**
 * A server waiting for the person to sign in: not an error, so amber, one line saying what is
 * needed and the Sign in action (the Servers row's own, so both views start the same sign-in).
 * Once started, the line says where to finish, with the page's link in case the tab was blocked.
 */
export function SignInNeeded(props: { server: ServerView; draft: ServerDraft }) {
  const { server, draft } = props;
  const id = server.id;
  return (
    <div className="callout warn sign-in-needed" role="status" data-testid={`server-sign-in-needed-${id}`}>
      {draft.signInUrl === undefined ? (
        <ServerText
          className="grow wrap-anywhere"
          testId={`server-sign-in-text-${id}`}
          text={server.lastError ?? `Sign in to ${server.name} to use its tools.`}
        />
      ) : (
        <p className="grow" data-testid={`server-sign-in-text-${id}`}>
          Finish signing in on the page that opened (
          <ExternalLink href={draft.signInUrl}>open it again</ExternalLink>
          ); {server.name} connects once you allow access there.
        </p>
      )}
      {canSignIn(server) && (
        <button
          type="button"
          className="small primary"
          disabled={draft.busy}
          data-testid={`server-sign-in-${id}`}
          onClick={() => void draft.signIn()}
        >
          Sign in
        </button>
      )}
    </div>
  );
}

/** SignInNeeded with its own draft, for views that list the server without its Servers row. */
export function ServerSignIn(props: { server: ServerView }) {
  const actions = useAppStoreShallow((s) => ({ authorizeServer: s.authorizeServer, notify: s.notify }));
  return <SignInNeeded server={props.server} draft={useServerDraft(props.server, actions)} />;
}
