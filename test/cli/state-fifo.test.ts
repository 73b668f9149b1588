// The built CLI with a FIFO (mkfifo by an agent with a shell) or a huge file planted at a state or config file: a clear answer, never a hang.
import { execFile, execFileSync } from "node:child_process";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { SMALL_FILE_LIMIT } from "../../runtime/contracts/read-small.js";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { type Fixture, REPO_ROOT } from "../tools/helpers.js";
import { fixturesForFile } from "./helpers.js";

const fixture = fixturesForFile();
beforeAll(() => ensureBuilt(), 600_000);

/** Well under the test's 60 s: a hang shows as `timedOut`, asserted false, not as a vitest timeout. */
const PROCESS_TIMEOUT = 15_000;
const run = promisify(execFile);

interface Answer {
  exit: number | null;
  timedOut: boolean;
  code: string | null;
  message: string;
  warnings: string[];
  text: string;
}

/** `file args` to its end or PROCESS_TIMEOUT; the --json answer of a tool or of a start-up failure, read alike. */
async function answer(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Answer> {
  let exit: number | null = 0;
  let timedOut = false;
  let stdout: string;
  try {
    ({ stdout } = await run(file, args, { cwd: REPO_ROOT, env, timeout: PROCESS_TIMEOUT, encoding: "utf8" }));
  } catch (error) {
    const failed = error as { code: number | null; killed: boolean; stdout: string };
    ({ stdout } = failed);
    exit = failed.code;
    timedOut = failed.killed;
  }
  if (timedOut) return { exit, timedOut, code: null, message: "", warnings: [], text: stdout };
  const parsed = JSON.parse(stdout);
  if (parsed.ok === false)
    return { exit, timedOut, code: parsed.error.code, message: parsed.error.message, warnings: [], text: "" };
  const structured = parsed.structured ?? {};
  return {
    exit,
    timedOut,
    code: parsed.code,
    message: structured.error?.message ?? "",
    warnings: structured.warnings ?? [],
    text: parsed.text,
  };
}

const built = (f: Fixture, args: string[]) => answer(process.execPath, [BUILT_MAIN, ...args], f.env);
const call = (f: Fixture, tool: string) =>
  built(f, ["call", tool, "--workspace", f.ws, "--config", f.configFile, "--json"]);

/** A fixture initialised by the built CLI, with one call made so the home holds its head mark and memo. */
async function initialised(): Promise<Fixture> {
  const f = fixture();
  execFileSync(process.execPath, [BUILT_MAIN, "init", f.ws, "--config", f.configFile], {
    env: f.env,
    stdio: "ignore",
  });
  expect((await call(f, "Status")).code).toBe(null);
  return f;
}

function plantFifo(path: string): void {
  rmSync(path, { force: true });
  execFileSync("mkfifo", [path]);
}

const inWs = (f: Fixture, rel: string) => join(f.ws, ".ucagent", rel);
const inHome = (f: Fixture, folder: string, pick: (name: string) => boolean) =>
  join(f.home, folder, readdirSync(join(f.home, folder)).find(pick)!);
const refused = (path: string) =>
  `${path} is a FIFO (named pipe), not a regular file: skillgate reads its state and config only from regular files (reading anything else could block or never end); fix: replace it with the regular file it should be, or remove it`;
const layerRefused = (role: string, path: string) =>
  `cannot read ${role} ${path}: it is a FIFO (named pipe), not a regular file; make it a readable YAML file`;

const refusals: Array<[string, (f: Fixture) => string, string, (f: Fixture, path: string) => string]> = [
  ["manifest.json", (f) => inWs(f, "skillgate/manifest.json"), "NOT_REGULAR_FILE", (_, p) => refused(p)],
  [
    "runtime_config.json",
    (f) => inWs(f, "runtime_config.json"),
    "CONFIG_UNREADABLE",
    (f, p) =>
      `cannot read ${p}: it is a FIFO (named pipe), not a regular file; re-run: skillgate init ${f.ws}, which writes it anew`,
  ],
  [
    "setting.yaml (workspace config)",
    (f) => inWs(f, "setting.yaml"),
    "CONFIG_UNREADABLE",
    (_, p) => layerRefused("workspace config", p),
  ],
  [
    "config.yaml of the home (user config)",
    (f) => join(f.home, "config.yaml"),
    "CONFIG_UNREADABLE",
    (_, p) => layerRefused("user config", p),
  ],
  ["ledger.key", (f) => join(f.home, "ledger.key"), "NOT_REGULAR_FILE", (_, p) => refused(p)],
  [
    "workspaces/<id>.head.json",
    (f) => inHome(f, "workspaces", (name) => name.endsWith(".head.json")),
    "NOT_REGULAR_FILE",
    (_, p) => refused(p),
  ],
  [
    "workspaces/<id>.json (identity)",
    (f) => inHome(f, "workspaces", (name) => !name.endsWith(".head.json")),
    "NOT_REGULAR_FILE",
    (_, p) => refused(p),
  ],
];

describe("built CLI: a FIFO at a state or config file", () => {
  it.each(refusals)("%s: call Status is refused with the file named", async (_, pathOf, code, message) => {
    const f = await initialised();
    const path = pathOf(f);
    plantFifo(path);
    const status = await call(f, "Status");
    expect(status.timedOut).toBe(false);
    expect({ exit: status.exit, code: status.code, message: status.message }).toEqual({
      exit: 1,
      code,
      message: message(f, path),
    });
  });

  it("manifest.json: call ListSkill is refused too, and init writes a file over the FIFO", async () => {
    const f = await initialised();
    const path = inWs(f, "skillgate/manifest.json");
    plantFifo(path);
    const listed = await call(f, "ListSkill");
    expect(listed.timedOut).toBe(false);
    expect({ exit: listed.exit, code: listed.code, message: listed.message }).toEqual({
      exit: 1,
      code: "NOT_REGULAR_FILE",
      message: refused(path),
    });
    execFileSync(process.execPath, [BUILT_MAIN, "init", f.ws, "--config", f.configFile], {
      env: f.env,
      stdio: "ignore",
    });
    expect(statSync(path).isFile()).toBe(true);
    expect((await call(f, "ListSkill")).code).toBe(null);
  });

  it("progress.json: state is rebuilt from the signed ledger with a warning, and the checkpoint is rewritten as a file", async () => {
    const f = await initialised();
    const path = inWs(f, "skillgate/progress.json");
    plantFifo(path);
    const status = await call(f, "Status");
    expect(status.timedOut).toBe(false);
    expect({ exit: status.exit, code: status.code }).toEqual({ exit: 0, code: null });
    expect(status.text).toMatch(/^Progress: 0\/2 stages completed; current stage 0: 'report'\./);
    expect(status.warnings).toEqual([
      `the progress checkpoint ${path} was not read: it is a FIFO (named pipe), not a regular file; state was rebuilt from the signed ledger`,
    ]);
    expect(statSync(path).isFile()).toBe(true);
    expect((await call(f, "Status")).warnings).toEqual([]);
  });

  it("the config memo's entry: a miss, answered from the layers and written anew as a file", async () => {
    const f = await initialised();
    const slots = readdirSync(join(f.home, "cache", "config")).map((name) =>
      join(f.home, "cache", "config", name),
    );
    expect(slots.length).toBeGreaterThan(0);
    for (const slot of slots) plantFifo(slot);
    const status = await call(f, "Status");
    expect(status.timedOut).toBe(false);
    expect({ exit: status.exit, code: status.code }).toEqual({ exit: 0, code: null });
    expect(slots.filter((slot) => statSync(slot).isFile()).length).toBeGreaterThan(0);
  });

  it("--config FILE stays the user's own argument: --config <(cat FILE), a pipe, is read", async () => {
    const f = await initialised();
    const script = '"$0" "$1" call Status --workspace "$2" --config <(cat "$3") --json';
    const status = await answer(
      "bash",
      ["-c", script, process.execPath, BUILT_MAIN, f.ws, f.configFile],
      f.env,
    );
    expect(status.timedOut).toBe(false);
    expect({ exit: status.exit, code: status.code }).toEqual({ exit: 0, code: null });
    // The fixture's workflow (stage `report`), not the built-in one: the piped file was read.
    expect(status.text).toMatch(/^Progress: 0\/2 stages completed; current stage 0: 'report'\./);
  });
});

describe("built CLI: a state or config file over the size limit", () => {
  /** A sparse file one byte over SMALL_FILE_LIMIT at `path`: no disk used, refused from its size before any read. */
  function plantHuge(path: string): number {
    rmSync(path, { force: true });
    const size = SMALL_FILE_LIMIT + 1;
    execFileSync("truncate", ["-s", String(size), path]);
    return size;
  }

  it("setting.yaml is CONFIG_UNREADABLE and ledger.key FILE_TOO_LARGE, each naming the file and its size", async () => {
    const f = await initialised();
    const setting = inWs(f, "setting.yaml");
    const size = plantHuge(setting);
    const status = await call(f, "Status");
    expect({ exit: status.exit, code: status.code, message: status.message }).toEqual({
      exit: 1,
      code: "CONFIG_UNREADABLE",
      message: `cannot read workspace config ${setting}: it is ${size} bytes, over the 67108864-byte limit of a state or config file; make it a readable YAML file`,
    });
    rmSync(setting);
    const key = join(f.home, "ledger.key");
    plantHuge(key);
    const refusedKey = await call(f, "Status");
    expect({ exit: refusedKey.exit, code: refusedKey.code, message: refusedKey.message }).toEqual({
      exit: 1,
      code: "FILE_TOO_LARGE",
      message: `${key} is ${size} bytes, over the 67108864 bytes skillgate reads from a state or config file (none is near that size when skillgate wrote it); fix: replace it with the file it should be, or remove it`,
    });
  });
});
