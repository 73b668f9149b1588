// Who may talk to the HTTP endpoint: a loopback bind or a Bearer token, Origin checked (MCP spec), constant-time compare.
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { SkillgateError } from "../errors.js";

export interface HttpAuthOptions {
  /** Required `Authorization: Bearer <token>` on every request when set. */
  authToken?: string;
  /** Extra browser origins allowed besides the server's own (e.g. an inspector UI). */
  allowedOrigins?: string[];
}

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Reads a token file (first line, trimmed); an empty or unreadable file is a usage error naming the file. */
export function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new SkillgateError(
      "USAGE",
      `--auth-token-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ` +
        "Give a readable file holding the token on its first line.",
    );
  }
  const token = text.split(/\r?\n/)[0]?.trim() ?? "";
  if (token.length === 0) {
    throw new SkillgateError("USAGE", `--auth-token-file ${file} is empty: put the token on its first line.`);
  }
  return token;
}

/** Refuses a non-loopback bind without a token, and tokens too short to resist guessing. */
export function checkBindPolicy(host: string, options: HttpAuthOptions): void {
  if (options.authToken !== undefined && options.authToken.length < 16) {
    throw new SkillgateError(
      "USAGE",
      `The auth token is ${options.authToken.length} characters; use at least 16 (e.g. \`openssl rand -hex 32\`).`,
    );
  }
  if (!isLoopbackHost(host) && options.authToken === undefined) {
    throw new SkillgateError(
      "USAGE",
      `Refusing to serve MCP on ${host}, which is not a loopback address, without authentication: anyone who can ` +
        "reach it could drive the workflow. Add --auth-token-file FILE (or --auth-token TOKEN), or bind 127.0.0.1.",
    );
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

export type GuardVerdict =
  | { ok: true }
  | { ok: false; status: 401 | 403; message: string; headers?: Record<string, string> };

/** Origins a browser page served by this very endpoint would send. */
export function ownOrigins(host: string, port: number): string[] {
  const hosts = isLoopbackHost(host)
    ? ["127.0.0.1", "localhost", "[::1]"]
    : [host.includes(":") ? `[${host}]` : host];
  return hosts.map((name) => `http://${name}:${port}`);
}

/** Origin first (a browser page elsewhere must not reach the server), then the Bearer token. */
export function guardRequest(
  req: IncomingMessage,
  allowedOrigins: Set<string>,
  authToken: string | undefined,
): GuardVerdict {
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
    return {
      ok: false,
      status: 403,
      message:
        `Forbidden: Origin ${origin} is not allowed (only ${[...allowedOrigins].join(", ")}). ` +
        "Start the server with --allow-origin ORIGIN to admit a browser client from elsewhere.",
    };
  }
  if (authToken === undefined) return { ok: true };
  const header = req.headers.authorization ?? "";
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match || !timingSafeEqual(digest(match[1]!), digest(authToken))) {
    return {
      ok: false,
      status: 401,
      message: match
        ? "Unauthorized: the Bearer token is wrong."
        : "Unauthorized: this server needs an `Authorization: Bearer <token>` header (the token of --auth-token-file).",
      headers: { "www-authenticate": 'Bearer realm="skillgate"' },
    };
  }
  return { ok: true };
}
