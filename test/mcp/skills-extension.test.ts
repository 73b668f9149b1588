// The MCP Skills Extension (SEP-2640) through the real SDK client: listing, digests, get, reads, stage scope, read evidence.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { createMcpServer } from "../../runtime/mcp/server.js";
import { splitFrontmatter } from "../../runtime/skills/index.js";
import { type Fixture, GATE_SKILL, makeFixture } from "../tools/helpers.js";
import { rpc, servePerTest, ValidatingClient } from "./helpers.js";

const EXT = "io.modelcontextprotocol/skills";
const GATE_URI = "skill://fixture/gate-skill/SKILL.md";
const TEXT_URI = "skill://fixture/text-skill/SKILL.md";

const served = servePerTest();

/** The fixture pack plus extra skills: one with a binary asset, one whose folder and frontmatter name differ. */
function setup(force = true): Fixture {
  const fx = makeFixture({ force });
  const extra = join(fx.dir, "extra");
  mkdirSync(join(extra, "assets-skill", "assets"), { recursive: true });
  writeFileSync(
    join(extra, "assets-skill", "SKILL.md"),
    "---\nname: assets-skill\ndescription: Has a binary asset.\nlicense: MIT\nmetadata:\n  version: 2\n---\n\n# Assets\n",
  );
  writeFileSync(join(extra, "assets-skill", "assets", "logo.bin"), Buffer.from([0, 1, 2, 255, 254, 0, 10]));
  mkdirSync(join(extra, "misnamed"), { recursive: true });
  writeFileSync(
    join(extra, "misnamed", "SKILL.md"),
    "---\nname: other-name\ndescription: Folder and name differ.\n---\n\n# Misnamed\n",
  );
  const config = parse(readFileSync(fx.configFile, "utf8")) as {
    skill: Record<string, unknown>;
    stage: Record<string, unknown>[];
  };
  config.skill.extra_skill_path = [extra];
  config.skill.general_skill_list = ["order/a", "order/b", "ext/assets-skill", "ext/misnamed"];
  config.stage[1]!.skill_list = ["fixture/text-skill"];
  writeFileSync(fx.configFile, stringify(config));
  return fx;
}

const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function readBytes(client: Client, uri: string): Promise<{ bytes: Buffer; mimeType: string }> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const content = contents[0]! as { uri: string; mimeType: string; text?: string; blob?: string };
  expect(content.uri).toBe(uri);
  const bytes =
    content.text !== undefined ? Buffer.from(content.text, "utf8") : Buffer.from(content.blob!, "base64");
  return { bytes, mimeType: content.mimeType };
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(current, entry.name));
      else out.push(relative(dir, join(current, entry.name)).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

describe("MCP Skills Extension over stdio", () => {
  it("declares the extension and lists the stage's skills with verbatim frontmatter and digests of what resources/read returns", async () => {
    const fixture = setup();
    const connection = await served.serve(fixture);
    const { client } = connection;
    expect(client.getServerCapabilities()?.extensions).toEqual({ [EXT]: {} });

    const listed = await rpc(client, "skills/list");
    expect(listed.nextCursor).toBeUndefined();
    // Stage skill first, then general skills in catalog order; the misnamed skill is not served.
    expect(listed.skills.map((entry: { uri: string }) => entry.uri)).toEqual([
      GATE_URI,
      "skill://ext/assets-skill/SKILL.md",
      "skill://order/a/SKILL.md",
      "skill://order/b/SKILL.md",
    ]);
    const gate = listed.skills[0];
    const gateDir = join(fixture.ws, ".ucagent", "skills", "fixture", "gate-skill");
    expect(gate.resources.map((resource: { uri: string }) => resource.uri)).toEqual(
      filesUnder(gateDir).map((file) => `skill://fixture/gate-skill/${file}`),
    );
    const assets = listed.skills[1];
    expect(assets.frontmatter).toEqual({
      name: "assets-skill",
      description: "Has a binary asset.",
      license: "MIT",
      metadata: { version: 2 },
    });
    let reads = 0;
    for (const entry of listed.skills) {
      const onDisk = readFileSync(
        join(fixture.ws, ".ucagent", "skills", ...entry.uri.slice(8).split("/")),
        "utf8",
      );
      const split = splitFrontmatter(onDisk);
      expect(split.ok).toBe(true);
      expect(entry.frontmatter).toEqual(parse(split.ok ? split.yaml : ""));
      expect(entry.resources.some((resource: { uri: string }) => resource.uri === entry.uri)).toBe(true);
      for (const resource of entry.resources) {
        const { bytes, mimeType } = await readBytes(client, resource.uri);
        expect(sha256(bytes)).toBe(resource.digest);
        expect(resource.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
        if (resource.uri.endsWith("/SKILL.md")) expect(mimeType).toBe("text/markdown");
        reads += 1;
      }
    }
    expect(reads).toBe(filesUnder(gateDir).length + 2 + 1 + 1);
    const logo = await readBytes(client, "skill://ext/assets-skill/assets/logo.bin");
    expect(logo).toEqual({
      bytes: Buffer.from([0, 1, 2, 255, 254, 0, 10]),
      mimeType: "application/octet-stream",
    });

    // skills/get answers the same entry; unknown, misnamed and other-stage skills are -32602.
    expect((await rpc(client, "skills/get", { uri: GATE_URI })).skill).toEqual(gate);
    for (const uri of [
      "skill://nope/SKILL.md",
      "skill://ext/misnamed/SKILL.md",
      TEXT_URI,
      "skill://order/a",
    ]) {
      await expect(rpc(client, "skills/get", { uri })).rejects.toMatchObject({ code: -32602 });
    }
    await expect(rpc(client, "skills/get", {})).rejects.toMatchObject({
      code: -32602,
      message: 'MCP error -32602: skills/get needs params.uri, e.g. "skill://<skill-path>/SKILL.md"',
    });
    const notServed = await rpc(client, "skills/get", { uri: TEXT_URI }).catch(
      (error: Error) => error.message,
    );
    expect(notServed).toBe(
      `MCP error -32602: Unknown skill resource ${TEXT_URI}: it is not a file of a skill served in stage 'report'. ` +
        `Skills are served as ListSkill shows them for the current stage: ${listed.skills.map((e: { uri: string }) => e.uri).join(", ")}.`,
    );
    // resources/read refuses what is not a listed file of a served skill.
    for (const uri of [
      TEXT_URI,
      "skill://ext/misnamed/SKILL.md",
      "skill://fixture/gate-skill/../text-skill/SKILL.md",
      "skill://fixture/gate-skill/scripts/nope.py",
      "skill://fixture/gate-skill/scripts",
      "file:///etc/passwd",
      "skill://fixture/gate-skill/%2e%2e/text-skill/SKILL.md",
    ]) {
      await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
    }
    await expect(rpc(client, "skills/list", { cursor: "garbage" })).rejects.toMatchObject({ code: -32602 });
  });

  it("a resources/read of the whole stage SKILL.md is read evidence; a general skill's read records nothing", async () => {
    const fixture = setup();
    const connection = await served.serve(fixture);
    const tools = new ValidatingClient(connection.client);
    const skillRow = async (id: string) =>
      ((await tools.ok("Status")).structured.skills as { id: string; listed: boolean; read: boolean }[]).find(
        (row) => row.id === id,
      );
    expect(await skillRow(GATE_SKILL)).toMatchObject({ listed: false, read: false });
    await connection.client.readResource({ uri: "skill://order/a/SKILL.md" });
    await connection.client.readResource({ uri: "skill://fixture/gate-skill/scripts/make_report.py" });
    expect(await skillRow(GATE_SKILL)).toMatchObject({ read: false });
    const { mimeType } = await readBytes(connection.client, GATE_URI);
    expect(mimeType).toBe("text/markdown");
    expect(await skillRow(GATE_SKILL)).toMatchObject({ listed: false, read: true });
    expect(tools.validated).toBe(3);
  });

  it("lists skill files as resources and pages skills/list and resources/list without splitting an entry", async () => {
    const fixture = served.keep(setup());
    const session = await fixture.open();
    const server = createMcpServer(session, { pageSizes: { skills: 3, resources: 2 } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "paging", version: "0" });
    await client.connect(clientSide);
    try {
      const first = await rpc(client, "skills/list");
      expect(first.skills).toHaveLength(3);
      const second = await rpc(client, "skills/list", { cursor: first.nextCursor });
      expect(second.nextCursor).toBeUndefined();
      expect([...first.skills, ...second.skills].map((entry: { uri: string }) => entry.uri)).toEqual([
        GATE_URI,
        "skill://ext/assets-skill/SKILL.md",
        "skill://order/a/SKILL.md",
        "skill://order/b/SKILL.md",
      ]);
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor ? { cursor } : {});
        expect(page.resources.length).toBeLessThanOrEqual(2);
        uris.push(...page.resources.map((resource) => resource.uri));
        cursor = page.nextCursor;
      } while (cursor);
      const all = [...first.skills, ...second.skills].flatMap((entry: { resources: { uri: string }[] }) =>
        entry.resources.map((resource) => resource.uri),
      );
      expect(uris).toEqual(all);
      const skillMd = (await client.listResources()).resources.find((resource) => resource.uri === GATE_URI);
      expect(skillMd).toMatchObject({ name: "gate-skill", mimeType: "text/markdown" });
    } finally {
      await client.close();
    }
  });

  it("a Complete that moves the stage sends resources/list_changed, and the next stage's skills are served", async () => {
    const fixture = setup(false);
    const connection = await served.serve(fixture);
    const { client } = connection;
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed += 1;
    });
    const tools = new ValidatingClient(client);
    await tools.ok("EditTextFile", { path: "out/report.md", content: "# Report\n" });
    await tools.ok("Check");
    expect(changed).toBe(0);
    await tools.ok("Complete");
    await expect.poll(() => changed, { timeout: 10_000 }).toBe(1);
    const listed = await rpc(client, "skills/list");
    expect(listed.skills.map((entry: { uri: string }) => entry.uri)).toEqual([
      TEXT_URI,
      "skill://ext/assets-skill/SKILL.md",
      "skill://order/a/SKILL.md",
      "skill://order/b/SKILL.md",
    ]);
    await expect(rpc(client, "skills/get", { uri: GATE_URI })).rejects.toMatchObject({ code: -32602 });
  });

  it("serves nothing when skills are disabled", async () => {
    const fixture = setup();
    const connection = await served.serve(fixture, ["--no-use-skill"]);
    expect((await rpc(connection.client, "skills/list")).skills).toEqual([]);
    await expect(rpc(connection.client, "skills/get", { uri: GATE_URI })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
