// Test runner settings: sources run directly, slow real-process suites get room to breathe.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    benchmark: { include: ["test/**/*.bench.ts"] },
  },
});
