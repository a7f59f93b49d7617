import { defineConfig } from 'vitest/config';

// Four projects so a developer can run one layer alone: `npx vitest run --project unit`.
export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // A test's timeout only catches a hang: speed is measured in bench/, never asserted here. The
    // 5 s default was a speed limit nobody meant, and on a loaded 2-core machine unit tests that
    // start the CLI, parse the whole tree or read the shared catalogs ran past it (up to 15 s).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state the test cannot await, and its 1 s default counted a whole
    // agent call through the host as one try (client-requests' hanging/cancellations polls): the
    // e2e kit's 15 s, for every poll that names no timeout of its own.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'security', include: ['test/security/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
