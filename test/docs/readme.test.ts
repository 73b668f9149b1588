// README stays a front door (≤ 10 KB) and every relative link in README.md and docs/*.md reaches its file and heading.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
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
