// Keeps the ACL grant caches bounded: each area's cache is noted with its roots, and caches of gone, replaced or surplus areas are removed.
import { lstat, mkdir, readdir, readFile, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import lockfile from "proper-lockfile";
import { writeFileAtomic } from "../workspace/index.js";

const FORMAT = 1;
/** Areas kept at most: beyond it the least recently written caches go (each costs its setfacl calls once again). */
export const MAX_GRANT_AREAS = 64;

/** What a note says: the cache's writable roots, each with the identity (`dev:ino`) it had when noted. */
export type AreaNote = ReadonlyArray<readonly [path: string, identity: string]>;

/** One noted area as the pruning pass sees it. */
export interface AreaState {
  key: string;
  /** The note, or null when it cannot be read as one. */
  note: AreaNote | null;
  /** The present identity of each noted root, in the note's order (null: gone). */
  present: ReadonlyArray<string | null>;
  /** Last write of the area's cache or note, in ms. */
  writtenMs: number;
}

/**
 * The keys whose cache and note go: an unreadable note, a root gone or replaced by another folder (its records name
 * entries that no longer exist), then the oldest written beyond `cap`. `keep` (the area in use) is never dropped.
 */
export function staleAreas(areas: readonly AreaState[], keep: string, cap = MAX_GRANT_AREAS): string[] {
  const stale = (area: AreaState): boolean =>
    area.note === null || area.note.some(([, identity], index) => area.present[index] !== identity);
  const dropped = areas.filter((area) => area.key !== keep && stale(area)).map((area) => area.key);
  const live = areas
    .filter((area) => !dropped.includes(area.key))
    .sort((a, b) => b.writtenMs - a.writtenMs || a.key.localeCompare(b.key));
  const surplus = live.filter((area) => area.key !== keep).slice(Math.max(0, cap - 1));
  return [...dropped, ...surplus.map((area) => area.key)];
}

async function identityOf(path: string): Promise<string | null> {
  const info = await lstat(path, { bigint: true }).catch(() => null);
  return info === null ? null : `${info.dev}:${info.ino}`;
}

function parseNote(text: string): AreaNote | null {
  try {
    const data = JSON.parse(text) as { format?: unknown; roots?: unknown };
    if (data.format !== FORMAT || !Array.isArray(data.roots)) return null;
    const roots = data.roots as unknown[];
    const valid = roots.every(
      (root) => Array.isArray(root) && typeof root[0] === "string" && typeof root[1] === "string",
    );
    return valid ? (roots as Array<[string, string]>) : null;
  } catch {
    return null;
  }
}

const mtimeOf = async (path: string): Promise<number> => (await stat(path).catch(() => null))?.mtimeMs ?? 0;

/** The folder of notes beside the caches' own folder (a file in it is never mistaken for a cache). */
export const notesDirFor = (cacheFile: string): string =>
  join(dirname(dirname(cacheFile)), "acl-grant-areas");

/**
 * Notes `cacheFile`'s area (its writable `roots`) before the run uses the cache. Already noted with the same roots:
 * nothing else. A new or replaced area: its old cache goes, the note is written, and one pass prunes the others.
 * Never throws: a cache and its note only ever save setfacl calls, so a failure costs grants made again.
 */
export async function noteGrantArea(cacheFile: string, roots: readonly string[]): Promise<void> {
  try {
    const notes = notesDirFor(cacheFile);
    const key = basename(cacheFile, ".json");
    const noteFile = join(notes, `${key}.json`);
    const identities = await Promise.all(roots.map(identityOf));
    if (identities.includes(null)) return;
    const note: AreaNote = roots.map((root, index) => [root, identities[index] as string]);
    const previous = await readFile(noteFile, "utf8").then(parseNote, () => null);
    if (previous !== null && JSON.stringify(previous) === JSON.stringify(note)) return;
    if (previous !== null) await unlink(cacheFile).catch(() => undefined);
    await mkdir(notes, { recursive: true, mode: 0o700 });
    // No fsync: a note lost in a crash only makes the next run note the area again.
    await writeFileAtomic(noteFile, JSON.stringify({ format: FORMAT, roots: note }), {
      mode: 0o600,
      sync: false,
    });
    await pruneGrantAreas(dirname(cacheFile), notes, key);
  } catch {
    // not pruned now: the next new area prunes
  }
}

/** One pass over every noted area, under the notes folder's lock; a pass already under way elsewhere is enough. */
async function pruneGrantAreas(caches: string, notes: string, keep: string): Promise<void> {
  const release = await lockfile
    .lock(notes, { retries: 0, stale: 30_000, realpath: false })
    .catch(() => null);
  if (release === null) return;
  try {
    // Caches listed before notes: a cache is written after its note, so one listed here has a note listed below.
    const cacheKeys = (await readdir(caches))
      .filter((name) => name.endsWith(".json"))
      .map((n) => basename(n, ".json"));
    const noteKeys = (await readdir(notes))
      .filter((name) => name.endsWith(".json"))
      .map((n) => basename(n, ".json"));
    const areas = await Promise.all(
      noteKeys.map(async (key): Promise<AreaState> => {
        const note = await readFile(join(notes, `${key}.json`), "utf8").then(parseNote, () => null);
        const present = await Promise.all((note ?? []).map(([path]) => identityOf(path)));
        const writtenMs = Math.max(
          await mtimeOf(join(notes, `${key}.json`)),
          await mtimeOf(join(caches, `${key}.json`)),
        );
        return { key, note, present, writtenMs };
      }),
    );
    // A cache without a note (written before notes existed) names no roots to check: it goes too.
    const unnoted = cacheKeys.filter((key) => key !== keep && !noteKeys.includes(key));
    for (const key of [...staleAreas(areas, keep), ...unnoted]) {
      await unlink(join(caches, `${key}.json`)).catch(() => undefined);
      await unlink(join(notes, `${key}.json`)).catch(() => undefined);
    }
  } finally {
    await release().catch(() => undefined);
  }
}
