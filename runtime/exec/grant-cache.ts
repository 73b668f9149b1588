// ACL grants already made, kept on disk: each entry's inode and ctime right after its setfacl, so a later run skips setfacl for what has not changed since.
import { lstat, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../workspace/index.js";

const FORMAT = 1;
/** A cache this large costs more to read than its setfacl calls save: it starts over. */
const MAX_RECORDS = 250_000;

/**
 * One run's view of the cache. Only skips: a record says a grant was made to an inode that has not changed since
 * (any ACL, mode, owner, link count or content change moves its ctime), so a wrong or forged record can only cost
 * the sandbox an access it would otherwise get, never give one.
 */
export interface GrantCache {
  /** The paths among `paths` without a record of grant `spec` in their present state. */
  missing(spec: string, paths: readonly string[]): Promise<string[]>;
  /** `spec` was applied to `paths` (setfacl succeeded). */
  granted(spec: string, paths: readonly string[]): void;
  /**
   * For skillgate's own private folders (the run temp parent): the paths without a record of `spec` made to this
   * very folder (device, inode, birth time) within OWN_RECORD_TTL_MS whose mode still shows `maskBits` (the ACL
   * mask the grant set). Their ctime is not compared: it moves with every workspace's temp folder made inside.
   */
  missingOwn(spec: string, paths: readonly string[], maskBits: number): Promise<string[]>;
  /** `spec` was applied to these own folders (setfacl succeeded). */
  grantedOwn(spec: string, paths: readonly string[]): void;
  /** Records the present state of every path granted in this run and writes the cache when it changed. */
  commit(): Promise<void>;
}

/** How long an own-folder record is trusted: a named entry removed by hand while the mask stays is re-granted by then. */
export const OWN_RECORD_TTL_MS = 10 * 60_000;

/** Own-folder records live beside path records under this prefix (a path record's key is absolute, never NUL). */
const OWN = "\u0000own\u0000";

async function identityOf(path: string): Promise<{ id: string; mode: number } | null> {
  const info = await lstat(path, { bigint: true }).catch(() => null);
  if (info === null || !info.isDirectory()) return null;
  return { id: `${info.dev}:${info.ino}:${info.birthtimeNs}`, mode: Number(info.mode) };
}

interface Entry {
  state: string;
  specs: Set<string>;
}

async function stateOf(path: string): Promise<string | null> {
  const info = await lstat(path, { bigint: true }).catch(() => null);
  return info === null ? null : `${info.dev}:${info.ino}:${info.ctimeNs}`;
}

/** The records in `file`, or none when it is missing, not ours, writable by others or not in this format. */
async function readRecords(file: string): Promise<Map<string, Entry>> {
  const records = new Map<string, Entry>();
  try {
    const handle = await open(file, "r");
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.uid !== process.getuid?.() || (info.mode & 0o022) !== 0) return records;
      const data = JSON.parse(await handle.readFile("utf8")) as { format?: unknown; records?: unknown };
      if (data.format !== FORMAT || typeof data.records !== "object" || data.records === null) return records;
      for (const [path, value] of Object.entries(data.records as Record<string, unknown>)) {
        if (!Array.isArray(value) || typeof value[0] !== "string" || !Array.isArray(value[1])) continue;
        const specs = value[1].filter((spec): spec is string => typeof spec === "string");
        records.set(path, { state: value[0], specs: new Set(specs) });
      }
    } finally {
      await handle.close();
    }
  } catch {
    // no cache: every grant is made
  }
  return records;
}

/** The grant cache kept in `file` (under skillgate's home, outside every sandbox bind). */
export async function openGrantCache(file: string): Promise<GrantCache> {
  // Read at every run: another process (a CLI call beside a server) may have granted or changed entries since.
  const shared = await readRecords(file);
  // Paths this run granted: their ctime moved with our own setfacl, so their record is checked at commit only.
  const touched = new Map<string, Set<string>>();
  // Paths whose record matched their state before this run changed anything: all their recorded grants hold.
  const verified = new Set<string>();
  const ownTouched = new Map<string, Set<string>>();
  return {
    async missingOwn(spec, paths, maskBits) {
      const now = Date.now();
      const infos = await Promise.all(paths.map(identityOf));
      return paths.filter((path, index) => {
        const info = infos[index];
        const entry = shared.get(OWN + path);
        if (info === null || info === undefined || entry === undefined || !entry.specs.has(spec)) return true;
        const [id, at] = entry.state.split("@");
        const age = now - Number(at);
        return (
          id !== info.id || !(age >= 0 && age < OWN_RECORD_TTL_MS) || (info.mode & maskBits) !== maskBits
        );
      });
    },
    grantedOwn(spec, paths) {
      for (const path of paths) ownTouched.set(path, new Set([...(ownTouched.get(path) ?? []), spec]));
    },
    async missing(spec, paths) {
      const check = (path: string): boolean =>
        !touched.get(path)?.has(spec) &&
        shared.get(path)?.specs.has(spec) === true &&
        !verified.has(path) &&
        !touched.has(path);
      const states = await Promise.all(paths.map((path) => (check(path) ? stateOf(path) : null)));
      return paths.filter((path, index) => {
        if (touched.get(path)?.has(spec)) return false;
        const entry = shared.get(path);
        if (entry === undefined || !entry.specs.has(spec)) return true;
        if (verified.has(path)) return false;
        if (touched.has(path) || states[index] !== entry.state) return true;
        verified.add(path);
        return false;
      });
    },
    granted(spec, paths) {
      for (const path of paths) {
        let specs = touched.get(path);
        if (specs === undefined) {
          specs = new Set();
          touched.set(path, specs);
        }
        specs.add(spec);
      }
    },
    async commit() {
      if (touched.size === 0 && ownTouched.size === 0) return;
      const owned = [...ownTouched];
      const ids = await Promise.all(owned.map(([path]) => identityOf(path)));
      const now = Date.now();
      owned.forEach(([path, specs], index) => {
        const id = ids[index]?.id;
        if (id === undefined) {
          shared.delete(OWN + path);
          return;
        }
        // The record's age restarts with this grant: only the specs granted now are in it.
        shared.set(OWN + path, { state: `${id}@${now}`, specs: new Set(specs) });
      });
      ownTouched.clear();
      const paths = [...touched.keys()];
      const states = await Promise.all(paths.map(stateOf));
      paths.forEach((path, index) => {
        const state = states[index];
        const entry = shared.get(path);
        if (state === null || state === undefined) {
          shared.delete(path);
          return;
        }
        const kept = verified.has(path) && entry !== undefined ? entry.specs : [];
        const specs = new Set([...kept, ...(touched.get(path) ?? [])]);
        shared.set(path, { state, specs });
      });
      touched.clear();
      verified.clear();
      if (shared.size > MAX_RECORDS) shared.clear();
      const out: Record<string, [string, string[]]> = {};
      for (const [path, entry] of shared) out[path] = [entry.state, [...entry.specs]];
      try {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        // No fsync: a cache torn by a crash fails to parse and is ignored.
        await writeFileAtomic(file, JSON.stringify({ format: FORMAT, records: out }), {
          mode: 0o600,
          sync: false,
        });
      } catch {
        // not kept: the next process makes its grants again
      }
    },
  };
}
