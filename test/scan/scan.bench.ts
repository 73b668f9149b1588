// Scan throughput: the bundled pack, the fixture skills, and a 1 MiB Python file of ordinary code.
import { resolve } from "node:path";
import { bench, describe } from "vitest";
import { loadRules, scanFiles, scanText } from "../../runtime/scan/index.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const ruleSet = await loadRules();
const line =
  'result = subprocess.run(["git", "log", "--oneline"], capture_output=True, text=True)  # eval later\n';
const megabyte = line.repeat(Math.ceil((1 << 20) / line.length));

describe("static scan", () => {
  bench("scanFiles(skills/)", async () => {
    await scanFiles([resolve(ROOT, "skills")], { ruleSet });
  });
  bench("scanFiles(test/fixtures/scan)", async () => {
    await scanFiles([resolve(ROOT, "test", "fixtures", "scan")], { ruleSet });
  });
  bench("scanText(1 MiB of Python)", () => {
    scanText(megabyte, { file: "big.py", language: "python", ruleSet });
  });
});
