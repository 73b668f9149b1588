import { readFileSync } from "node:fs";
import { makeBenchWorkspace } from "/work/main/test/bench/workspace.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const bw = makeBenchWorkspace({ extraSkills: 50 });
const extra = process.argv.slice(2);
const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, "/work/main/dist/runtime/cli/main.js", "serve", "--workspace", bw.ws, "--config", bw.configFile], env: bw.env as any, stderr: "pipe" });
transport.stderr?.on("data", () => undefined);
const client = new Client({ name: "x", version: "0" });
await client.connect(transport);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${transport.pid}/status`, "utf8"))![1]) / 1024;
const out: string[] = [];
for (let i = 1; i <= 30000; i++) {
  await client.callTool({ name: "ListSkill", arguments: {} });
  if (i % 3000 === 0) out.push(`${i}:${rss().toFixed(0)}`);
}
console.log(extra.join(" ") || "default", out.join(" "));
await client.close(); bw.cleanup(); process.exit(0);
