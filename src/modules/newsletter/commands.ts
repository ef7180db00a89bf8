import type { Command } from '../../platform/cli.js';

export const commands: Record<string, Command> = {};
