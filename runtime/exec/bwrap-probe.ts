// Probes whether a bwrap binary can build the sandbox on this host, and which optional options it has.
import { spawn } from "node:child_process";
import { access } from "node:fs/promises";
import { ALL_FEATURES, type BwrapFeatures } from "./bwrap.js";
import { cachedProbePassed, rememberProbePassed } from "./probe-cache.js";

export type { BwrapFeatures } from "./bwrap.js";
export type BwrapProbe = { ok: true; features: BwrapFeatures } | { ok: false; reason: string };

/** Keyed by the binary's path; concurrent first runs share one probe. */
const probeCache = new Map<string, Promise<BwrapProbe>>();

interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  error?: Error;
}

function run(command: string, args: string[], stdout: boolean): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", stdout ? "pipe" : "ignore", "pipe"] });
    let output = "";
    const add = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout?.on("data", add);
    child.stderr?.on("data", add);
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, signal: null, output, error });
    });
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, output });
    });
  });
}

/** Which optional options `bwrap --help` lists. */
async function readFeatures(bwrap: string): Promise<BwrapFeatures> {
  const help = await run(bwrap, ["--help"], true);
  return {
    disableUserns: help.output.includes("--disable-userns"),
    tmpfsSize: help.output.includes("--size"),
  };
}

const PROBE_ARGS = [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
];
const PROBE_TAIL = [
  "--ro-bind",
  "/",
  "/",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--tmpfs",
  "/tmp",
  "--",
  "true",
];

async function probeUncached(bwrap: string, diskCache?: string): Promise<BwrapProbe> {
  if (diskCache !== undefined && (await cachedProbePassed(bwrap, diskCache))) {
    return { ok: true, features: ALL_FEATURES };
  }
  const present = await access(bwrap).then(
    () => true,
    () => false,
  );
  if (!present) return { ok: false, reason: `bubblewrap not found at ${bwrap}` };
  const features = await readFeatures(bwrap);
  const args = [...PROBE_ARGS, ...(features.disableUserns ? ["--disable-userns"] : []), ...PROBE_TAIL];
  const probe = await run(bwrap, args, false);
  if (probe.error) return { ok: false, reason: `${bwrap} could not start: ${probe.error.message}` };
  if (probe.status !== 0) {
    return {
      ok: false,
      reason: `${bwrap} failed its probe (exit ${probe.status ?? probe.signal}): ${probe.output.trim() || "no message"}`,
    };
  }
  if (diskCache !== undefined && features.disableUserns && features.tmpfsSize)
    await rememberProbePassed(bwrap, diskCache);
  return { ok: true, features };
}

/**
 * Whether `bwrap` can build the sandbox here, with its optional features, or the reason (a pass cached per path in
 * the process, a full-feature pass also in `diskCache`, when given, for the next process). A failure is forgotten
 * once answered: a probe killed by its timer under load, or a bwrap installed later, must not refuse a long-running
 * server's every run until it restarts.
 */
export function probeBwrap(bwrap: string, diskCache?: string): Promise<BwrapProbe> {
  let probe = probeCache.get(bwrap);
  if (probe === undefined) {
    const made = probeUncached(bwrap, diskCache);
    probe = made;
    probeCache.set(bwrap, made);
    void made.then((answer) => {
      if (!answer.ok && probeCache.get(bwrap) === made) probeCache.delete(bwrap);
    });
  }
  return probe;
}
