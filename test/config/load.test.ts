import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultConfigFile, loadConfig } from "../../runtime/config/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import { type ConfigSandbox, configSandbox } from "./helpers.js";

let box: ConfigSandbox;
beforeEach(() => {
  box = configSandbox();
});
afterEach(() => box.cleanup());

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<SkillgateError> {
  try {
    await loadConfig(options);
  } catch (error) {
    if (error instanceof SkillgateError) return error;
    throw error;
  }
  throw new Error("loadConfig did not fail");
}

const F = "<file>";

describe("config errors name the file, line, key path, bad value and fix", () => {
  const cases: [string, string, string][] = [
    [
      "quoted boolean",
      'skill:\n  use_skill: "false"\n',
      `${F}:2: skill.use_skill: expected a boolean (true or false), got "false" (a string); write false without quotes`,
    ],
    [
      "YAML 1.1 boolean word",
      "skill:\n  use_skill: yes\n",
      `${F}:2: skill.use_skill: expected a boolean (true or false), got "yes" (a string); write true instead`,
    ],
    [
      "quoted stage boolean",
      'stage:\n  - name: a\n    force_use_skill: "false"\n',
      `${F}:3: stage[0].force_use_skill: expected a boolean (true or false), got "false" (a string); write false without quotes`,
    ],
    [
      "quoted number",
      'skill:\n  max_skill_list_count: "15"\n',
      `${F}:2: skill.max_skill_list_count: expected a number, got "15" (a string); write 15 without quotes`,
    ],
    [
      "fraction where a whole number is needed",
      "skill:\n  max_skill_list_count: 1.5\n",
      `${F}:2: skill.max_skill_list_count: expected a whole number, got 1.5 (a number); use a whole number`,
    ],
    [
      "below minimum",
      "skill:\n  max_skill_list_count: -1\n",
      `${F}:2: skill.max_skill_list_count: expected a number >= 0, got -1 (a number); use 0 or more`,
    ],
    [
      "not positive",
      "exec:\n  timeout_seconds: 0\n",
      `${F}:2: exec.timeout_seconds: expected a number > 0, got 0 (a number); use a value above 0`,
    ],
    [
      "unknown nested key close to a known one",
      "skill:\n  use_skils: true\n",
      `${F}:2: skill.use_skils: unknown key "use_skils"; did you mean use_skill?`,
    ],
    [
      "unknown top-level key close to a known one",
      "skil:\n  use_skill: true\n",
      `${F}:1: skil: unknown key "skil"; did you mean skill?`,
    ],
    [
      "unknown key with no close match",
      "foo: 1\n",
      `${F}:1: foo: unknown key "foo"; remove it; known keys here: DUT, OUT, write_dirs, un_write_dirs, file_tools, skill, exec, stage`,
    ],
    [
      "shortened key inside a record",
      "exec:\n  skill_overrides:\n    review/x:\n      timeout: 3\n",
      `${F}:4: exec.skill_overrides["review/x"].timeout: unknown key "timeout"; did you mean timeout_seconds?`,
    ],
    [
      "missing required key",
      "stage:\n  - desc: x\n",
      `${F}:2: stage[0].name: missing, expected a string; add name: <value>`,
    ],
    [
      "empty string",
      'stage:\n  - name: ""\n',
      `${F}:2: stage[0].name: expected a non-empty string, got "" (a string); write a value`,
    ],
    [
      "enum typo",
      "stage:\n  - name: a\n    checker:\n      - kind: file_exist\n",
      `${F}:4: stage[0].checker[0].kind: expected one of file_exists, markdown_headings, markdown_entries, regex_count, json_schema, command, got "file_exist" (a string); did you mean file_exists?`,
    ],
    [
      "literal union",
      "exec:\n  sandbox_level: 5\n",
      `${F}:2: exec.sandbox_level: expected one of 1, 2, 3, got 5 (a number); use one of 1, 2, 3`,
    ],
    [
      "quoted literal",
      'exec:\n  sandbox_level: "2"\n',
      `${F}:2: exec.sandbox_level: expected one of 1, 2, 3, got "2" (a string); write 2 without quotes`,
    ],
    [
      "number where a string is needed",
      "DUT: 12\n",
      `${F}:1: DUT: expected a string, got 12 (a number); quote it: "12"`,
    ],
    [
      "empty value",
      "OUT:\n",
      `${F}:1: OUT: expected a string, got nothing (null); give a value after the colon or delete the line`,
    ],
    [
      "string where a list is needed",
      "skill:\n  general_skill_list: authoring/x\n",
      `${F}:2: skill.general_skill_list: expected a list, got "authoring/x" (a string); write it as a list: general_skill_list: ["authoring/x"]`,
    ],
    [
      "number as extra_skill_path",
      "skill:\n  extra_skill_path: 3\n",
      `${F}:2: skill.extra_skill_path: expected a list, got 3 (a number); write it as a list, e.g. extra_skill_path: [a, b] or one "- item" line per entry`,
    ],
    [
      "mapping where a list is needed",
      "stage: {}\n",
      `${F}:1: stage: expected a list, got a mapping; write it as a list, e.g. stage: [a, b] or one "- item" line per entry`,
    ],
    [
      "list where a mapping is needed",
      "stage:\n  - name: a\n    checker:\n      - kind: file_exists\n        args: [1]\n",
      `${F}:5: stage[0].checker[0].args: expected a mapping, got a list; write it as a mapping of key: value lines`,
    ],
    [
      "scalar where a mapping is needed",
      "skill: 3\n",
      `${F}:1: skill: expected a mapping, got 3 (a number); write it as a mapping of key: value lines`,
    ],
    [
      "top level is a list",
      "- a\n",
      `${F}:1: the top level must be a mapping of key: value lines, got a list; start the file with keys such as skill: or stage:`,
    ],
  ];
  it.each(cases)("%s", async (_name, yaml, expected) => {
    const file = box.write("ws/.ucagent/setting.yaml", yaml);
    const error = await loadError({ workspace: box.workspace, env: box.env, defaultFile: box.defaultFile });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(`invalid config: ${expected.replace(F, file)}`);
  });

  const syntaxCases: [string, string, string][] = [
    [
      "unclosed flow list",
      "skill:\n  use_skill: [true\n",
      `cannot parse config file (--config) ${F}:3: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the YAML syntax there (indentation, quoting, duplicate keys)`,
    ],
    [
      "duplicate key",
      "DUT: a\nDUT: b\n",
      `cannot parse config file (--config) ${F}:2: Map keys must be unique; fix the YAML syntax there (indentation, quoting, duplicate keys)`,
    ],
  ];
  it.each(syntaxCases)("YAML syntax: %s", async (_name, yaml, expected) => {
    const file = box.write("extra.yaml", yaml);
    const error = await loadError({ configFile: file, env: box.env, defaultFile: box.defaultFile });
    expect(error.code).toBe("CONFIG_UNREADABLE");
    expect(error.message).toBe(expected.replace(F, file));
  });

  it("lists every problem when there are several, each with its own file", async () => {
    const user = box.write("home/config.yaml", "skill:\n  use_skill: 1\n");
    const setting = box.write("ws/.ucagent/setting.yaml", "OUT: [a]\n");
    const error = await loadError({ workspace: box.workspace, env: box.env, defaultFile: box.defaultFile });
    expect(error.message).toBe(
      [
        "invalid config (2 problems):",
        `- ${setting}:1: OUT: expected a string, got a list; write a single text value`,
        `- ${user}:2: skill.use_skill: expected a boolean (true or false), got 1 (a number); write true or false`,
      ].join("\n"),
    );
    expect((error.details.problems as unknown[]).length).toBe(2);
  });

  it("blames the layer whose value survived the merge, not an earlier one", async () => {
    box.write("default.yaml", "stage:\n  - name: from-default\n    desc: d\n");
    const user = box.write("home/config.yaml", "stage:\n  - desc: replaced without a name\n");
    box.write("ws/.ucagent/setting.yaml", "skill:\n  use_skill: true\n");
    const error = await loadError({ workspace: box.workspace, env: box.env, defaultFile: box.defaultFile });
    expect(error.message).toBe(
      `invalid config: ${user}:2: stage[0].name: missing, expected a string; add name: <value>`,
    );
  });

  it("blames a bad value in the built-in layer on that file", async () => {
    box.write("default.yaml", "exec:\n  memory_mb: lots\n");
    const error = await loadError({ env: box.env, defaultFile: box.defaultFile });
    expect(error.message).toBe(
      `invalid config: ${box.defaultFile}:2: exec.memory_mb: expected a number, got "lots" (a string); write a number`,
    );
  });

  it("a missing --config file is PATH_NOT_FOUND naming it", async () => {
    const missing = join(box.root, "nope.yaml");
    const error = await loadError({ configFile: missing, env: box.env, defaultFile: box.defaultFile });
    expect(error.code).toBe("PATH_NOT_FOUND");
    expect(error.message).toBe(`config file (--config) ${missing} does not exist; check the path`);
  });

  it("a --config that is a folder is CONFIG_UNREADABLE", async () => {
    const folder = join(box.root, "folder.yaml");
    mkdirSync(folder);
    const error = await loadError({ configFile: folder, env: box.env, defaultFile: box.defaultFile });
    expect(error.code).toBe("CONFIG_UNREADABLE");
    expect(error.message).toBe(
      `cannot read config file (--config) ${folder}: it is a folder, not a file; make it a readable YAML file`,
    );
  });

  it("FLAG_CONFLICT when extra paths come with useSkill false", async () => {
    const error = await loadError({
      env: box.env,
      defaultFile: box.defaultFile,
      flags: { useSkill: false, extraSkillPaths: ["/x"] },
    });
    expect(error.code).toBe("FLAG_CONFLICT");
  });
});

describe("layer precedence", () => {
  it("default → user → setting.yaml → --config → flags; mappings merge deeply, lists replace", async () => {
    box.write(
      "default.yaml",
      "DUT: d0\nOUT: o0\nskill:\n  general_skill_list: [a, b]\n  max_skill_list_count: 5\nexec:\n  memory_mb: 100\n  timeout_seconds: 10\n  skill_overrides:\n    x/y:\n      memory_mb: 64\n",
    );
    const user = box.write(
      "home/config.yaml",
      "DUT: d1\nskill:\n  general_skill_list: [c]\nexec:\n  memory_mb: 200\n  skill_overrides:\n    x/y:\n      timeout_seconds: 5\n",
    );
    const setting = box.write("ws/.ucagent/setting.yaml", "OUT: o2\nexec:\n  timeout_seconds: 20\n");
    const extra = box.write("extra.yaml", "DUT: d3\nskill:\n  use_skill: true\n");
    const { config, sources } = await loadConfig({
      workspace: box.workspace,
      configFile: extra,
      env: box.env,
      defaultFile: box.defaultFile,
      flags: { useSkill: false },
    });
    expect(sources).toEqual([box.defaultFile, user, setting, extra, "command-line flags"]);
    expect(config.DUT).toBe("d3");
    expect(config.OUT).toBe("o2");
    expect(config.skill.general_skill_list).toEqual(["c"]);
    expect(config.skill.max_skill_list_count).toBe(5);
    expect(config.exec.memory_mb).toBe(200);
    expect(config.exec.timeout_seconds).toBe(20);
    expect(config.exec.skill_overrides).toEqual({ "x/y": { memory_mb: 64, timeout_seconds: 5 } });
    expect(config.skill.use_skill).toBe(false);
  });

  it("a later layer's list replaces an earlier list of stages whole", async () => {
    box.write("default.yaml", "stage:\n  - name: one\n  - name: two\n");
    box.write("ws/.ucagent/setting.yaml", "stage:\n  - name: only\n");
    const { config } = await loadConfig({
      workspace: box.workspace,
      env: box.env,
      defaultFile: box.defaultFile,
    });
    expect(config.stage.map((stage) => stage.name)).toEqual(["only"]);
  });

  it("missing optional layers are skipped and schema defaults apply", async () => {
    const { config, sources } = await loadConfig({ env: box.env, defaultFile: box.defaultFile });
    expect(sources).toEqual([]);
    expect(config.skill.use_skill).toBe(true);
    expect(config.skill.max_skill_list_count).toBe(15);
    expect(config.exec.sandbox_level).toBe(2);
  });

  it("an empty file is an empty layer", async () => {
    const setting = box.write("ws/.ucagent/setting.yaml", "# nothing yet\n");
    const { sources } = await loadConfig({
      workspace: box.workspace,
      env: box.env,
      defaultFile: box.defaultFile,
    });
    expect(sources).toEqual([setting]);
  });

  it("flags: extra paths turn skills on and add to the configured paths", async () => {
    box.write("home/config.yaml", "skill:\n  use_skill: false\n  extra_skill_path: /from/config\n");
    const { config } = await loadConfig({
      env: box.env,
      defaultFile: box.defaultFile,
      flags: { extraSkillPaths: ["/from/flag"] },
    });
    expect(config.skill.use_skill).toBe(true);
    expect(config.skill.extra_skill_path).toEqual(["/from/config", "/from/flag"]);
  });

  it("flags override config only when given", async () => {
    box.write("home/config.yaml", "skill:\n  use_skill: false\n");
    const { config } = await loadConfig({ env: box.env, defaultFile: box.defaultFile, flags: {} });
    expect(config.skill.use_skill).toBe(false);
    const on = await loadConfig({ env: box.env, defaultFile: box.defaultFile, flags: { useSkill: true } });
    expect(on.config.skill.use_skill).toBe(true);
  });
});

describe("paths in config files", () => {
  it("extra_skill_path may be one string; relative paths are relative to the file (setting.yaml: the workspace)", async () => {
    box.write("home/config.yaml", "skill:\n  pack_path: ./my-pack\n  extra_skill_path: ../shared-skills\n");
    const userLayer = await loadConfig({ env: box.env, defaultFile: box.defaultFile });
    expect(userLayer.config.skill.pack_path).toBe(join(box.home, "my-pack"));
    expect(userLayer.config.skill.extra_skill_path).toEqual([join(box.root, "shared-skills")]);

    box.write("ws/.ucagent/setting.yaml", "skill:\n  extra_skill_path: [local, /abs/one]\n");
    const wsLayer = await loadConfig({
      workspace: box.workspace,
      env: box.env,
      defaultFile: box.defaultFile,
    });
    expect(wsLayer.config.skill.extra_skill_path).toEqual([join(box.workspace, "local"), "/abs/one"]);
  });
});

describe("the built-in default.yaml", () => {
  it("sits next to the loader module", () => {
    expect(defaultConfigFile()).toMatch(/runtime[\\/]config[\\/]default\.yaml$/);
  });

  it("loads and validates when present", async () => {
    const { config, sources } = await loadConfig({ env: box.env });
    expect(sources[0]).toBe(defaultConfigFile());
    expect(config.stage.length).toBeGreaterThan(0);
  });
});
