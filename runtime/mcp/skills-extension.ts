// MCP Skills Extension (SEP-2640): skills/list, skills/get, resources/list and resources/read of skill:// URIs, stage-scoped.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { isSkillgateError } from "../errors.js";
import type { Session } from "../tools/index.js";
import { splitLines } from "../tools/index.js";
import { internalError, invalidParams } from "./rpc-error.js";
import {
  decodeText,
  mimeTypeOf,
  readSkillFile,
  type ServedSkill,
  servedSkills,
  skillEntry,
  skillFiles,
} from "./skill-resources.js";
import { parseSkillUri, skillUri } from "./skill-uri.js";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
/** Entries per skills/list page (an entry is never split across pages). */
export const SKILLS_PAGE_SIZE = 50;
export const RESOURCES_PAGE_SIZE = 200;

// Params are validated here, not by the SDK, so a bad call is -32602 with a readable message rather than -32603.
const request = (method: string) => z.object({ method: z.literal(method), params: z.unknown().optional() });

function params(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalidParams("params must be an object");
  return raw as Record<string, unknown>;
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  const text = typeof cursor === "string" ? Buffer.from(cursor, "base64url").toString() : "";
  const match = /^offset:(\d{1,9})$/.exec(text);
  if (!match) {
    throw invalidParams(
      `Invalid cursor ${JSON.stringify(cursor)}: pass back the nextCursor of the previous page, or no cursor for the first page.`,
    );
  }
  return Number(match[1]);
}

function page<T>(items: T[], cursor: unknown, size: number): { items: T[]; nextCursor?: string } {
  const offset = decodeCursor(cursor);
  const items_ = items.slice(offset, offset + size);
  return offset + size < items.length
    ? { items: items_, nextCursor: encodeCursor(offset + size) }
    : { items: items_ };
}

function requireUri(raw: unknown, method: string): string {
  const uri = params(raw).uri;
  if (typeof uri !== "string" || uri.length === 0) {
    throw invalidParams(`${method} needs params.uri, e.g. "skill://<skill-path>/SKILL.md"`);
  }
  return uri;
}

function notServedMessage(uri: string, served: ServedSkill[], stageName: string | null): string {
  const available = served.map((entry) => skillUri(entry.skill.id, "SKILL.md"));
  return (
    `Unknown skill resource ${uri}: it is not a file of a skill served ${stageName ? `in stage '${stageName}'` : "now"}. ` +
    `Skills are served as ListSkill shows them for the current stage${available.length > 0 ? `: ${available.join(", ")}` : " (none now)"}.`
  );
}

/** Finds the served skill a URI points into (longest id prefix, so nested skills win) and the file below it. */
function locate(served: ServedSkill[], segments: string[]): { served: ServedSkill; file: string } | null {
  let best: { served: ServedSkill; file: string } | null = null;
  for (const entry of served) {
    const id = entry.skill.id.split("/");
    if (id.length >= segments.length || id.some((part, i) => segments[i] !== part)) continue;
    if (!best || id.length > best.served.skill.id.split("/").length) {
      best = { served: entry, file: segments.slice(id.length).join("/") };
    }
  }
  return best;
}

async function stageName(session: Session): Promise<string | null> {
  return (await session.engine.current())?.config.name ?? null;
}

/** Registers the extension's handlers; the capability is declared by createMcpServer. */
export function registerSkillsExtension(
  server: Server,
  session: Session,
  pageSizes: { skills?: number; resources?: number } = {},
): void {
  const skillsPage = pageSizes.skills ?? SKILLS_PAGE_SIZE;
  const resourcesPage = pageSizes.resources ?? RESOURCES_PAGE_SIZE;
  server.setRequestHandler(request("skills/list"), async (req) => {
    const served = await servedSkills(session);
    const { items, nextCursor } = page(served, params(req.params).cursor, skillsPage);
    const skills = await Promise.all(items.map((entry) => skillEntry(session, entry.skill)));
    return nextCursor ? { skills, nextCursor } : { skills };
  });

  server.setRequestHandler(request("skills/get"), async (req) => {
    const uri = requireUri(req.params, "skills/get");
    const served = await servedSkills(session);
    const match = served.find((entry) => skillUri(entry.skill.id, "SKILL.md") === uri);
    if (!match) throw invalidParams(notServedMessage(uri, served, await stageName(session)));
    return { skill: await skillEntry(session, match.skill) };
  });

  server.setRequestHandler(request("resources/list"), async (req) => {
    const served = await servedSkills(session);
    const all: { uri: string; name: string; title?: string; description?: string; mimeType: string }[] = [];
    for (const { skill } of served) {
      for (const file of await skillFiles(session, skill)) {
        const isSkillMd = file === "SKILL.md";
        all.push({
          uri: skillUri(skill.id, file),
          name: isSkillMd ? skill.name : `${skill.name}/${file}`,
          ...(isSkillMd ? { title: `Skill ${skill.id}`, description: skill.description } : {}),
          mimeType: mimeTypeOf(file, true),
        });
      }
    }
    const { items, nextCursor } = page(all, params(req.params).cursor, resourcesPage);
    return nextCursor ? { resources: items, nextCursor } : { resources: items };
  });

  server.setRequestHandler(request("resources/templates/list"), async () => ({ resourceTemplates: [] }));

  server.setRequestHandler(request("resources/read"), async (req) => {
    const uri = requireUri(req.params, "resources/read");
    const parsed = parseSkillUri(uri);
    if ("error" in parsed) throw invalidParams(`Unknown resource: ${parsed.error}.`);
    const served = await servedSkills(session);
    const located = locate(served, parsed.segments);
    const files = located ? await skillFiles(session, located.served.skill) : [];
    if (!located || !files.includes(located.file)) {
      throw invalidParams(notServedMessage(uri, served, await stageName(session)));
    }
    const { skill, stageSkill } = located.served;
    let bytes: Buffer;
    try {
      bytes = await readSkillFile(session, skill, located.file);
    } catch (error) {
      throw invalidParams(`Cannot read ${uri}: ${(error as Error).message}.`);
    }
    const text = decodeText(bytes);
    if (located.file === "SKILL.md" && stageSkill && text !== null) {
      // The whole SKILL.md reached the client: read evidence, exactly as a whole-file ReadTextFile.
      const total = splitLines(text).length;
      try {
        await session.engine.recordRead(skill.id, { startLine: 1, endLine: total, totalLines: total });
      } catch (error) {
        if (!isSkillgateError(error)) throw error;
        throw internalError(`${error.code}: ${error.message}`, { code: error.code });
      }
    }
    const mimeType = mimeTypeOf(located.file, text !== null);
    return {
      contents: [text === null ? { uri, mimeType, blob: bytes.toString("base64") } : { uri, mimeType, text }],
    };
  });
}
