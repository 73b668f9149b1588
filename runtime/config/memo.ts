// Memo of resolved configs keyed by the exact bytes of every layer: a start whose config files are unchanged skips YAML, the zod schema and its validation.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { SkillgateConfig } from "./schema.js";

/** A resolved config and the layers it came from (what loadConfig returns). */
export interface MemoResult {
  config: SkillgateConfig;
  sources: string[];
}

/** Where memo entries live (IO passed in; workspace/ has the file-backed one). */
export interface ConfigMemo {
  /** Identity of the code that resolves configs: an entry written by other code never matches. */
  build: string;
  /** The text stored under `slot`, or null. */
  read(slot: string): Promise<string | null>;
  /** Replaces the text under `slot` (atomically); failures are the caller's to ignore. */
  write(slot: string, text: string): Promise<void>;
}

/** What the resolved config is a function of: the layer files asked for, their exact texts and the flags. */
export interface MemoQuestion {
  files: ReadonlyArray<{ file: string; role: string; optional: boolean; baseDir: string }>;
  flags: unknown;
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** One slot per question (files + flags), so a changed file replaces its entry instead of adding one. */
const slotOf = (memo: ConfigMemo, question: MemoQuestion) =>
  digest(JSON.stringify([memo.build, question.files, question.flags])).slice(0, 32);

const keyOf = (memo: ConfigMemo, question: MemoQuestion, texts: readonly (string | null)[]) =>
  digest(JSON.stringify([memo.build, question.files, question.flags, texts]));

/** The config resolved earlier from exactly these texts, or null (no entry, another key, an unreadable entry). */
export async function recallConfig(
  memo: ConfigMemo,
  question: MemoQuestion,
  texts: readonly (string | null)[],
): Promise<MemoResult | null> {
  const stored = await memo.read(slotOf(memo, question)).catch(() => null);
  if (stored === null) return null;
  try {
    const entry = JSON.parse(stored) as { key?: unknown; result?: MemoResult };
    if (entry.key !== keyOf(memo, question, texts) || typeof entry.result !== "object") return null;
    const { config, sources } = entry.result;
    if (typeof config !== "object" || config === null || !Array.isArray(sources)) return null;
    return { config, sources };
  } catch {
    return null;
  }
}

/** Stores a resolved config, unless JSON cannot carry it exactly (e.g. `.inf`); a failed write only costs the next start. */
export async function rememberConfig(
  memo: ConfigMemo,
  question: MemoQuestion,
  texts: readonly (string | null)[],
  result: MemoResult,
): Promise<void> {
  const text = JSON.stringify({ key: keyOf(memo, question, texts), result });
  if (!isDeepStrictEqual(JSON.parse(text).result, result)) return;
  await memo.write(slotOf(memo, question), text).catch(() => undefined);
}
