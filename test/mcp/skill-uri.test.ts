// skill:// URIs (SEP-2640): every segment percent-encoded when built, and strict parsing that refuses escapes and queries.
import { describe, expect, it } from "vitest";
import { parseSkillUri, skillUri } from "../../runtime/mcp/skill-uri.js";

describe("skillUri", () => {
  it("encodes each segment of the id and the file, keeping the slashes between them", () => {
    expect(skillUri("review/static-bug-analysis", "SKILL.md")).toBe(
      "skill://review/static-bug-analysis/SKILL.md",
    );
    expect(skillUri("ext/my skill", "scripts/run #1.py")).toBe(
      "skill://ext/my%20skill/scripts/run%20%231.py",
    );
    expect(skillUri("a", "ü?.md")).toBe("skill://a/%C3%BC%3F.md");
  });

  it("round-trips through parseSkillUri", () => {
    const uri = skillUri("ext/grp/skill a", "assets/x%y.txt");
    expect(parseSkillUri(uri)).toEqual({ segments: ["ext", "grp", "skill a", "assets", "x%y.txt"] });
  });
});

describe("parseSkillUri", () => {
  it.each([
    ["file:///etc/passwd", "'file:///etc/passwd' is not a skill:// URI"],
    [
      "skill://a/SKILL.md?x=1",
      "'skill://a/SKILL.md?x=1' has a query or fragment; skill URIs name files only",
    ],
    [
      "skill://a/SKILL.md#top",
      "'skill://a/SKILL.md#top' has a query or fragment; skill URIs name files only",
    ],
    ["skill://a/%E0%A4%A", "'skill://a/%E0%A4%A' has a malformed percent-escape in '%E0%A4%A'"],
    [
      "skill://a/../SKILL.md",
      "'skill://a/../SKILL.md' has an empty, '.', '..' or slash-containing path segment",
    ],
    [
      "skill://a/%2E%2E/SKILL.md",
      "'skill://a/%2E%2E/SKILL.md' has an empty, '.', '..' or slash-containing path segment",
    ],
    ["skill://a/b%2Fc", "'skill://a/b%2Fc' has an empty, '.', '..' or slash-containing path segment"],
    ["skill://a/b%5Cc", "'skill://a/b%5Cc' has an empty, '.', '..' or slash-containing path segment"],
    ["skill://a//SKILL.md", "'skill://a//SKILL.md' has an empty, '.', '..' or slash-containing path segment"],
    [
      "skill://a/./SKILL.md",
      "'skill://a/./SKILL.md' has an empty, '.', '..' or slash-containing path segment",
    ],
    ["skill://SKILL.md", "'skill://SKILL.md' names no file: use skill://<skill-path>/SKILL.md"],
  ])("refuses %s", (uri, error) => {
    expect(parseSkillUri(uri)).toEqual({ error });
  });
});
