// Parses the --http listen address of `skillgate serve` (HOST:PORT, :PORT or PORT; loopback by default).
import { SkillgateError } from "../errors.js";

/** Parses `HOST:PORT`, `:PORT` or `PORT` (host defaults to 127.0.0.1; port 0 picks a free one). */
export function parseListenAddress(text: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]*):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) {
    throw new SkillgateError(
      "USAGE",
      `--http '${text}' is not a listen address. Use HOST:PORT (e.g. 127.0.0.1:8765), or :0 for a free port on 127.0.0.1.`,
    );
  }
  const host = (match[1] ?? "").replace(/^\[|\]$/g, "") || "127.0.0.1";
  return { host, port };
}
