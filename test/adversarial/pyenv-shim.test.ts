// pyenv shims through RunSkillScript: resolved in process under the real PYENV_ROOT only; nothing a skill plants runs on the host.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { survivors } from "../support/host-probes.js";
import { type Bed, type Canaries, hostCanaries, makeBed, record } from "./tool-bed.js";

let bed: Bed;
let canaries: Canaries;
let before: Record<string, string>;
/** Host files that any executed shim, fake `pyenv` or hostile interpreter would append to (outside every bind). */
let hostMarker: string;
let realRoot: string;
const saved = {
  PATH: process.env.PATH,
  PYENV_ROOT: process.env.PYENV_ROOT,
  PYENV_VERSION: process.env.PYENV_VERSION,
};

function executable(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** A pyenv root: a shim that announces itself, one version folder whose python3 announces its version. */
function pyenvRoot(root: string, label: string): void {
  executable(
    join(root, "shims", "python3"),
    `#!/bin/sh\necho "SHIM RAN ${label}"\n{ echo "shim ${label}" >> ${hostMarker}; } 2>/dev/null\nexec /usr/bin/python3 "$@"\n`,
  );
  executable(
    join(root, "versions", "3.99.0", "bin", "python3"),
    `#!/bin/sh\necho "python 3.99.0 of ${label}"\n{ echo "version ${label}" >> ${hostMarker}; } 2>/dev/null\nexec /usr/bin/python3 "$@"\n`,
  );
  writeFileSync(join(root, "version"), "3.99.0\n");
}

/** A skill run planting a whole pyenv root (shim, version interpreter, version file) in the workspace. */
const PLANT_PY = `import os, sys
root, marker = sys.argv[1], sys.argv[2]
def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
put(os.path.join(root, "shims", "python3"), f'#!/bin/sh\\necho PLANTED SHIM RAN\\n{{ echo planted >> {marker}; }} 2>/dev/null\\nexec /usr/bin/python3 "$@"\\n')
put(os.path.join(root, "versions", "3.99.0", "bin", "python3"), f'#!/bin/sh\\necho PLANTED VERSION RAN\\n{{ echo planted >> {marker}; }} 2>/dev/null\\nexec /usr/bin/python3 "$@"\\n')
put(os.path.join(root, "version"), "3.99.0\\n")
print("planted")
`;

beforeAll(async () => {
  bed = await makeBed({
    skills: [
      {
        name: "py",
        scripts: {
          "hello.py": "print('hello from python')\n",
          "plant.py": PLANT_PY,
        },
      },
    ],
  });
  hostMarker = join(bed.dir, "host-marker.txt");
  realRoot = join(bed.dir, "pyenv");
  pyenvRoot(realRoot, "real-root");
  pyenvRoot(join(bed.dir, "other-pyenv"), "outside-root");
  // `pyenv which` would run code from the shim's folder: a fake pyenv on PATH tells if anything calls it.
  executable(join(bed.dir, "bin", "pyenv"), `#!/bin/sh\necho "pyenv $*" >> ${hostMarker}\n`);
  executable(join(bed.dir, "evil", "bin", "python3"), `#!/bin/sh\necho "evil" >> ${hostMarker}\n`);
  process.env.PYENV_ROOT = realRoot;
  canaries = hostCanaries(bed, [hostMarker]);
  before = canaries.snapshot();
});

beforeEach(() => onPath());

afterEach(async () => {
  process.env.PATH = saved.PATH;
  process.env.PYENV_ROOT = realRoot;
  delete process.env.PYENV_VERSION;
  expect(existsSync(hostMarker), "a shim, pyenv or interpreter ran on the host").toBe(false);
  expect(canaries.snapshot()).toEqual(before);
  expect(await survivors(bed.ws)).toEqual([]);
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (canaries) execFileSync("keyctl", ["unlink", canaries.keyId, "@u"], { stdio: "ignore" });
  bed?.cleanup();
});

/** The host PATH without any pyenv shims folder (this machine's own pyenv would answer first otherwise). */
const basePath = () =>
  (saved.PATH ?? "")
    .split(":")
    .filter((entry) => !entry.endsWith("/shims"))
    .join(":");
const onPath = (...dirs: string[]) => {
  process.env.PATH = [...dirs, join(bed.dir, "bin"), basePath()].join(":");
};

describe.sequential("pyenv shims resolved by the runner", () => {
  it("a shim of the real PYENV_ROOT runs its selected version's interpreter, sandboxed, without the shim or pyenv", async () => {
    onPath(join(realRoot, "shims"));
    const result = await bed.run("py", "hello.py");
    expect(result.isError, result.text).toBe(false);
    const run = record(result);
    expect(run.argv[0]).toBe(realpathSync(join(realRoot, "versions", "3.99.0", "bin", "python3")));
    expect(run.output).toBe("python 3.99.0 of real-root\nhello from python\n");
    expect(run.sandboxed).toBe(true);
  });

  it("PYENV_VERSION picks the version folder in process, as pyenv would", async () => {
    executable(
      join(realRoot, "versions", "3.98.1", "bin", "python3"),
      '#!/bin/sh\necho "python 3.98.1"\nexec /usr/bin/python3 "$@"\n',
    );
    onPath(join(realRoot, "shims"));
    process.env.PYENV_VERSION = "3.98.1";
    const run = record(await bed.run("py", "hello.py"));
    expect(run.status).toBe("ok");
    expect(run.argv[0]).toBe(realpathSync(join(realRoot, "versions", "3.98.1", "bin", "python3")));
    expect(run.output).toBe("python 3.98.1\nhello from python\n");
  });

  it("the workspace's .python-version picks the version, as pyenv run in the workspace (the script's cwd) would", async () => {
    executable(
      join(realRoot, "versions", "3.98.1", "bin", "python3"),
      '#!/bin/sh\necho "python 3.98.1"\nexec /usr/bin/python3 "$@"\n',
    );
    onPath(join(realRoot, "shims"));
    writeFileSync(join(bed.ws, ".python-version"), "3.98.1\n");
    try {
      const run = record(await bed.run("py", "hello.py"));
      expect(run.status).toBe("ok");
      expect(run.argv[0]).toBe(realpathSync(join(realRoot, "versions", "3.98.1", "bin", "python3")));
      expect(run.output).toBe("python 3.98.1\nhello from python\n");
    } finally {
      rmSync(join(bed.ws, ".python-version"));
    }
  });

  it("a PYENV_VERSION that is a path never leads out of versions/: the shim itself runs, in the sandbox", async () => {
    onPath(join(realRoot, "shims"));
    process.env.PYENV_VERSION = "../../evil";
    const run = record(await bed.run("py", "hello.py"));
    expect(run.argv[0]).toBe(realpathSync(join(realRoot, "shims", "python3")));
    expect(run.output).toBe("SHIM RAN real-root\nhello from python\n");
    expect(run.sandboxed).toBe(true);
  });

  it("a shim outside the real PYENV_ROOT is not resolved: it runs only inside the sandbox", async () => {
    const other = join(bed.dir, "other-pyenv");
    onPath(join(other, "shims"));
    const run = record(await bed.run("py", "hello.py"));
    expect(run.argv[0]).toBe(realpathSync(join(other, "shims", "python3")));
    // Its own version folder is not consulted either: only the real root's layout is trusted.
    expect(run.output).toBe("SHIM RAN outside-root\nhello from python\n");
    expect(run.sandboxed).toBe(true);
  });

  it("a pyenv a skill plants in the workspace is never executed on the host, whichever PYENV_ROOT and PATH say", async () => {
    const planted = join(bed.ws, ".pyenv");
    const plant = await bed.run("py", "plant.py", `${planted} ${hostMarker}`);
    expect(record(plant).output, plant.text).toBe("planted\n");
    // PATH lists the planted shims, PYENV_ROOT is the real root: not resolved, the shim is a sandboxed runner.
    onPath(join(planted, "shims"));
    const viaPath = record(await bed.run("py", "hello.py"));
    expect(viaPath.argv[0]).toBe(join(planted, "shims", "python3"));
    expect(viaPath.output).toBe("PLANTED SHIM RAN\nhello from python\n");
    expect(viaPath.sandboxed).toBe(true);
    // PYENV_ROOT itself in the workspace (HOME is the workspace, ~/.pyenv): its interpreter still runs only inside.
    process.env.PYENV_ROOT = planted;
    const viaRoot = record(await bed.run("py", "hello.py"));
    expect(viaRoot.argv[0]).toBe(join(planted, "versions", "3.99.0", "bin", "python3"));
    expect(viaRoot.output).toBe("PLANTED VERSION RAN\nhello from python\n");
    expect(viaRoot.sandboxed).toBe(true);
  });
});
