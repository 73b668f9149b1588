// "Did you mean …?" for every mistyped name (config keys, skill ids, tool names): one nearness rule.
import { distance } from "fastest-levenshtein";

/**
 * The candidates nearest to `name`: all at the smallest case-insensitive edit distance when it is at most
 * max(2, ⌊length/3⌋), in the candidates' order; otherwise the candidates a name of 3+ characters begins
 * (a shortened key, "timeout" for "timeout_seconds", is a likely slip too); otherwise none.
 */
export function nearestNames(name: string, candidates: readonly string[]): string[] {
  const lower = name.toLowerCase();
  let best = Number.POSITIVE_INFINITY;
  let near: string[] = [];
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < best) {
      best = d;
      near = [candidate];
    } else if (d === best) near.push(candidate);
  }
  if (near.length > 0 && best <= Math.max(2, Math.floor(name.length / 3))) return near;
  if (lower.length < 3) return [];
  const prefixed = candidates.find((candidate) => candidate.toLowerCase().startsWith(lower));
  return prefixed === undefined ? [] : [prefixed];
}

/** The one nearest candidate (the first of nearestNames), or undefined. */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  return nearestNames(name, candidates)[0];
}
