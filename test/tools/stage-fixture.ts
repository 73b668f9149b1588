// Sessions over the fixture workflow for the stage-tool suites (Check, Complete, Status), removed after each test.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, type FixtureOptions, makeFixture } from "./helpers.js";

export type SkillsState = "enabled" | "disabled" | "folder missing";

/** Registers the cleanup; `open` gives a session with skills enabled, disabled or their folder removed. */
export function useStageSessions(): {
  open(state: SkillsState, options?: FixtureOptions): Promise<{ fixture: Fixture; session: OpenedSession }>;
  writeReport(fixture: Fixture): void;
} {
  const made: Fixture[] = [];
  afterEach(() => {
    for (const fixture of made.splice(0)) fixture.cleanup();
  });
  return {
    async open(state, options = {}) {
      const fixture = makeFixture({ ...options, useSkill: state !== "disabled" });
      made.push(fixture);
      const session = await fixture.open();
      if (state === "folder missing") rmSync(session.paths.skillsDir, { recursive: true, force: true });
      return { fixture, session };
    },
    writeReport(fixture) {
      mkdirSync(join(fixture.ws, "out"), { recursive: true });
      writeFileSync(join(fixture.ws, "out", "report.md"), "# Report\n");
    },
  };
}
