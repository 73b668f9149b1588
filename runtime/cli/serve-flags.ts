// The flags of `skillgate serve` (stdio, HTTP and authority socket alike) and the HTTP auth options they give.
import { SkillgateError } from "../errors.js";
import { type HttpAuthOptions, readTokenFile } from "../mcp/index.js";
import type { SessionFlags } from "./session-options.js";

export interface ServeFlags extends SessionFlags {
  http?: string;
  authority?: boolean;
  sameUserOk?: boolean;
  socket?: string;
  socketMode?: string;
  socketGroup?: string;
  authToken?: string;
  authTokenFile?: string;
  allowOrigin?: string[];
  /** false with --no-file-tools. */
  fileTools?: boolean;
  dut?: string;
}

/** The HTTP auth options (commander already refused --auth-token together with --auth-token-file). */
export function httpAuthFrom(flags: ServeFlags): HttpAuthOptions {
  if ((flags.authToken ?? flags.authTokenFile ?? flags.allowOrigin) !== undefined && !flags.http) {
    throw new SkillgateError(
      "USAGE",
      "--auth-token, --auth-token-file and --allow-origin apply to --http only.",
    );
  }
  const authToken = flags.authTokenFile !== undefined ? readTokenFile(flags.authTokenFile) : flags.authToken;
  return { authToken, allowedOrigins: flags.allowOrigin };
}
