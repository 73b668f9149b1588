// `skillgate serve` without --workspace (what `npm start` runs): default workspace seeded with the example target, default workflow.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeTree, tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";
import { call, connectStdio, type StdioConnection } from "./helpers.js";

let home: string | undefined;
let connection: StdioConnection | undefined;

afterEach(async () => {
  await connection?.close();
  connection = undefined;
  if (home) removeTree(home);
  home = undefined;
});

describe("skillgate serve with no --workspace", () => {
  it("builds ~/.skillgate/workspaces/default from the example target and serves the default workflow", async () => {
    home = tempRoot("skillgate-home-").dir;
    connection = await connectStdio([], { ...process.env, SKILLGATE_HOME: home, NO_COLOR: "1" });
    const ws = join(home, "workspaces", "default");
    expect(readFileSync(join(ws, "dut", "inventory.py"), "utf8")).toBe(
      readFileSync(join(REPO_ROOT, "examples", "buggy-inventory", "inventory.py"), "utf8"),
    );
    expect(existsSync(join(ws, ".ucagent", "runtime_config.json"))).toBe(true);
    expect(connection.stderr()).toContain(`no --workspace given; using the default workspace ${ws}`);
    expect(connection.stderr()).toContain(
      `claude mcp add skillgate -- npx tsx ${join(REPO_ROOT, "runtime", "cli", "main.ts")} serve --workspace ${ws}`,
    );

    const { client } = connection;
    const status = await call(client, "Status");
    expect(status.isError).toBe(false);
    expect(status.text).toContain("static_bug_analysis");
    const listed = await call(client, "ListSkill");
    expect(listed.isError).toBe(false);
    expect(listed.text).toContain("   Skill ID: review/static-bug-analysis");
    expect(listed.text).toContain("   Skill ID: authoring/skill-creator");
    const gated = await call(client, "Complete");
    expect(gated.structured.code).toBe("SKILL_USAGE_INCOMPLETE");
  });
});
