// The CLI suites' shared setup: `skillgate` from sources as a real process, fixtures removed after the file, a recording CliIO.
import { afterAll } from "vitest";
import type { CliIO } from "../../runtime/cli/io.js";
import { MAIN, TSX } from "../mcp/helpers.js";
import { type ProcessOutcome, runProcess } from "../support/process.js";
import { type Fixture, type FixtureOptions, makeFixture, REPO_ROOT } from "../tools/helpers.js";

/** `skillgate ARGS` run from the sources (tsx) to its end: exit code, stdout and stderr. */
export function skillgate(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = REPO_ROOT,
): Promise<ProcessOutcome> {
  return runProcess(TSX, [MAIN, ...args], { cwd, env });
}

/** The flags that point a verb at a fixture's workspace and workflow. */
export const flags = (f: Fixture): string[] => ["--workspace", f.ws, "--config", f.configFile];

/**
 * A maker of fixtures that are all removed once the file's tests are done (registers the afterAll, so call it at
 * the top of the test file).
 */
export function fixturesForFile(): (options?: FixtureOptions) => Fixture {
  const made: Fixture[] = [];
  afterAll(() => {
    for (const fixture of made) fixture.cleanup();
  });
  return (options = {}) => {
    const fixture = makeFixture(options);
    made.push(fixture);
    return fixture;
  };
}

/** A CliIO that keeps what a verb printed, for the printing helpers (the real one writes to the process). */
export function recordingIO(): CliIO & { outs: string[]; errs: string[]; exitCode: number } {
  const io = {
    outs: [] as string[],
    errs: [] as string[],
    exitCode: 0,
    out: (text: string) => void io.outs.push(text),
    err: (text: string) => void io.errs.push(text),
    colour: (_name: string, text: string) => text,
    setExitCode: (code: number) => {
      if (code > io.exitCode) io.exitCode = code;
    },
  };
  return io;
}
