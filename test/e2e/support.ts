// End-to-end test support: a temp SKILLGATE_HOME, workspaces seeded like `npm start`, tool calls, and the stage outputs built from the planted defects.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { ToolResult } from "../../runtime/contracts/index.js";
import { prepareDefaultWorkspace } from "../../runtime/mcp/default-workspace.js";
import { callTool } from "../../runtime/tools/registry.js";
import { type OpenedSession, openSession } from "../../runtime/tools/session.js";
import { isolateHome, removeTree, tempRoot } from "../support/workspace.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));

export interface PlantedDefect {
  id: string;
  file: string;
  line: number;
  severity: "critical" | "high" | "medium" | "low";
  summary: string;
}

export const PLANTED: PlantedDefect[] = (
  JSON.parse(readFileSync(join(REPO, "test", "fixtures", "pack", "planted_defects.json"), "utf8")) as {
    defects: PlantedDefect[];
  }
).defects;

/** One-line titles the "agent" gives the planted defects, by planted id. */
export const TITLES: Record<string, string> = {
  "mutable-default-tags": "Item() without tags shares one tags list",
  "unhandled-none-price-of": "price_of() raises AttributeError for an unknown SKU",
  "wrong-operator-remove-stock": "remove_stock() refuses to sell the last unit",
  "off-by-one-total-value": "total_value_cents() skips the last item",
  "resource-leak-load-csv": "load_csv() leaks its file handle on a bad file",
};

export const bugId = (index: number) => `BUG-${String(index + 1).padStart(3, "0")}`;

/** Quotes one argument for Python shlex (RunSkillScript splits args that way). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'"'"'`)}'`;
}

/** `record_bug.ts` arguments for a planted defect. */
export function recordBugArgs(defect: PlantedDefect): string {
  return [
    `--file ${defect.file}`,
    `--line ${defect.line}`,
    `--severity ${defect.severity}`,
    `--title ${shellQuote(TITLES[defect.id]!)}`,
    `--description ${shellQuote(defect.summary)}`,
  ].join(" ");
}

/** OUT/static_bug_analysis.md written by hand in the format guide_doc/static_bug_analysis.md gives. */
export function analysisMarkdown(defects: PlantedDefect[]): string {
  const entries = defects.map((defect, index) =>
    [
      `## ${bugId(index)}: ${TITLES[defect.id]}`,
      `- **File**: ${defect.file}`,
      `- **Line**: ${defect.line}`,
      `- **Severity**: ${defect.severity}`,
      `- **Description**: ${defect.summary}`,
    ].join("\n"),
  );
  return `# Static Bug Analysis\n\n${entries.join("\n\n")}\n`;
}

export interface ReproScript {
  /** Planted defect it reproduces. */
  defect: string;
  /** Body after the PEP 723 block and the import of the target. */
  body: string;
  /** The last line the script prints when the defect is there. */
  observed: string;
}

/** Standard-library reproductions, one per planted defect (order of PLANTED). */
export const PYTHON_REPROS: ReproScript[] = [
  {
    defect: "mutable-default-tags",
    body: 'a = inv.Item("A", "a", 1)\nb = inv.Item("B", "b", 1)\na.add_tag("fragile")\nprint("expected [] for b.tags, got", b.tags)\n',
    observed: "expected [] for b.tags, got ['fragile']",
  },
  {
    defect: "unhandled-none-price-of",
    body: [
      "try:",
      '    inv.Inventory().price_of("NOPE")',
      '    print("no error")',
      "except inv.UnknownItem:",
      '    print("UnknownItem as documented")',
      "except Exception as error:",
      '    print("expected UnknownItem, got", type(error).__name__)',
      "",
    ].join("\n"),
    observed: "expected UnknownItem, got AttributeError",
  },
  {
    defect: "wrong-operator-remove-stock",
    body: [
      "stock = inv.load_csv(STOCK)",
      "try:",
      '    stock.remove_stock("C300", 1)',
      '    print("sold the last unit")',
      "except inv.InsufficientStock as error:",
      '    print("expected quantity 0, got InsufficientStock:", error)',
      "",
    ].join("\n"),
    observed: "expected quantity 0, got InsufficientStock: only 1 of C300 in stock, asked for 1",
  },
  {
    defect: "off-by-one-total-value",
    body: 'stock = inv.load_csv(STOCK)\nprint("expected", sum(i.price_cents * i.quantity for i in stock.items()), "got", stock.total_value_cents())\n',
    observed: "expected 20669 got 13671",
  },
  {
    defect: "resource-leak-load-csv",
    body: [
      "import gc, os, tempfile, warnings",
      "with tempfile.TemporaryDirectory() as folder:",
      '    bad = os.path.join(folder, "bad.csv")',
      '    with open(bad, "w") as handle:',
      '        handle.write("a,b\\n1,2\\n")',
      "    with warnings.catch_warnings(record=True) as caught:",
      '        warnings.simplefilter("always")',
      "        try:",
      "            inv.load_csv(bad)",
      "        except inv.InventoryError:",
      "            pass",
      "        gc.collect()",
      'print("expected no ResourceWarning, got", [w.category.__name__ for w in caught if issubclass(w.category, ResourceWarning)])',
      "",
    ].join("\n"),
    observed: "expected no ResourceWarning, got ['ResourceWarning']",
  },
];

/** A PEP 723 standard-library script with the DUT path as a literal (no argv, no stdin). */
export function pythonRepro(dut: string, repro: ReproScript): string {
  return [
    "# /// script",
    "# dependencies = []",
    "# ///",
    "import sys",
    `sys.path.insert(0, ${JSON.stringify(dut)})`,
    "import inventory as inv",
    `STOCK = ${JSON.stringify(join(dut, "stock.csv"))}`,
    repro.body,
  ].join("\n");
}

/** A no-dependency JS reproduction of the off-by-one: runs the Python target in a child process. */
export function jsRepro(dut: string): string {
  const python = [
    "import sys",
    `sys.path.insert(0, ${JSON.stringify(dut)})`,
    "import inventory as inv",
    `print(inv.load_csv(${JSON.stringify(join(dut, "stock.csv"))}).total_value_cents())`,
  ].join("; ");
  return [
    'import { spawnSync } from "node:child_process";',
    `const run = spawnSync("python3", ["-c", ${JSON.stringify(python)}], { encoding: "utf8" });`,
    'if (run.status !== 0) throw new Error("python3 failed: " + run.stderr);',
    'console.log("expected 20669, got", run.stdout.trim());',
    "",
  ].join("\n");
}

export interface ReproRun {
  bug: string;
  command: string;
  observed: string;
  verdict: "reproduced" | "not reproduced";
}

/** OUT/reproduction.md in the format of guide_doc/bug_reproduction.md. */
export function reproductionMarkdown(runs: ReproRun[]): string {
  const entries = runs.map((run, index) =>
    [
      `## REPRO-${String(index + 1).padStart(3, "0")}: ${run.bug}`,
      `- **Bug**: ${run.bug}`,
      `- **Command**: ${run.command}`,
      `- **Observed**: ${run.observed}`,
      `- **Verdict**: ${run.verdict}`,
    ].join("\n"),
  );
  return `# Bug Reproduction\n\n${entries.join("\n\n")}\n`;
}

/** OUT/summary.md in the format of guide_doc/summary.md. */
export function summaryMarkdown(defects: PlantedDefect[], runs: ReproRun[]): string {
  const lines = [
    "# Summary",
    "",
    `Reviewed dut/ (inventory.py): ${defects.length} defects found, ${runs.filter((r) => r.verdict === "reproduced").length} reproduction runs confirmed them.`,
    "",
    "## Findings",
    "",
    ...defects.map((d, i) => `- ${bugId(i)} (${d.severity}) ${TITLES[d.id]} — ${d.file}:${d.line}`),
    "",
    "## Reproduction results",
    "",
    ...runs.map(
      (r, i) => `- ${r.bug}: ${r.verdict} (REPRO-${String(i + 1).padStart(3, "0")}) — ${r.observed}`,
    ),
    "",
    "## Recommended fixes",
    "",
    ...defects.map((d, i) => `- ${bugId(i)}: fix ${d.file}:${d.line}; ${d.summary}`),
    "",
  ];
  return lines.join("\n");
}

export function writeText(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Deletes a folder inside the read-only skill copy (its parent is opened first). */
export function deleteFromSkillCopy(path: string): void {
  chmodSync(dirname(path), 0o755);
  removeTree(path);
}

/** A temp SKILLGATE_HOME shared by the workspaces of one test file; restores the environment on cleanup. */
export class E2EHome {
  private readonly root = tempRoot("skillgate-e2e-");
  readonly base = this.root.dir;
  // Script runs read the caches' location from the process environment.
  private readonly isolated = isolateHome(this.base, { setProcess: true, create: false });
  readonly home = this.isolated.home;
  readonly env: NodeJS.ProcessEnv = this.isolated.env;

  /** A fresh workspace with the example target copied to <ws>/dut, as `npm start` prepares it. */
  async workspace(name: string): Promise<string> {
    const ws = join(this.base, name);
    const seeded = await prepareDefaultWorkspace(ws);
    expect(seeded).toEqual({ seeded: true, example: join(REPO, "examples", "buggy-inventory") });
    return ws;
  }

  /** A --config layer over the built-in default workflow. */
  configFile(name: string, yaml: string): string {
    const file = join(this.base, `${name}.yaml`);
    writeFileSync(file, yaml);
    return file;
  }

  open(
    workspace: string,
    options: { argvFlags?: string[]; configFile?: string; init?: boolean } = {},
  ): Promise<OpenedSession> {
    return openSession({ workspace, env: this.env, ...options });
  }

  cleanup(): void {
    this.isolated.restore();
    this.root.cleanup();
  }
}

/** Calls a tool like an MCP client would (untrusted args through the registry). */
export function call(session: OpenedSession, name: string, args: unknown = {}): Promise<ToolResult> {
  return callTool(session, name, args);
}

/** Calls a tool that must succeed; the failure message is the tool's own text. */
export async function ok(session: OpenedSession, name: string, args: unknown = {}): Promise<ToolResult> {
  const result = await callTool(session, name, args);
  expect(result.isError, `${name} failed:\n${result.text}`).toBe(false);
  return result;
}

/** Lines of a SKILL.md or guide as ReadTextFile counts them. */
export function lineCount(path: string): number {
  return readFileSync(path, "utf8").split(/(?<=\n)/).length;
}
