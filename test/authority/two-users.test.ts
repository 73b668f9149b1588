// Authority mode with real OS users: the authority runs as sg-auth-a, the agent as sg-auth-b with a shell (needs root, as CI).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { evidenceLocations } from "../../runtime/evidence/locations.js";
import { connectBridge, type ServerProcess, skillgate, startServer } from "./helpers.js";
import { setupTwoUsers, type TwoUsers } from "./two-users.js";
import { type Caller, type CallOutcome, driveDefaultWorkflow } from "./workflow.js";

let users: TwoUsers;
let ws: string;
let authority: ServerProcess;
const state = () => join(ws, ".ucagent", "skillgate");
/** The authority's secret side, located by the evidence module (not hard-coded here). */
const secret = () => evidenceLocations(workspacePaths(ws), join(users.homeA, ".skillgate"));
const keyFile = () => secret().masterKeyFile;

beforeAll(async () => {
  users = setupTwoUsers();
  ws = await users.workspace("ws");
  authority = await startServer(
    users.runner(users.authority),
    ["--authority", "--workspace", ws],
    users.envA,
  );
}, 120_000);

afterAll(async () => {
  await authority?.stop();
  users?.cleanup();
});

/** An extra skill whose script reports what it can open of the paths it is given. */
function hostileSkill(): string {
  const dir = join(users.base, "hostile", "peek");
  mkdirSync(join(dir, "scripts"), { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    "---\nname: peek\ndescription: Reports which of the given paths it can read (authority-mode test).\n---\n\n# Peek\n",
  );
  writeFileSync(
    join(dir, "scripts", "peek.py"),
    [
      "import os, sys",
      "for path in sys.argv[1:]:",
      "    try:",
      "        if os.path.isdir(path):",
      "            print(path, 'LISTED', sorted(os.listdir(path)))",
      "        else:",
      "            with open(path) as handle:",
      "                print(path, 'READ', handle.read())",
      "    except Exception as error:",
      "        print(path, type(error).__name__)",
      "",
    ].join("\n"),
  );
  execFileSync("chmod", ["-R", "a+rX", join(users.base, "hostile")]);
  return dir;
}

/** Writes a workspace file as the agent's user, as its own shell would. */
function agentWrite(workspace: string) {
  return async (rel: string, text: string): Promise<void> => {
    const script =
      "const fs=require('fs'),p=require('path');const f=p.join(process.argv[1],process.argv[2]);" +
      "fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,fs.readFileSync(0));";
    const wrote = await users.as(users.agent, ["node", "-e", script, workspace, rel], users.envB, text);
    expect(wrote.code, wrote.stderr).toBe(0);
  };
}

/** Each attempt as the agent's user, with the errno it got ("ok" when it succeeded). */
const ATTEMPTS = `
const fs = require("fs"), p = require("path");
const [key, identity, dir] = process.argv.slice(1);
const tries = {
  "read the key": () => fs.readFileSync(key),
  "read the workspace identity": () => fs.readFileSync(identity),
  "append to the ledger": () => fs.appendFileSync(p.join(dir, "ledger.jsonl"), "{}\\n"),
  "rewrite progress": () => fs.writeFileSync(p.join(dir, "progress.json"), "{}"),
  "rewrite the manifest": () => fs.writeFileSync(p.join(dir, "manifest.json"), "{}"),
  "replace the public key": () => fs.writeFileSync(p.join(dir, "ledger.pub"), "{}"),
  "rewrite the server record": () => fs.writeFileSync(p.join(dir, "server.json"), "{}"),
  "create a file in the state folder": () => fs.writeFileSync(p.join(dir, "planted.json"), "{}"),
  "rename progress": () => fs.renameSync(p.join(dir, "progress.json"), p.join(dir, "progress.old")),
  "delete the ledger": () => fs.unlinkSync(p.join(dir, "ledger.jsonl")),
  "make a folder in the state folder": () => fs.mkdirSync(p.join(dir, "x")),
  "replace the socket": () => fs.unlinkSync(p.join(dir, "server.sock")),
  "chmod the state folder": () => fs.chmodSync(dir, 0o777),
  "read progress (status)": () => JSON.parse(fs.readFileSync(p.join(dir, "progress.json"), "utf8")) && undefined,
};
const out = {};
for (const [name, fn] of Object.entries(tries)) {
  try { fn(); out[name] = "ok"; } catch (e) { out[name] = e.code; }
}
console.log(JSON.stringify(out));
`;

describe.sequential("authority mode: the authority as sg-auth-a, the agent as sg-auth-b", () => {
  it("the authority owns the state folder, the key and the socket; the agent's group may connect", () => {
    const dir = statSync(state());
    expect({ uid: dir.uid, gid: dir.gid, mode: dir.mode & 0o7777 }).toEqual({
      uid: users.authority.uid,
      gid: users.authority.gid,
      mode: 0o755,
    });
    const socket = statSync(authority.socket);
    expect(authority.socket).toBe(join(state(), "server.sock"));
    expect({ uid: socket.uid, gid: socket.gid, mode: socket.mode & 0o777 }).toEqual({
      uid: users.authority.uid,
      gid: users.agent.gid,
      mode: 0o660,
    });
    const key = statSync(keyFile());
    expect({ uid: key.uid, mode: key.mode & 0o777 }).toEqual({ uid: users.authority.uid, mode: 0o600 });
    const record = JSON.parse(readFileSync(join(state(), "server.json"), "utf8"));
    expect(record).toMatchObject({
      mode: "authority",
      socket: authority.socket,
      workspace: ws,
      uid: users.authority.uid,
      user: users.authority.name,
    });
  });

  it("the agent's shell: reading the key, writing the ledger or progress, editing the state folder all fail", async () => {
    const before = ["ledger.jsonl", "progress.json", "manifest.json"].map((f) =>
      readFileSync(join(state(), f)),
    );
    const tried = await users.as(
      users.agent,
      ["node", "-e", ATTEMPTS, keyFile(), secret().identityFile, state()],
      users.envB,
    );
    expect(tried.code, tried.stderr).toBe(0);
    expect(JSON.parse(tried.stdout)).toEqual({
      "read the key": "EACCES",
      "read the workspace identity": "EACCES",
      "append to the ledger": "EACCES",
      "rewrite progress": "EACCES",
      "rewrite the manifest": "EACCES",
      "replace the public key": "EACCES",
      "rewrite the server record": "EACCES",
      "create a file in the state folder": "EACCES",
      "rename progress": "EACCES",
      "delete the ledger": "EACCES",
      "make a folder in the state folder": "EACCES",
      "replace the socket": "EACCES",
      "chmod the state folder": "EPERM",
      "read progress (status)": "ok",
    });
    const shell = await users.as(
      users.agent,
      ["bash", "-c", `cat "$1"; echo forged >> "$2/ledger.jsonl"`, "bash", keyFile(), state()],
      users.envB,
    );
    expect(shell.code).toBe(1);
    expect(shell.stdout).toBe("");
    expect(shell.stderr).toBe(
      `cat: ${keyFile()}: Permission denied\nbash: line 1: ${state()}/ledger.jsonl: Permission denied\n`,
    );
    const after = ["ledger.jsonl", "progress.json", "manifest.json"].map((f) =>
      readFileSync(join(state(), f)),
    );
    expect(after).toEqual(before);
  });

  it("the agent's own `serve --authority`, `init` and a local session cannot take the workspace over", async () => {
    const agent = users.runner(users.agent);
    const foreign = `state folder ${state()} belongs to uid ${users.authority.uid}, not to this user (uid ${users.agent.uid}): the workspace is kept by a skillgate authority, and its evidence can only be written by it; fix: call the tools through it (skillgate call … --workspace ${ws}, or skillgate connect), after the operator starts it (docs/authority.md)`;
    const init = await skillgate(agent, ["init", ws], users.envB);
    expect(init.code).toBe(1);
    expect(init.stderr).toBe(`error [AUTHORITY_STATE_FOREIGN]: ${foreign}\n`);
    // status still works for the agent: it asks the authority.
    const status = await skillgate(agent, ["status", "--workspace", ws], users.envB);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.split("\n").slice(0, 2)).toEqual([
      `Workspace ${ws}, served by its authority (user ${users.authority.name}) on ${authority.socket}`,
      "Progress: 0/3 stages completed; current stage 0: 'static_bug_analysis'.",
    ]);
    const served = await skillgate(agent, ["serve", "--authority", "--workspace", ws], users.envB);
    expect(served.code).toBe(1);
    expect(served.stderr).toContain(
      `error [AUTHORITY_REFUSED]: serve --authority runs as ${users.agent.name} (uid ${users.agent.uid}), the owner of the workspace ${ws}: an agent running as that user could read the signing key and rewrite the state, so nothing would be enforced; fix: run it as a dedicated user (docs/authority.md shows how to create the authority user), or pass --same-user-ok for tests only\n`,
    );
    const plain = await skillgate(
      agent,
      ["serve", "--socket", join(users.homeB, "mine.sock"), "--workspace", ws],
      users.envB,
    );
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`error [AUTHORITY_STATE_FOREIGN]: ${foreign}\n`);
  });

  it("the default workflow completes through `skillgate connect` (real MCP SDK client) run as the agent", async () => {
    const bridge = await connectBridge(users.runner(users.agent), ["--workspace", ws], users.envB);
    const call: Caller = async (tool, args = {}) => {
      const result = await bridge.client.callTool({ name: tool, arguments: args });
      const structured = { ...((result.structuredContent ?? {}) as Record<string, unknown>) };
      const text = ((result.content ?? []) as { text?: string }[]).map((p) => p.text ?? "").join("");
      return {
        isError: result.isError === true,
        code: (structured.code as string) ?? null,
        text,
        structured,
      };
    };
    try {
      await driveDefaultWorkflow(call, agentWrite(ws), ws);
    } finally {
      await bridge.close();
    }
    // What the authority's runs wrote belongs to the agent's group and stays editable by the agent.
    const analysis = statSync(join(ws, "out", "static_bug_analysis.md"));
    expect({ uid: analysis.uid, gid: analysis.gid, groupWrite: (analysis.mode & 0o020) !== 0 }).toEqual({
      uid: users.authority.uid,
      gid: users.agent.gid,
      groupWrite: true,
    });
    const edited = await users.as(
      users.agent,
      [
        "bash",
        "-c",
        `echo "reviewed" >> "$1" && rm "$2"`,
        "bash",
        join(ws, "out", "static_bug_analysis.md"),
        join(ws, "out", "summary.md"),
      ],
      users.envB,
    );
    expect(edited.code, edited.stderr).toBe(0);
  }, 180_000);

  it("the default workflow completes through `skillgate call` run as the agent, which never opens the key", async () => {
    const ws2 = await users.workspace("ws2");
    const peek = hostileSkill();
    // The agent writes a workspace config that would turn the sandbox off for the authority's runs.
    const planted = await users.as(
      users.agent,
      [
        "bash",
        "-c",
        'mkdir "$1/.ucagent" && chmod g+w "$1/.ucagent" && printf "exec:\\n  sandbox_level: 1\\n" > "$1/.ucagent/setting.yaml"',
        "bash",
        ws2,
      ],
      users.envB,
    );
    expect(planted.code, planted.stderr).toBe(0);
    const second = await startServer(
      users.runner(users.authority),
      ["--authority", "--workspace", ws2, "--extra-skill-path", peek],
      users.envA,
    );
    try {
      const agent = users.runner(users.agent);
      const agentHome = join(users.homeB, "call-home");
      const env = { ...users.envB, SKILLGATE_HOME: agentHome };
      const call: Caller = async (tool, args = {}) => {
        const out = await skillgate(
          agent,
          ["call", tool, JSON.stringify(args), "--workspace", ws2, "--json"],
          env,
        );
        expect(out.code === 0 || out.code === 1, out.stderr).toBe(true);
        return JSON.parse(out.stdout) as CallOutcome;
      };
      await driveDefaultWorkflow(call, agentWrite(ws2), ws2);
      // A hostile operator-added skill run for the agent sees neither the authority's key nor its home.
      const peeked = await call("RunSkillScript", {
        commands: [["ext/peek", "peek.py", `${keyFile()} ${users.homeA}/.skillgate`]],
      });
      expect(peeked.isError, peeked.text).toBe(false);
      expect((peeked.structured.commands as { sandboxed: boolean }[])[0]!.sandboxed).toBe(true);
      expect(second.stderr()).toContain(
        `workspace config ${ws2}/.ucagent/setting.yaml is not read in authority mode (the agent can write it)`,
      );
      const output = (peeked.structured.commands as { output: string }[])[0]!.output;
      expect(output).toContain(`${keyFile()} FileNotFoundError`);
      expect(output).toContain(`${users.homeA}/.skillgate FileNotFoundError`);
      expect(output).not.toContain(readFileSync(keyFile(), "utf8").trim().slice(0, 16));
      // The agent's own SKILLGATE_HOME was never even created: no key, no config read, the calls went to the authority.
      expect(existsSync(agentHome)).toBe(false);
    } finally {
      await second.stop();
    }
    // The authority is down: the agent's calls say so instead of falling back to the state they cannot write.
    const down = await skillgate(
      users.runner(users.agent),
      ["call", "Status", "--workspace", ws2],
      users.envB,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      new RegExp(
        `^error \\[AUTHORITY_UNREACHABLE\\]: nothing answers on unix socket ${ws2}/\\.ucagent/skillgate/server\\.sock \\(the skillgate authority of ${ws2}, user ${users.authority.name}, pid \\d+, started [^)]+\\) \\(ENOENT\\); fix: ask the operator to start the authority again \\(e\\.g\\. systemctl start skillgate-authority\\)\n$`,
      ),
    );
  }, 240_000);

  it("--same-user-ok lets the workspace owner run authority mode (tests only) with the same state-folder rules", async () => {
    const ws3 = await users.workspace("ws3");
    const env = { ...users.envB, SKILLGATE_HOME: join(users.homeB, "same-user-home") };
    const own = await startServer(
      users.runner(users.agent),
      ["--authority", "--same-user-ok", "--workspace", ws3],
      env,
    );
    try {
      const dir = statSync(join(ws3, ".ucagent", "skillgate"));
      expect({ uid: dir.uid, gid: dir.gid, mode: dir.mode & 0o7777 }).toEqual({
        uid: users.agent.uid,
        gid: users.agent.gid,
        mode: 0o755,
      });
      expect(own.stderr()).toContain(
        `skillgate: --same-user-ok: the authority runs as the workspace owner ${users.agent.name}; nothing is enforced against an agent running as this user (for tests only)\n`,
      );
      const status = await skillgate(users.runner(users.agent), ["call", "Status", "--workspace", ws3], env);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout.split("\n")[0]).toBe(
        "Progress: 0/3 stages completed; current stage 0: 'static_bug_analysis'.",
      );
    } finally {
      await own.stop();
    }
  });

  it("a user outside the socket's group cannot connect", async () => {
    const outsider = await skillgate(
      users.runner(users.outsider),
      ["call", "Status", "--workspace", ws],
      users.envC,
    );
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toContain(
      `error [AUTHORITY_UNREACHABLE]: user ${users.outsider.name} (uid ${users.outsider.uid}) may not connect to unix socket ${authority.socket} (the skillgate authority of ${ws}, user ${users.authority.name}`,
    );
    expect(outsider.stderr).toContain(
      "(EACCES); fix: the operator adds this user to the socket's group (usermod -aG GROUP USER, then log in again) or serves with a --socket-group / --socket-mode that includes it\n",
    );
  });

  it("a state folder the agent swapped in is refused, and nothing is recorded in it", async () => {
    const moved = join(ws, ".ucagent-moved");
    const swap = await users.as(
      users.agent,
      [
        "bash",
        "-c",
        `mv "$1/.ucagent" "$2" && mkdir -p "$1/.ucagent/skillgate" && cp "$2/skillgate/"*.json* "$1/.ucagent/skillgate/"`,
        "bash",
        ws,
        moved,
      ],
      users.envB,
    );
    expect(swap.code, swap.stderr).toBe(0);
    const socket = join(moved, "skillgate", "server.sock");
    const status = await skillgate(
      users.runner(users.agent),
      ["connect", "--socket", socket],
      users.envB,
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n` +
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n` +
        `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "Status", arguments: {} } })}\n`,
    );
    const answer = status.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { id?: number; result?: { isError?: boolean; content: { text: string }[] } },
      )
      .find((message) => message.id === 2);
    expect(answer?.result?.isError).toBe(true);
    expect(answer?.result?.content[0]?.text).toContain(
      // Tool error texts name workspace paths relative to the workspace.
      `state folder .ucagent/skillgate is owned by uid ${users.agent.uid}, not by the authority ${users.authority.name} (uid ${users.authority.uid})`,
    );
    const ledger = readFileSync(join(state(), "ledger.jsonl"), "utf8");
    expect(ledger).toBe(readFileSync(join(moved, "skillgate", "ledger.jsonl"), "utf8"));
  });
});
