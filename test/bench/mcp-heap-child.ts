// Child of mcp.bench.ts (run with node --expose-gc): ListSkill through the real MCP server and SDK client in memory; prints heap after full GCs.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "../../runtime/mcp/server.js";
import { makeBenchWorkspace } from "./workspace.js";

const CHECKPOINTS = [1_000, 10_000];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

function heapAfterGcMiB(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().heapUsed / 1048576;
}

const bw = makeBenchWorkspace({ extraSkills: 50 });
try {
  const session = await bw.open();
  const server = createMcpServer(session, { log: () => undefined, inFlight: new Set() });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "skillgate-bench", version: "0.0.0" });
  await client.connect(clientSide);
  const heap: Record<number, number> = {};
  for (let call = 1; call <= (CHECKPOINTS.at(-1) as number); call++) {
    const result = await client.callTool({ name: "ListSkill", arguments: {} });
    if (result.isError) throw new Error(`ListSkill failed: ${JSON.stringify(result.content)}`);
    if (CHECKPOINTS.includes(call)) heap[call] = heapAfterGcMiB();
  }
  await client.close();
  process.stdout.write(`${JSON.stringify({ heap })}\n`);
} finally {
  bw.cleanup();
}
process.exit(0);
