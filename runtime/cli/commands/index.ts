// The list of CLI verbs; each module exports `register(program, io)`.
import type { Command } from "commander";
import type { CliIO } from "../io.js";

export type RegisterCommand = (program: Command, io: CliIO) => void;

export const registeredCommands: RegisterCommand[] = [];
