// `skillgate serve` as a real process (stdio, the real MCP SDK client): start-up warnings, connect help, flag refusals.
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxStartWarning } from "../../../runtime/cli/commands/serve.js";
import { ConfigSchema } from "../../../runtime/config/index.js";
import { connectStdio, MAIN } from "../../mcp/helpers.js";
import { fixturesForFile, flags, skillgate } from "../helpers.js";

const fixture = fixturesForFile();

describe("skillgate serve at start", () => {
  it("serve prints connect commands with every flag it was started with, paths absolute", async () => {
    const f = fixture();
    const conn = await connectStdio(["--workspace", f.ws, "--config", f.configFile, "--no-use-skill"], f.env);
    try {
      await conn.client.listTools();
      expect(conn.stderr()).toContain(
        `  Claude Code:    claude mcp add skillgate -- npx tsx ${MAIN} serve --workspace ${f.ws} --config ${f.configFile} --no-use-skill\n`,
      );
    } finally {
      await conn.close();
    }
  });

  it("serve --dut records the target and warns at start when it does not exist", async () => {
    const f = fixture();
    const missing = join(f.dir, "absent-target");
    const conn = await connectStdio([...flags(f), "--dut", missing], f.env);
    try {
      const status = await conn.client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [["fixture/gate-skill", "show_env.py", ""]] },
      });
      expect((status.structuredContent as { commands: { output: string }[] }).commands[0]?.output).toContain(
        `"DUT": "${missing}"`,
      );
      expect(conn.stderr()).toContain(`skillgate: warning: DUT ${missing} does not exist:`);
      expect(conn.stderr()).toContain(`--dut ${missing}`);
    } finally {
      await conn.close();
    }
  });

  it("serve without bubblewrap says so at start, and every tool but script runs works", async () => {
    const f = fixture();
    const env = { ...f.env, SKILLGATE_BWRAP: join(f.dir, "no-bwrap") };
    const conn = await connectStdio(flags(f), env);
    try {
      expect(conn.stderr()).toContain(
        `skillgate: warning: SKILLGATE_BWRAP=${join(f.dir, "no-bwrap")} does not exist: RunSkillScript will refuse to run scripts until it names the bubblewrap binary`,
      );
      const listed = await conn.client.callTool({ name: "ListSkill", arguments: {} });
      expect(listed.isError).toBeFalsy();
      const ran = await conn.client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [["fixture/gate-skill", "show_env.py", ""]] },
      });
      expect(ran.isError).toBe(true);
      // The stable code is in the structured result; the text says what is missing and the fix.
      expect((ran.structuredContent as { code?: string }).code).toBe("SANDBOX_UNAVAILABLE");
      expect((ran.content as { text: string }[])[0]?.text).toContain(
        `Command 1 failed (sandbox_unavailable): cannot run script 'show_env.py' at sandbox level 2: bubblewrap not found at ${join(f.dir, "no-bwrap")}; fix: `,
      );
    } finally {
      await conn.close();
    }
  });
});

describe("sandboxStartWarning", () => {
  const NOT_INSTALLED =
    "bubblewrap (bwrap) is not installed: RunSkillScript will refuse to run scripts until it is. Install it with: sudo apt-get install bubblewrap (Debian/Ubuntu), or set SKILLGATE_BWRAP to its path. Every other tool works.";
  const exec = (over: Record<string, unknown> = {}) => ({ exec: ConfigSchema.parse({ exec: over }).exec });
  const nowhere = () => null;
  const found = () => "/usr/bin/bwrap";

  it.each([
    {
      what: "linux, level 2, bwrap missing",
      config: exec(),
      env: {},
      find: nowhere,
      platform: "linux",
      want: NOT_INSTALLED,
    },
    {
      what: "linux, level 3, bwrap missing",
      config: exec({ sandbox_level: 3 }),
      env: {},
      find: nowhere,
      platform: "linux",
      want: NOT_INSTALLED,
    },
    { what: "bwrap on PATH", config: exec(), env: {}, find: found, platform: "linux", want: null },
    {
      what: "level 1 needs no sandbox",
      config: exec({ sandbox_level: 1 }),
      env: {},
      find: nowhere,
      platform: "linux",
      want: null,
    },
    {
      what: "allow_unsandboxed opted in",
      config: exec({ allow_unsandboxed: true }),
      env: {},
      find: nowhere,
      platform: "linux",
      want: null,
    },
    {
      what: "not linux (no bubblewrap there)",
      config: exec(),
      env: {},
      find: nowhere,
      platform: "darwin",
      want: null,
    },
  ] as const)("$what", ({ config, env, find, platform, want }) => {
    expect(sandboxStartWarning(config, env, find, platform)).toBe(want);
  });

  it("SKILLGATE_BWRAP wins over PATH: a missing file is named, an existing one is trusted", () => {
    const f = fixture();
    const missing = join(f.dir, "no-bwrap");
    expect(sandboxStartWarning(exec(), { SKILLGATE_BWRAP: missing }, found, "linux")).toBe(
      `SKILLGATE_BWRAP=${missing} does not exist: RunSkillScript will refuse to run scripts until it names the bubblewrap binary (or unset it and install bubblewrap: sudo apt-get install bubblewrap). Every other tool works.`,
    );
    const present = join(f.dir, "bwrap");
    writeFileSync(present, "#!/bin/sh\n");
    chmodSync(present, 0o755);
    expect(sandboxStartWarning(exec(), { SKILLGATE_BWRAP: present }, nowhere, "linux")).toBeNull();
  });
});

describe("skillgate serve refuses flags that do not fit, before touching the workspace", () => {
  it.each([
    {
      args: ["--same-user-ok"],
      stderr:
        "error [USAGE]: --same-user-ok needs --authority or --socket; add one of them or drop --same-user-ok\n",
    },
    {
      args: ["--socket-mode", "600"],
      stderr:
        "error [USAGE]: --socket-mode needs --authority or --socket; add one of them or drop --socket-mode\n",
    },
    {
      args: ["--socket-group", "staff"],
      stderr:
        "error [USAGE]: --socket-group needs --authority or --socket; add one of them or drop --socket-group\n",
    },
    {
      args: ["--json"],
      stderr:
        "error [USAGE]: --json needs --http: over stdio, stdout carries the MCP protocol only. Use --http HOST:PORT --json, or drop --json.\n",
    },
    {
      args: ["--http", "nowhere"],
      stderr:
        "error [USAGE]: --http 'nowhere' is not a listen address. Use HOST:PORT (e.g. 127.0.0.1:8765), or :0 for a free port on 127.0.0.1.\n",
    },
    {
      args: ["--allow-origin", "http://example.test"],
      stderr: "error [USAGE]: --auth-token, --auth-token-file and --allow-origin apply to --http only.\n",
    },
    {
      args: ["--http", "127.0.0.1:0", "--auth-token", "short"],
      stderr:
        "error [USAGE]: The auth token is 5 characters; use at least 16 (e.g. `openssl rand -hex 32`).\n",
    },
  ])("serve $args exits 2", async ({ args, stderr }) => {
    const f = fixture();
    const outcome = await skillgate(["serve", ...flags(f), ...args], f.env);
    expect(outcome).toEqual({ code: 2, stdout: "", stderr });
    expect(existsSync(f.ws)).toBe(false);
  });
});
