// `npm test`'s pretest: finds or installs the system tools the tests run (bubblewrap, uv, ...); else fails at once with the command.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

const linux = process.platform === "linux";
const root = typeof process.getuid === "function" && process.getuid() === 0;

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

function run(argv, env = process.env) {
  console.error(`pretest: ${argv.join(" ")}`);
  const result = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "inherit", "inherit"], env });
  return result.status === 0;
}

function fail(lines) {
  console.error(["pretest: the tests need tools that are missing on this machine.", ...lines].join("\n"));
  process.exit(1);
}

/** pip as root; a fresh Debian/Ubuntu may lack pip (python3-pip) and mark the system Python as externally managed. */
function installUvAsRoot() {
  const pip = ["python3", "-m", "pip", "install", "--quiet", "uv"];
  const hasPip = () => spawnSync("python3", ["-m", "pip", "--version"], { stdio: "ignore" }).status === 0;
  if (!hasPip() && onPath("apt-get")) {
    run(["apt-get", "update", "-qq"]);
    run(["apt-get", "install", "-y", "-qq", "python3-pip"], {
      ...process.env,
      DEBIAN_FRONTEND: "noninteractive",
    });
  }
  return hasPip() && (run(pip) || run([...pip, "--break-system-packages"]));
}

const missing = [];

// bubblewrap: the OS sandbox of script runs on Linux ($SKILLGATE_BWRAP names another binary).
const aptPackages = [];
if (linux) {
  const bwrap = process.env.SKILLGATE_BWRAP || onPath("bwrap");
  if (!bwrap) aptPackages.push("bubblewrap");
  if (!onPath("prlimit")) aptPackages.push("util-linux");
  // The sandbox suite: setfacl (root runs drop to an unprivileged uid given ACLs), slirp4netns (network
  // grants), keyctl (a fresh session keyring), git (the git-metadata canaries).
  // A C compiler for the native tree prefetch (scripts/build-native.mjs; its tests need the module built).
  if (!onPath(process.env.CC || "cc")) aptPackages.push("gcc", "libc6-dev");
  for (const [tool, pkg] of [
    ["setfacl", "acl"],
    ["slirp4netns", "slirp4netns"],
    ["keyctl", "keyutils"],
    ["git", "git"],
  ]) {
    if (!onPath(tool)) aptPackages.push(pkg);
  }
}
if (aptPackages.length > 0) {
  const installed =
    root &&
    onPath("apt-get") &&
    run(["apt-get", "update", "-qq"]) &&
    run(["apt-get", "install", "-y", "-qq", ...aptPackages], {
      ...process.env,
      DEBIAN_FRONTEND: "noninteractive",
    });
  if (!installed)
    missing.push(
      `  ${aptPackages.join(", ")}: run  sudo apt-get update && sudo apt-get install -y ${aptPackages.join(" ")}`,
    );
}

// uv: the Python runner skill runs PEP 723 scripts with it.
/** Where pip puts scripts (for root: e.g. /usr/local/bin) and the user's ~/.local/bin, when not on PATH. */
function uvOffPath() {
  const scripts = spawnSync("python3", ["-c", "import sysconfig; print(sysconfig.get_path('scripts'))"], {
    encoding: "utf8",
  }).stdout?.trim();
  for (const dir of [scripts, join(homedir(), ".local", "bin")]) {
    if (!dir) continue;
    try {
      accessSync(join(dir, "uv"), constants.X_OK);
      return dir;
    } catch {
      // not there
    }
  }
  return null;
}

if (!onPath("uv")) {
  if (!uvOffPath() && root) installUvAsRoot();
  const dir = onPath("uv") ? null : uvOffPath();
  if (dir) missing.push(`  uv is in ${dir}, which is not on PATH: run  export PATH="${dir}:$PATH"`);
  else if (!onPath("uv"))
    missing.push(
      root
        ? "  uv: run  python3 -m pip install uv  (or see https://docs.astral.sh/uv/getting-started/installation/)"
        : "  uv: run  python3 -m pip install --user uv  and put ~/.local/bin on PATH (or see https://docs.astral.sh/uv/getting-started/installation/)",
    );
}

if (missing.length > 0) fail(missing);

// The native tree prefetch, when the build ran before a C compiler was here (npm ci, then this pretest installed one).
const nativeModule = join(import.meta.dirname, "..", "dist", "native", "tree-prefetch.node");
if (existsSync(join(import.meta.dirname, "..", "dist", "cli")) && !existsSync(nativeModule)) {
  const { buildNative } = await import("./build-native.mjs");
  const skipped = buildNative();
  if (skipped) fail([`  the native tree prefetch (${nativeModule}) could not be built: ${skipped}`]);
}

// The reference implementations the differential tests run (skills-ref for strict mode, PyYAML for ucagent mode),
// in a venv of their own so the host Python stays untouched; test/skills/reference-python.ts looks for it here.
const refVenv = join(import.meta.dirname, "..", ".ci", ".venv-refs");
const refPython = join(refVenv, "bin", "python");
const refsReady = () =>
  spawnSync(refPython, ["-c", "import skills_ref, yaml"], { stdio: "ignore" }).status === 0;
if (!process.env.SKILLGATE_REF_PYTHON && !refsReady()) {
  const made =
    run(["uv", "venv", "--quiet", "--allow-existing", refVenv]) &&
    run(["uv", "pip", "install", "--quiet", "--python", refPython, "skills-ref==0.1.1", "pyyaml==6.0.3"]);
  if (!made || !refsReady())
    fail([
      `  the reference validators in ${refVenv}: run  uv venv ${refVenv} && uv pip install --python ${refPython} skills-ref==0.1.1 pyyaml==6.0.3`,
    ]);
}
