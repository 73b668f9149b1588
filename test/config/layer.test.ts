// One config layer (runtime/config/layer.ts): a YAML file read into a mapping, its errors, and the lines keys sit on.
import { mkdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { lineOf, parseYamlLayer, readLayerText, readYamlLayer } from "../../runtime/config/layer.js";
import { SkillgateError } from "../../runtime/errors.js";
import { type ConfigSandbox, configSandbox } from "./helpers.js";

let box: ConfigSandbox;
afterEach(() => box?.cleanup());

function failure(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a SkillgateError");
}

async function failureOf(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a SkillgateError");
}

describe("parseYamlLayer", () => {
  it("a mapping becomes the layer's data; an empty or comment-only file is an empty layer", () => {
    expect(parseYamlLayer("skill:\n  use_skill: false\n", "/c.yaml").data).toEqual({
      skill: { use_skill: false },
    });
    expect(parseYamlLayer("", "/c.yaml").data).toEqual({});
    expect(parseYamlLayer("# only a comment\n", "/c.yaml").data).toEqual({});
  });

  it.each([
    [
      "a list at the top",
      "- a\n- b\n",
      "CONFIG_INVALID",
      "invalid config: /c.yaml:1: the top level must be a mapping of key: value lines, got a list; start the file with keys such as skill: or stage:",
    ],
    [
      "a scalar at the top",
      "42\n",
      "CONFIG_INVALID",
      "invalid config: /c.yaml:1: the top level must be a mapping of key: value lines, got 42 (a number); start the file with keys such as skill: or stage:",
    ],
    [
      "a duplicate key, with its line",
      "skill: {}\nstage: []\nskill: {}\n",
      "CONFIG_UNREADABLE",
      "cannot parse config file /c.yaml:3: Map keys must be unique; fix the YAML syntax there (indentation, quoting, duplicate keys)",
    ],
  ])("%s", (_name, text, code, message) => {
    expect(failure(() => parseYamlLayer(text, "/c.yaml"))).toEqual({ code, message });
  });

  it("names the role it was given in the message", () => {
    expect(failure(() => parseYamlLayer("a: [\n", "/s.yaml", "workspace setting")).message).toMatch(
      /^cannot parse workspace setting \/s\.yaml:\d+: .+; fix the YAML syntax there/,
    );
  });
});

describe("lineOf", () => {
  const layer = parseYamlLayer(
    "skill:\n  use_skill: yes\n  extra:\n    - a\nstage:\n  - name: s1\n    skill_list: 3\n",
    "/c.yaml",
  );
  it.each([
    [["skill", "use_skill"], undefined, 2],
    [["stage", 0, "skill_list"], undefined, 7],
    [["stage", 0], "skill_list", 7],
    [["skill"], "extra", 3],
    [["skill", "missing", "deeper"], undefined, 2],
  ] as const)("%j (key %s) is on line %i", (path, key, line) => {
    expect(lineOf(layer, [...path], key)).toBe(line);
  });

  it("a layer without a document (command-line flags) has no line", () => {
    expect(lineOf({ source: "command-line flags", isFile: false, data: { a: 1 } }, ["a"])).toBeUndefined();
  });
});

describe("readYamlLayer and readLayerText", () => {
  it("reads a real file; a missing optional file is null", async () => {
    box = configSandbox();
    const file = box.write("user.yaml", "skill:\n  max_skill_list_count: 3\n");
    const layer = await readYamlLayer(file, { optional: false, role: "user config" });
    expect(layer?.data).toEqual({ skill: { max_skill_list_count: 3 } });
    expect(layer?.source).toBe(file);
    expect(await readYamlLayer(`${box.root}/none.yaml`, { optional: true, role: "user config" })).toBeNull();
  });

  it("a missing required file is PATH_NOT_FOUND, a folder is CONFIG_UNREADABLE, other IO errors keep their reason", async () => {
    box = configSandbox();
    const missing = `${box.root}/none.yaml`;
    expect(await failureOf(() => readLayerText(missing, { optional: false, role: "--config file" }))).toEqual(
      {
        code: "PATH_NOT_FOUND",
        message: `--config file ${missing} does not exist; check the path`,
      },
    );
    const folder = `${box.root}/folder.yaml`;
    mkdirSync(folder);
    expect(await failureOf(() => readLayerText(folder, { optional: true, role: "--config file" }))).toEqual({
      code: "CONFIG_UNREADABLE",
      message: `cannot read --config file ${folder}: it is a folder, not a file; make it a readable YAML file`,
    });
    const denied = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    const readText = async () => {
      throw denied;
    };
    expect(
      await failureOf(() => readLayerText("/x.yaml", { optional: true, role: "user config", readText })),
    ).toEqual({
      code: "CONFIG_UNREADABLE",
      message: "cannot read user config /x.yaml: EACCES: permission denied; make it a readable YAML file",
    });
  });
});
