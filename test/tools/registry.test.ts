// The tool registry: which tools are offered with skills on/off, unknown tools, and how bad input reads.
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { ALL_TOOLS, callTool, toolsFor } from "../../runtime/tools/registry.js";
import { type Fixture, makeFixture } from "./helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("toolsFor", () => {
  it("offers the seven workflow tools in UCAgent order, then the eleven file tools, with skills enabled", () => {
    expect(ALL_TOOLS.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(toolsFor(true).map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(TOOL_NAMES).toHaveLength(18);
  });

  it("hides ListSkill, RunSkillScript and SetSkillUsage with skills disabled; ReadTextFile stays", () => {
    expect(toolsFor(false, { fileTools: false }).map((tool) => tool.name)).toEqual([
      "ReadTextFile",
      "Check",
      "Complete",
      "Status",
    ]);
    expect(toolsFor(false).map((tool) => tool.name)).toEqual([
      "ReadTextFile",
      "Check",
      "Complete",
      "Status",
      ...TOOL_NAMES.slice(7),
    ]);
  });
});

describe("callTool", () => {
  it("answers an unknown tool with the offered list, suggesting the right case", async () => {
    fixture = makeFixture({ useSkill: false });
    const session = await fixture.open();
    const result = await callTool(session, "readtextfile", {});
    expect(result).toMatchObject({ isError: true, code: "USAGE" });
    expect(result.text).toBe(
      "Unknown tool 'readtextfile'. Did you mean 'ReadTextFile'? Available tools: ReadTextFile, Check, Complete, " +
        `Status, ${TOOL_NAMES.slice(7).join(", ")}.`,
    );
  });

  it.each(["ListSkill", "RunSkillScript", "SetSkillUsage"])(
    "%s answers 'skill support is disabled' (not an error) with skills disabled, even with bad arguments",
    async (name) => {
      fixture = makeFixture({ useSkill: false });
      const session = await fixture.open();
      const result = await callTool(session, name, { nonsense: 1 });
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(new RegExp(`^${name}: skill support is disabled`));
      expect(result.structured.disabled).toBe(true);
    },
  );

  it("Check, Complete and Status keep working with skills disabled", async () => {
    fixture = makeFixture({ useSkill: false });
    const session = await fixture.open();
    expect((await callTool(session, "Status", {})).isError).toBe(false);
    expect((await callTool(session, "Check", {})).code).toBe("CHECK_FAILED");
    expect((await callTool(session, "Complete", {})).code).toBe("CHECK_FAILED");
  });

  it("treats null/undefined arguments as {}", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    expect((await callTool(session, "Status", null)).isError).toBe(false);
    expect((await callTool(session, "ListSkill", undefined)).isError).toBe(false);
  });

  it("explains a non-object argument", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const result = await callTool(session, "ReadTextFile", "dut/notes.txt");
    expect(result.text).toBe(
      'Invalid arguments for ReadTextFile: the arguments must be object, got "dut/notes.txt". Fix the call and try ' +
        'again, e.g. ReadTextFile {"path": ".ucagent/skills/<group>/<skill>/SKILL.md", "start": 1, "count": -1}.',
    );
  });
});
