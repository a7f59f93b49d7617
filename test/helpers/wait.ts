/** The one polling wait the tests share. */

// Short enough not to slow a test that waits on a fast event; long enough that a check which
// lists processes or calls a tool does not hog the two cores the suite runs on.
const POLL_MS = 20;

/**
 * Polls `check` until it holds; fails the test saying what it waited for, and how long. `what`
 * may be a function, to name state (a child's stderr) as it is when the wait fails.
 */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
