// The errors of authority mode and the socket transport, each naming the path, the cause and the fix.
import { SkillgateError } from "../errors.js";

export function socketError(path: string, problem: string, fix?: string): SkillgateError {
  return new SkillgateError(
    "SOCKET_UNAVAILABLE",
    `cannot serve on unix socket ${path}: ${problem}${fix ? `; fix: ${fix}` : ""}`,
    { path },
  );
}

export function unreachable(path: string, problem: string, fix: string): SkillgateError {
  return new SkillgateError("AUTHORITY_UNREACHABLE", `${problem}; fix: ${fix}`, { socket: path });
}
