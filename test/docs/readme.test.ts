// README stays a front door (≤ 10 KB) and every relative link in README.md and docs/*.md reaches its file and heading.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigSchema } from "../../runtime/config/index.js";
import { ERROR_CODES } from "../../runtime/errors.js";
import { anchors, type Doc, linkProblems, relativeLinks, slug } from "./links.js";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const README_MAX_BYTES = 10 * 1024;

function repoText(path: string): string | null {
  const full = join(REPO, path);
  if (!existsSync(full)) return null;
  return statSync(full).isDirectory() ? "" : readFileSync(full, "utf8");
}

function docs(): Doc[] {
  const names = readdirSync(join(REPO, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...names.map((name) => `docs/${name}`)].map((path) => ({
    path,
    text: readFileSync(join(REPO, path), "utf8"),
  }));
}

describe("README.md", () => {
  it(`is at most ${README_MAX_BYTES} bytes (the reference lives in docs/)`, () => {
    const size = statSync(join(REPO, "README.md")).size;
    expect(size, `README.md is ${size} bytes; move reference text into docs/*.md`).toBeLessThanOrEqual(
      README_MAX_BYTES,
    );
  });

  it("gives the two commands and links every file of docs/", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("\nnpm test ");
    const linked = new Set(relativeLinks(readme).map((target) => target.split("#")[0]));
    const files = readdirSync(join(REPO, "docs")).filter((name) => name.endsWith(".md"));
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((name) => !linked.has(`docs/${name}`))).toEqual([]);
  });
});

describe("relative links in README.md and docs/*.md", () => {
  it("all point to an existing file and, with #fragment, to a heading in it", () => {
    const all = docs();
    const count = all.reduce((n, doc) => n + relativeLinks(doc.text).length, 0);
    expect(count).toBeGreaterThan(10);
    expect(linkProblems(all, repoText)).toEqual([]);
  });
});

describe("the link checker", () => {
  it.each([
    ["Sandbox: levels 1–3", "sandbox-levels-13"],
    ["The `.ts` fast path", "the-ts-fast-path"],
    ["SetSkillUsage, Check, Complete, Status", "setskillusage-check-complete-status"],
    ["File tools (UCAgent's `fileops.py`)", "file-tools-ucagents-fileopspy"],
    ["exec_grants and un_write_dirs", "exec_grants-and-un_write_dirs"],
  ])("slugs %j as GitHub does: %s", (heading, expected) => {
    expect(slug(heading.replace(/`/g, ""))).toBe(expected);
  });

  it("numbers repeated headings and ignores headings inside code blocks", () => {
    expect([...anchors("# A\n## A\n```sh\n# A comment\n```\n### A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  it("reports a missing file, a missing anchor and a link out of the repository, and skips URLs and code", () => {
    const files: Record<string, string> = { "docs/b.md": "# Real heading\n" };
    const doc: Doc = {
      path: "docs/a.md",
      text: [
        "# Top",
        "[ok](b.md#real-heading) [self](#top) [url](https://example.com/x.md) [mail](mailto:a@b.c)",
        "[gone](missing.md) [bad anchor](b.md#nope) [self bad](#nowhere) [out](../../etc/passwd)",
        "`[code](not-a-link.md)`",
        "```",
        "[fenced](also-not-a-link.md)",
        "```",
      ].join("\n"),
    };
    expect(linkProblems([doc], (path) => files[path] ?? null)).toEqual([
      "docs/a.md: link missing.md: docs/missing.md does not exist",
      "docs/a.md: link b.md#nope: docs/b.md has no heading with the anchor #nope",
      "docs/a.md: link #nowhere: docs/a.md has no heading with the anchor #nowhere",
      "docs/a.md: link ../../etc/passwd: leads out of the repository",
    ]);
  });
});

/** The rows of the first Markdown table after `heading` in `text`, as cells. */
function tableAfter(text: string, heading: string): string[][] {
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `heading ${heading}`).toBeGreaterThan(-1);
  const lines = text.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.split(" | ").map((cell) => cell.replace(/^\|\s*|\s*\|$/g, "")));
  }
  return rows;
}

describe("reference tables name what the code has", () => {
  it("every code in docs/tools.md's error table is a SkillgateError code, each in one row", () => {
    const rows = tableAfter(readFileSync(join(REPO, "docs", "tools.md"), "utf8"), "## Error codes");
    const codes = rows.map((row) => row[0]!.replace(/`/g, ""));
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
  });

  it("every key in docs/configuration.md's key table is a key of the config schema", () => {
    const rows = tableAfter(readFileSync(join(REPO, "docs", "configuration.md"), "utf8"), "## Keys");
    const schema = z.toJSONSchema(ConfigSchema, { io: "input" }) as JsonSchema;
    const unknown: string[] = [];
    let count = 0;
    for (const row of rows) {
      const parts = row[0]!.split(" / ").map((part) => part.replace(/`/g, "").replace(/\.<id>$/, ".*"));
      const parent = parts[0]!.includes(".") ? parts[0]!.slice(0, parts[0]!.lastIndexOf(".") + 1) : "";
      for (const part of parts) {
        const key = part.includes(".") ? part : `${parent}${part}`;
        count += 1;
        if (!hasPath(schema, key.split("."))) unknown.push(key);
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(unknown).toEqual([]);
  });
});

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
}

function hasPath(schema: JsonSchema, path: string[]): boolean {
  if (path.length === 0) return true;
  const [head, ...rest] = path;
  const next =
    head === "*"
      ? typeof schema.additionalProperties === "object"
        ? schema.additionalProperties
        : undefined
      : schema.properties?.[head!];
  return next !== undefined && hasPath(next, rest);
}
