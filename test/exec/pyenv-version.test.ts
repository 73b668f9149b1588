// pyenv's version selection (runtime/exec/pyenv-version.ts): nearest .python-version from the given folder; a planted
// FIFO or link is never read (a FIFO would block the server), it counts as absent.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { pyenvVersions } from "../../runtime/exec/pyenv-version.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

describe("pyenvVersions", () => {
  it("takes PYENV_VERSION, else the nearest .python-version from the folder up, else <root>/version, else system", () => {
    temp = tempRoot("skillgate-pyenv-version-");
    const root = temp.path("root");
    mkdirSync(root);
    mkdirSync(temp.path("ws", "sub"), { recursive: true });
    expect(pyenvVersions(root, {}, temp.path("ws", "sub"))).toEqual(["system"]);
    writeFileSync(temp.path("root", "version"), "3.99.0\n");
    expect(pyenvVersions(root, {}, temp.path("ws", "sub"))).toEqual(["3.99.0"]);
    writeFileSync(temp.path("ws", ".python-version"), "3.98.1\n3.97\n");
    expect(pyenvVersions(root, {}, temp.path("ws", "sub"))).toEqual(["3.98.1", "3.97"]);
    expect(pyenvVersions(root, { PYENV_VERSION: "3.1:3.2" }, temp.path("ws"))).toEqual(["3.1", "3.2"]);
  });

  it.each([
    ["a FIFO", (file: string) => execFileSync("mkfifo", [file])],
    ["a link to a host file", (file: string) => symlinkSync("/etc/hostname", file)],
    ["a folder", (file: string) => mkdirSync(file)],
    ["a file over 4 KiB", (file: string) => writeFileSync(file, `3.98.1${" ".repeat(5000)}\n`)],
  ])("a .python-version that is %s is not read: the root's version applies", (_name, plant) => {
    temp = tempRoot("skillgate-pyenv-planted-");
    mkdirSync(temp.path("root"));
    writeFileSync(temp.path("root", "version"), "3.99.0\n");
    mkdirSync(temp.path("ws"));
    plant(temp.path("ws", ".python-version"));
    expect(pyenvVersions(temp.path("root"), {}, temp.path("ws"))).toEqual(["3.99.0"]);
  });
});
