// The limits and the SuperviseInput that the supervise tests' real runs start from.
import type { SuperviseInput } from "../../../runtime/exec/supervise/supervise.js";
import type { RunLimits } from "../../../runtime/exec/types.js";
import { SMALL_LIMITS } from "../harness.js";

/** The harness limits with room for a Python heap and the given wall clock. */
export const superviseLimits = (timeoutMs: number): RunLimits => ({
  ...SMALL_LIMITS,
  timeoutMs,
  memoryBytes: 256 * 1024 * 1024,
});

/** A run of `argv` in `cwd` with no cgroup, no handshake and a 20 ms poll; `overrides` win. */
export function superviseInput(
  argv: string[],
  cwd: string,
  limits: RunLimits,
  overrides: Partial<SuperviseInput> = {},
): SuperviseInput {
  return {
    argv,
    cwd,
    env: { PATH: "/usr/bin:/bin" },
    limits,
    cgroup: null,
    handshake: false,
    pollIntervalMs: 20,
    platform: "linux",
    now: () => performance.now(),
    ...overrides,
  };
}
