// The native tree prefetch where agents and skill authors reach it: `catalog` and an MCP server's ListSkill answer the same with it as without, on a hostile tree.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { connectStdio } from "../mcp/helpers.js";
import { writeHostileTree } from "../support/hostile-tree.js";
import { type Bed, makeBed } from "./tool-bed.js";

let bed: Bed;
let tree: string;

beforeAll(async () => {
  ensureBuilt();
  // ListSkill shows stage and general skills: the hostile ones are made general, every one of them listed.
  const general = [
    "bom",
    "crlf",
    "emoji-\u{1f600}",
    "under64k",
    "exact64k",
    "big",
    "nobody",
    "fifo",
    "link-in",
  ]
    .concat([
      "link-out",
      "hooked",
      "outer",
      "outer/inner",
      "badscript",
      "many/s-000",
      "many/s-299",
      "locked/secret",
    ])
    .map((id) => `ext/hostile/${id}`);
  bed = await makeBed({
    skills: [{ name: "plain", scripts: { "ok.sh": "echo ok\n" } }],
    skill: { general_skill_list: general, max_skill_list_count: 0 },
  });
  // Planted in the workspace's skill folder after init, as an agent with a shell could (init copies ext/ skills).
  const ext = join(bed.session.paths.skillsDir, "ext");
  chmodSync(ext, 0o755);
  tree = join(ext, "hostile");
  mkdirSync(tree);
  writeHostileTree(tree);
}, 120_000);
afterAll(() => bed?.cleanup());

/** `env` over the bed's environment; SKILLGATE_NATIVE=0 turns the native prefetch off. */
const envWith = (native: boolean, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...bed.env, ...extra };
  if (native) delete env.SKILLGATE_NATIVE;
  else env.SKILLGATE_NATIVE = "0";
  return env;
};

function catalog(args: string[], native: boolean) {
  // LD_DEBUG=files makes the dynamic loader name every object it loads on stderr, the module included.
  const result = spawnSync(process.execPath, [BUILT_MAIN, "catalog", tree, ...args], {
    env: envWith(native, { LD_DEBUG: "files" }),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    loaded: result.stderr.includes("tree-prefetch.node"),
  };
}

describe("native tree prefetch at the tool surface", () => {
  it.each([[["--json"]], [[]]])("catalog %j prints the same bytes with the module as without", (args) => {
    const native = catalog(args, true);
    const plain = catalog(args, false);
    expect([native.loaded, plain.loaded]).toEqual([true, false]);
    expect(native.status).toBe(0);
    expect(native.stdout).toBe(plain.stdout);
    expect(native.stdout).toContain("under64k");
    expect(native.stdout).toContain("depth limit");
  });

  it("an MCP server lists the same skills with the module as without", async () => {
    const listed: unknown[] = [];
    for (const native of [true, false]) {
      const server = await connectStdio(
        ["--workspace", bed.ws, "--config", bed.configFile, "--extra-skill-path", bed.extra],
        envWith(native),
        [process.execPath, BUILT_MAIN],
      );
      try {
        const result = await server.client.callTool({ name: "ListSkill", arguments: {} });
        expect(result.isError ?? false).toBe(false);
        listed.push(result.structuredContent);
        const maps = readFileSync(`/proc/${server.pid()}/maps`, "utf8");
        expect(maps.includes("tree-prefetch.node"), `module mapped in the server (native: ${native})`).toBe(
          native,
        );
      } finally {
        await server.close();
      }
    }
    expect(listed[0]).toEqual(listed[1]);
    const ids = (listed[0] as { skills: Array<{ id: string }> }).skills.map((skill) => skill.id);
    expect(ids).toContain("ext/hostile/many/s-299");
    expect(ids).toContain("ext/hostile/under64k");
  });
});
