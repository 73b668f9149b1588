// skill-creator helpers run as real processes: create → validate → package, and the strict validator's messages.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, freshDir, run, SKILLS } from "./support.js";

const SCRIPTS = join(SKILLS, "authoring", "skill-creator", "scripts");
const node = process.execPath;

afterAll(cleanupTempDirs);

/** The helpers copied outside the repo, where the `yaml` package cannot be imported (the subset parser runs). */
function standaloneScripts(): string {
  const dir = join(freshDir("sc-standalone"), "scripts");
  cpSync(SCRIPTS, dir, { recursive: true });
  return dir;
}

describe("create → validate → package", () => {
  it("creates a valid skeleton, validates it and packages it into a zip", () => {
    const work = freshDir("sc-work");
    const created = run(
      node,
      [
        join(SCRIPTS, "create_skill.mjs"),
        "csv-profile",
        "--description",
        "Profile CSV files. Use when exploring tabular data.",
        "--path",
        "skills-out",
      ],
      { cwd: work },
    );
    const dir = join(work, "skills-out", "csv-profile");
    expect(created).toEqual({
      status: 0,
      stdout: `created ${dir}\n  SKILL.md\n  scripts/\n  references/\nnext: write the method in SKILL.md, then validate_skill.mjs ${dir}\n`,
      stderr: "",
    });
    expect(readFileSync(join(dir, "SKILL.md"), "utf8")).toMatch(
      /^---\nname: csv-profile\ndescription: "Profile CSV files\. Use when exploring tabular data\."\nlicense: MIT\nmetadata:\n {2}version: "0\.1\.0"\n---\n/,
    );
    expect(run(node, [join(SCRIPTS, "validate_skill.mjs"), "skills-out/csv-profile"], { cwd: work })).toEqual(
      {
        status: 0,
        stdout: "ok: skills-out/csv-profile\n",
        stderr: "",
      },
    );
    writeFileSync(join(dir, "scripts", "profile.py"), "print('profile')\n");
    const packaged = run(node, [join(SCRIPTS, "package_skill.mjs"), "skills-out/csv-profile"], { cwd: work });
    const zip = join(work, "skills-out", "csv-profile.zip");
    expect(packaged).toEqual({
      status: 0,
      stdout: `packaged 2 files of csv-profile into ${zip}\n  csv-profile/SKILL.md\n  csv-profile/scripts/profile.py\n`,
      stderr: "",
    });
    // Read the archive back with an independent implementation (Python's zipfile), checking CRCs.
    const listing = run("python3", [
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(z.namelist()); print(z.read('csv-profile/scripts/profile.py').decode(), end='')",
      zip,
    ]);
    expect(listing).toEqual({
      status: 0,
      stdout: "None\n['csv-profile/SKILL.md', 'csv-profile/scripts/profile.py']\nprint('profile')\n",
      stderr: "",
    });
  });

  it("refuses a bad name, a missing description and an existing folder", () => {
    const work = freshDir("sc-work");
    const usage =
      'usage: create_skill.mjs NAME --description "what it does and when to use it" [--path PARENT_DIR]\n';
    const create = (...args: string[]) =>
      run(node, [join(SCRIPTS, "create_skill.mjs"), ...args], { cwd: work });
    expect(create("Bad--Name", "--description", "x")).toEqual({
      status: 2,
      stdout: "",
      stderr: `create_skill: name "Bad--Name" must be lowercase; name "Bad--Name" must not contain "--"\n${usage}`,
    });
    expect(create("good-name")).toEqual({
      status: 2,
      stdout: "",
      stderr: `create_skill: --description is required: say what the skill does and when to use it\n${usage}`,
    });
    mkdirSync(join(work, "taken"));
    expect(create("taken", "--description", "x")).toEqual({
      status: 2,
      stdout: "",
      stderr: `create_skill: ${join(work, "taken")} already exists: pick another name or folder\n${usage}`,
    });
  });

  it("package refuses an invalid skill and writes nothing", () => {
    const work = freshDir("sc-work");
    mkdirSync(join(work, "bad-skill"));
    writeFileSync(join(work, "bad-skill", "SKILL.md"), "---\nname: other\ndescription: x\n---\n");
    const result = run(node, [join(SCRIPTS, "package_skill.mjs"), "bad-skill"], { cwd: work });
    expect(result).toEqual({
      status: 1,
      stdout: `${join(work, "bad-skill", "SKILL.md")}: name "other" must equal the folder name "bad-skill"\n`,
      stderr: "package_skill: the skill is not valid; fix the problems above, nothing was written\n",
    });
    expect(run("ls", [work]).stdout).toBe("bad-skill\n");
  });
});

describe("validate_skill.mjs strict rules (printed as path: message)", () => {
  const long = "d".repeat(1025);
  const cases: Array<[string, string, string, string[]]> = [
    [
      "valid",
      "good-skill",
      '---\nname: good-skill\ndescription: Does things.\nmetadata:\n  skillgate-network: "true"\n---\nbody\n',
      [],
    ],
    [
      "valid folded multi-line description",
      "good-skill",
      "---\nname: good-skill\ndescription: Does things\n  over two lines.\nlicense: MIT\n---\n",
      [],
    ],
    ["no frontmatter", "s", "# title\n", ['frontmatter missing: the first line must be "---"']],
    ["unclosed frontmatter", "s", "---\nname: s\n", ['frontmatter not closed: add a line "---" after it']],
    [
      "closing line without newline",
      "s",
      "---\nname: s\ndescription: x\n---",
      ['the closing "---" line must end with a newline'],
    ],
    [
      "a BOM",
      "s",
      "\uFEFF---\nname: s\ndescription: x\n---\n",
      ["file starts with a BOM: save it as UTF-8 without BOM"],
    ],
    [
      "every failing field reported",
      "my-skill",
      `---\nname: My_Skill\ndescription: ${long}\ncompatibility: ${"c".repeat(501)}\nversion: 1\n---\n`,
      [
        "unexpected field version: only name, description, license, compatibility, metadata, allowed-tools are allowed (put custom keys under metadata)",
        'name "My_Skill" must be lowercase',
        'name "My_Skill" may contain only letters, digits and hyphens',
        'name "My_Skill" must equal the folder name "my-skill"',
        "description is 1025 characters, the limit is 1024",
        "compatibility is 501 characters, the limit is 500",
      ],
    ],
    ["missing fields", "s", "---\nlicense: MIT\n---\n", ["name is missing", "description is missing"]],
    [
      "hyphen rules",
      "-a--b-",
      "---\nname: -a--b-\ndescription: x\n---\n",
      ['name "-a--b-" must not start or end with a hyphen', 'name "-a--b-" must not contain "--"'],
    ],
    [
      "metadata values must be strings",
      "s",
      "---\nname: s\ndescription: x\nmetadata:\n  network: true\n---\n",
      ['metadata.network must be a string (quote it: "true")'],
    ],
    [
      "name over 64 code points",
      "a".repeat(65),
      `---\nname: ${"a".repeat(65)}\ndescription: x\n---\n`,
      ["name is 65 characters, the limit is 64"],
    ],
    [
      "description of 1024 astral code points is fine",
      "s",
      `---\nname: s\ndescription: ${"😀".repeat(1024)}\n---\n`,
      [],
    ],
  ];

  for (const [label, scripts] of [
    ["with the yaml package", SCRIPTS],
    ["standalone (subset parser)", standaloneScripts()],
  ] as const) {
    it.each(cases)(`${label}: %s`, (_name, folder, content, messages) => {
      const root = freshDir("sc-val");
      mkdirSync(join(root, folder));
      writeFileSync(join(root, folder, "SKILL.md"), content);
      const result = run(node, [join(scripts, "validate_skill.mjs"), join(root, folder)]);
      const file = join(root, folder, "SKILL.md");
      expect(result).toEqual({
        status: messages.length === 0 ? 0 : 1,
        stdout:
          messages.length === 0
            ? `ok: ${join(root, folder)}\n`
            : messages.map((m) => `${file}: ${m}\n`).join(""),
        stderr: "",
      });
    });
  }

  it("accepts every SKILL.md of the bundled pack, standalone too", () => {
    const dirs = [
      "authoring/skill-creator",
      "review/static-bug-analysis",
      "runners/js-runner",
      "runners/python-runner",
    ];
    for (const scripts of [SCRIPTS, standaloneScripts()]) {
      const result = run(node, [join(scripts, "validate_skill.mjs"), ...dirs], { cwd: SKILLS });
      expect(result).toEqual({ status: 0, stdout: dirs.map((d) => `ok: ${d}\n`).join(""), stderr: "" });
    }
  });
});
