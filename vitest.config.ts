// Test runner settings: sources run directly, files side by side (they mostly wait on real processes), a few serial.
// docs/development.md (Tests) says which files are serial and why.
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that run one at a time, after the side-by-side ones, each with the machine to itself (as every file had
 * with one worker): their assertions hold time budgets or the lock's stale timer, which a busy neighbour could
 * push over without any bug. The rest run side by side.
 */
export const SERIAL_FILES: string[] = [
  // Benign scripts must finish within 3-4 s timeouts and the whole run within timeout + 5 s (wall clock).
  "test/adversarial/hostile-scripts.test.ts",
  // A call's 3 s total budget must let the first `sleep 2` command finish before it kills the second.
  "test/adversarial/host-escape.test.ts",
  // Many parallel calls and processes on one workspace lock: a holder starved of CPU for the lock's stale time
  // (10 s) would lose its lock to a waiter.
  "test/workspace/lock.test.ts",
  "test/evidence/hooks-race.test.ts",
  "test/evidence/concurrent-calls.test.ts",
  "test/stage/concurrency.test.ts",
];

/**
 * Workers for the side-by-side files. vitest's default (cores - 1) is one worker on a 2-core CI machine, which
 * leaves the cores idle while a file waits on bwrap, uv, python or a CLI process; SKILLGATE_TEST_WORKERS overrides.
 */
const workers = Number(process.env.SKILLGATE_TEST_WORKERS) || 2;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["test/support/temp-cleanup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SERIAL_FILES],
          maxWorkers: workers,
          benchmark: { include: ["test/**/*.bench.ts"] },
        },
      },
      {
        extends: true,
        test: {
          name: "serial",
          include: SERIAL_FILES,
          fileParallelism: false,
          // Benchmarks belong to the first project only (once each, one at a time: vitest bench runs files serially).
          benchmark: { exclude: ["**"] },
        },
      },
    ],
  },
});
