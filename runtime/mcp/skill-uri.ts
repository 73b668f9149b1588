// skill://<skill-path>/<file-path> URIs of the MCP Skills Extension (SEP-2640): building and strict parsing.

export const SKILL_SCHEME = "skill://";

function encodeSegments(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** `skill://<id>/<file>` with every segment percent-encoded (ids and files are "/"-separated). */
export function skillUri(skillId: string, file: string): string {
  return `${SKILL_SCHEME}${encodeSegments(skillId)}/${encodeSegments(file)}`;
}

/** The decoded path segments of a skill:// URI, or a reason it is not one we can serve. */
export function parseSkillUri(uri: string): { segments: string[] } | { error: string } {
  if (!uri.startsWith(SKILL_SCHEME)) return { error: `'${uri}' is not a skill:// URI` };
  const rest = uri.slice(SKILL_SCHEME.length);
  if (/[?#]/.test(rest)) return { error: `'${uri}' has a query or fragment; skill URIs name files only` };
  const segments: string[] = [];
  for (const raw of rest.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { error: `'${uri}' has a malformed percent-escape in '${raw}'` };
    }
    if (
      segment === "" ||
      segment === "." ||
      segment === ".." ||
      segment.includes("/") ||
      segment.includes("\\")
    ) {
      return { error: `'${uri}' has an empty, '.', '..' or slash-containing path segment` };
    }
    segments.push(segment);
  }
  if (segments.length < 2) return { error: `'${uri}' names no file: use skill://<skill-path>/SKILL.md` };
  return { segments };
}
