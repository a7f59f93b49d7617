import { errorSummary } from '../base/errors.js';
import type { Disposable } from '../base/lifecycle.js';
import type { CliIo } from './command.js';

/**
 * What a long-running command (`serve`, `mcp`) does with an error that escaped every handler's own
 * catch: it prints one line (the error's name and where it was thrown, never its message, which
 * may quote a request) and keeps serving. Every request, upgrade and frame handler already
 * contains its own failures, so what arrives here is a stray callback; exiting would drop every
 * agent's session and every open card for it, which is the very outage an attacker would want.
 */
export function keepServingOnUnexpectedErrors(command: string, io: CliIo): Disposable {
  const report = (kind: string) => (error: unknown) =>
    io.stderr(`toolbridge ${command}: ${kind} (${errorSummary(error)}); still serving\n`);
  const onException = report('an unexpected error escaped a handler');
  const onRejection = report('an unexpected promise rejection was not handled');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return {
    dispose() {
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onRejection);
    },
  };
}
