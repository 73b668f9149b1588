// MCP conventions through the real SDK client: serverInfo, capabilities and instructions.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { servePerTest } from "./helpers.js";

const served = servePerTest();

describe("MCP conventions", () => {
  it("serverInfo comes from package.json; capabilities are honest; instructions give the workflow", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture);
    const { client } = connection;
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(client.getServerVersion()).toEqual({ name: "skillgate", version: pkg.version });
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: { listChanged: true },
      prompts: {},
      extensions: { "io.modelcontextprotocol/skills": {} },
    });
    expect(client.getInstructions()).toContain(
      "ListSkill -> read each stage skill's SKILL.md (ReadTextFile, or resources/read of its skill:// URI) -> apply " +
        "the method (RunSkillScript when it calls for a script) -> Check -> SetSkillUsage -> Complete.",
    );
    expect(client.getInstructions()).toContain("Write stage outputs with the file tools (EditTextFile,");
  });
});
