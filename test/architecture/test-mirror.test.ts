// Tests mirror the code: every runtime module with logic has a same-named test file (runtime/a/b.ts → test/a/b.test.ts).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { REPO, runtimeFiles } from "./runtime-files.js";

const repo = REPO;

/** Whether a module has logic: its compiled JavaScript (types gone) still holds a function, arrow or class. */
function hasLogic(source: string): boolean {
  const js = transformSync(source, { loader: "ts", minifyWhitespace: true, legalComments: "none" }).code;
  return /\bfunction\b|=>|\bclass\b/.test(js);
}

/** The test file a runtime module must have (`runtime/exec/plan/plan.ts` → `test/exec/plan/plan.test.ts`). */
function mirrorTestPath(modulePath: string): string {
  return modulePath.replace(/^runtime\//, "test/").replace(/\.ts$/, ".test.ts");
}

/** Runtime modules with logic whose mirror test file is missing (index.ts and types.ts only gather or declare). */
function modulesWithoutTests(
  modules: ReadonlyMap<string, string>,
  testExists: (path: string) => boolean,
): string[] {
  return [...modules]
    .filter(([path]) => !/\/(index|types)\.ts$/.test(path))
    .filter(([path, source]) => hasLogic(source) && !testExists(mirrorTestPath(path)))
    .map(([path]) => path)
    .sort();
}

describe("the checker itself", () => {
  it.each([
    ["export function f() { return 1; }", true],
    ["export const f = (a: number) => a + 1;", true],
    ["export class Box {}", true],
    ["export const table = { run: () => 0 };", true],
    ["export interface A { run(): void }\nexport type F = (a: number) => void;", false],
    ['export const LIMIT = 5;\nexport { x } from "./x.js";', false],
    ["// a comment that says function and => and class\nexport const N = 1;", false],
  ])("hasLogic(%j) is %s", (source, expected) => {
    expect(hasLogic(source)).toBe(expected);
  });

  it("names a module with logic and no mirror, and nothing else", () => {
    const modules = new Map([
      ["runtime/a/run.ts", "export function run() {}"],
      ["runtime/a/tested.ts", "export function t() {}"],
      ["runtime/a/types.ts", "export function notCounted() {}"],
      ["runtime/a/index.ts", "export const x = () => 0;"],
      ["runtime/a/shapes.ts", "export type S = { a: number };"],
    ]);
    const missing = modulesWithoutTests(modules, (path) => path === "test/a/tested.test.ts");
    expect(missing).toEqual(["runtime/a/run.ts"]);
  });
});

describe("runtime modules and their tests", () => {
  it("every module with logic has test/<same path>.test.ts (no exceptions)", () => {
    const modules = runtimeFiles();
    expect(modules.size).toBeGreaterThan(100);
    expect(modulesWithoutTests(modules, (path) => existsSync(join(repo, path)))).toEqual([]);
  });
});
