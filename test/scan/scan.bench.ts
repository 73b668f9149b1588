// Scan throughput: the bundled pack, the fixture skills, and a 1 MiB Python file of ordinary code.
import { resolve } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { loadRules, scanFiles, scanText } from "../../runtime/scan/index.js";
import { printTable, Samples } from "../bench/report.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const ruleSet = await loadRules();
const line =
  'result = subprocess.run(["git", "log", "--oneline"], capture_output=True, text=True)  # eval later\n';
const megabyte = line.repeat(Math.ceil((1 << 20) / line.length));
const samples = new Samples();

afterAll(() => {
  if (samples.get("text").length === 0) return; // set-up failed: vitest reports why
  const row = (name: string, key: string) => ({
    name,
    ours: samples.median(key),
    baseline: null,
    target: "",
    met: null,
  });
  printTable("static scan (level 3 gate), informational", [
    row("scanFiles(skills/)", "pack"),
    row("scanFiles(test/fixtures/scan)", "fixtures"),
    row("scanText(1 MiB of Python)", "text"),
  ]);
});

describe("static scan", () => {
  bench("scanFiles(skills/)", async () => {
    await samples.timeAsync("pack", () => scanFiles([resolve(ROOT, "skills")], { ruleSet }));
  });
  bench("scanFiles(test/fixtures/scan)", async () => {
    await samples.timeAsync("fixtures", () =>
      scanFiles([resolve(ROOT, "test", "fixtures", "scan")], { ruleSet }),
    );
  });
  bench("scanText(1 MiB of Python)", () => {
    samples.time("text", () => scanText(megabyte, { file: "big.py", language: "python", ruleSet }));
  });
});
