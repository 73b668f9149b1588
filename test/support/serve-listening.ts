// Waiting for a `serve --http` child to print its "listening" line: the URL it bound, or its exit before that.
import type { ChildProcess } from "node:child_process";

/** Resolves with the URL of the first stdout line that names "listening"; rejects with `log()` if it exits first. */
export function listeningUrl(child: ChildProcess, log: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n").find((text) => text.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`serve --http exited ${code} before listening: ${log()}`)));
  });
}
