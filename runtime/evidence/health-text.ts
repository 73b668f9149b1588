// Ledger health as lines for status (tool text and CLI): ok, quarantine notes, a changed workflow, or a refusal.

const GATE_TEXT: Record<string, string> = {
  skills_disabled: "with skills disabled (no skill evidence was required)",
  gate_off: "with the skill gate off (force_use_skill: false)",
};

/** Pure: the lines status shows for a health object from the engine's ledgerHealth(). */
export function ledgerHealthLines(health: Record<string, unknown>): string[] {
  const problem = health.problem as { code: string; message: string } | undefined;
  if (health.health === "refused")
    return [`Evidence ledger: REFUSED [${problem?.code}]: ${problem?.message}`];
  const binding = health.binding as { seq: number; reason: string } | null;
  const lines = [
    `Evidence ledger: ${health.health === "changed" ? "bound workflow differs" : "ok"} (${health.records} records, key ${health.fingerprint ?? "?"}${binding ? `, workflow and pack bound at record ${binding.seq} by ${binding.reason}` : ""}).`,
  ];
  if (problem) lines.push(`  [${problem.code}] ${problem.message}`);
  const notes = (health.quarantined as Array<{ seq: number; lines: number; reasons: string[] }>) ?? [];
  for (const note of notes)
    lines.push(
      `  quarantined at record ${note.seq} (${note.lines} line(s) kept in place, not applied): ${note.reasons.join("; ")}`,
    );
  const completions =
    (health.completions as Array<{ index: number; name: string; gate: string; changed_at?: number }>) ?? [];
  for (const done of completions) {
    const how = GATE_TEXT[done.gate];
    if (how) lines.push(`  stage ${done.index} '${done.name}' was completed ${how}.`);
    if (done.changed_at !== undefined)
      lines.push(
        `  stage ${done.index} '${done.name}' was completed before a workflow or pack change recorded at record ${done.changed_at}.`,
      );
  }
  return lines;
}
