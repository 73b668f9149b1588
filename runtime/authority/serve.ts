// Starts a socket server for a workspace: plain (same user) or as its authority (separate OS user, guarded state folder).
import { stat, unlink } from "node:fs/promises";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { skillgateHome } from "../config/index.js";
import { isInside, workspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { evidenceLocations } from "../evidence/index.js";
import type { HttpAuthOptions } from "../mcp/index.js";
import { type HttpServing, serveHttp } from "../mcp/index.js";
import type { Session } from "../tools/index.js";
import { type OpenedSession, type OpenSessionOptions, openSession } from "../tools/index.js";
import {
  checkIdentity,
  checkProtectedHardlinks,
  groupsOf,
  type Principal,
  prepareStateFolder,
  refuseForeignState,
  resolveGroup,
  verifyStateFolder,
} from "./mode.js";
import { type ServerRecord, serverRecordFile, writeServerRecord } from "./record.js";
import { type SocketServing, serveSocket } from "./socket-server.js";

export interface SocketServeOptions {
  workspace: string;
  /** Serve as the workspace's authority (separate OS user). */
  authority: boolean;
  /** Allow --authority as the workspace owner (tests only). */
  sameUserOk?: boolean;
  /** Default: <ws>/.ucagent/skillgate/server.sock */
  socket?: string;
  /** Default 0o660. */
  socketMode?: number;
  /** Group name or gid; default: the workspace folder's group in authority mode, the creator's group otherwise. */
  socketGroup?: string;
  /** Also serve Streamable HTTP (the token is checked by runtime/mcp; authority mode requires one). */
  http?: { address: { host: string; port: number }; auth: HttpAuthOptions };
  /** Everything else openSession takes (config file, skill flags, progress printer, env). */
  session: Omit<OpenSessionOptions, "workspace">;
  log: (message: string) => void;
}

export interface SocketServer {
  session: OpenedSession;
  serving: SocketServing;
  record: ServerRecord;
  close(): Promise<void>;
}

export function defaultSocketPath(workspace: string): string {
  return join(workspacePaths(workspace).skillgateDir, "server.sock");
}

function currentPrincipal(): Principal {
  const info = userInfo();
  return { uid: info.uid, gid: info.gid, user: info.username };
}

/** Every evidence operation first re-checks that the state folder is still the authority's own. */
function guardEngine(session: OpenedSession, guard: () => Promise<void>): OpenedSession {
  const engine = new Proxy(session.engine, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "drainWarnings") return value.bind(target);
      return async (...args: unknown[]) => {
        await guard();
        return value.apply(target, args);
      };
    },
  });
  return { ...session, engine } as OpenedSession & Session;
}

export async function startSocketServer(options: SocketServeOptions): Promise<SocketServer> {
  const paths = workspacePaths(options.workspace);
  const self = currentPrincipal();
  const env = options.session.env ?? process.env;
  let socketGid: number | null = options.socketGroup ? resolveGroup(options.socketGroup) : null;
  if (options.authority) {
    const info = await stat(paths.root).catch(() => null);
    if (!info?.isDirectory()) {
      throw new SkillgateError(
        "AUTHORITY_REFUSED",
        `workspace ${paths.root} does not exist; fix: create it as the agent's user (it owns the workspace; the authority only owns .ucagent/skillgate/)`,
        { workspace: paths.root },
      );
    }
    const secret = evidenceLocations(paths, resolve(skillgateHome(env)));
    for (const file of [secret.home, secret.masterKeyFile, secret.identityFile]) {
      if (isInside(paths.root, resolve(file))) {
        throw new SkillgateError(
          "AUTHORITY_REFUSED",
          `the authority's secret ${file} (SKILLGATE_HOME ${secret.home}) is inside the workspace ${paths.root}; fix: point SKILLGATE_HOME at the authority user's own folder`,
          { home: secret.home },
        );
      }
    }
    checkIdentity({
      self,
      workspace: paths.root,
      ownerUid: info.uid,
      ownerGroups: info.uid === self.uid ? null : groupsOf(info.uid),
      sameUserOk: options.sameUserOk === true,
    });
    if (info.uid === self.uid) {
      options.log(
        `--same-user-ok: the authority runs as the workspace owner ${self.user}; nothing is enforced against an agent running as this user (for tests only)`,
      );
    }
    checkProtectedHardlinks();
    // Files the authority and its script runs create in the workspace stay writable for the owner's group
    // (the workspace is shared through a setgid group); the state folder gets its own group and mode 0755.
    process.umask(0o002);
    await prepareStateFolder(paths, self);
    socketGid ??= info.gid;
  } else {
    await refuseForeignState(paths, self.uid);
  }
  const opened = await openSession({
    ...options.session,
    workspace: paths.root,
    resetCheckOnStart: true,
    // The agent can write <ws>/.ucagent/setting.yaml: in authority mode only the operator's config counts.
    workspaceLayer: !options.authority,
  });
  let session = opened;
  if (options.authority) {
    if (await stat(paths.settingFile).catch(() => null)) {
      options.log(
        `workspace config ${paths.settingFile} is not read in authority mode (the agent can write it); put what it should set in the authority's config (--config FILE or its SKILLGATE_HOME/config.yaml)`,
      );
    }
    await verifyStateFolder(paths, self);
    session = guardEngine(opened, () => verifyStateFolder(paths, self));
  }
  const socketPath = resolve(options.socket ?? defaultSocketPath(paths.root));
  const serving = await serveSocket(
    session,
    { path: socketPath, mode: options.socketMode ?? 0o660, gid: socketGid },
    options.log,
  );
  let http: HttpServing | null = null;
  if (options.http) {
    try {
      http = await serveHttp(session, options.http.address, options.log, options.http.auth);
    } catch (error) {
      await serving.close();
      throw error;
    }
  }
  const record: ServerRecord = {
    version: 1,
    mode: options.authority ? "authority" : "socket",
    socket: socketPath,
    workspace: paths.root,
    uid: self.uid,
    user: self.user,
    pid: process.pid,
    started_at: new Date().toISOString(),
    http: http?.url ?? null,
  };
  await writeServerRecord(paths, record);
  return {
    session,
    serving,
    record,
    close: async () => {
      await http?.close();
      await serving.close();
      // An authority keeps its record: clients then say it is down instead of bypassing it.
      if (!options.authority) {
        await unlink(serverRecordFile(paths)).catch(() => undefined);
      }
    },
  };
}
