// Locates the Python with the real reference packages (skills-ref, PyYAML) that .ci/run installs, and runs oracles in it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const repo = path.resolve(import.meta.dirname, "../..");
export const REF_VENV = path.join(repo, ".ci", ".venv-refs");
export const INSTALL_HINT = `uv venv ${REF_VENV} && uv pip install --python ${REF_VENV}/bin/python skills-ref==0.1.1 pyyaml==6.0.3 (what .ci/run does)`;

/** The Python that imports `modules`; throws (so the test fails, never skips) with the install command. */
export function referencePython(modules: string[]): string {
  const candidates = [
    process.env.SKILLGATE_REF_PYTHON,
    path.join(REF_VENV, "bin", "python"),
    "python3",
  ].filter((candidate): candidate is string => Boolean(candidate));
  for (const python of candidates) {
    if (python.includes("/") && !fs.existsSync(python)) continue;
    try {
      execFileSync(python, ["-c", `import ${modules.join(", ")}`], { stdio: "ignore" });
      return python;
    } catch {}
  }
  throw new Error(
    `no Python with ${modules.join(" and ")} found (tried ${candidates.join(", ")}); install them: ${INSTALL_HINT}`,
  );
}

/** Runs an oracle script from test/skills/oracles with `input` as JSON on stdin; returns its JSON output. */
export function runOracle<T>(python: string, script: string, input: unknown): T {
  const output = execFileSync(python, [path.join(repo, "test", "skills", "oracles", script)], {
    input: JSON.stringify(input),
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(output) as T;
}
