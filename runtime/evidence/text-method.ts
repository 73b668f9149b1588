// The text-method rule, written once: a skill without scripts cannot be seen in use, so an accepted use: true counts.
import type { StageSkillInfo } from "./context.js";
import type { UsageClaim } from "./state.js";

/** A skill with no script is a text method: the agent applies it by hand, so use is claimed, not observed. */
export function isTextMethod(info: Pick<StageSkillInfo, "scripts"> | undefined): boolean {
  return (info?.scripts.length ?? 0) === 0;
}

/** Used: a successful RunSkillScript was observed, or (text method only) the accepted SetSkillUsage claimed use: true. */
export function countsAsUsed(
  observedUse: boolean,
  textMethod: boolean,
  claim: UsageClaim | undefined,
): boolean {
  return observedUse || (textMethod && claim?.use === true);
}
