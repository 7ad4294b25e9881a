import { z } from 'zod';
import type { LanguageService } from '../languagePort';
import { editFileTool } from './editFile';
import { executeCommandTool } from './executeCommand';
import { listDefinitionsTool } from './listDefinitions';
import { listFilesTool } from './listFiles';
import { LSP_TOOLS } from './lspTools';
import { readFileTool } from './readFile';
import { searchFilesTool } from './searchFiles';
import type { Tool } from './tool';
import { writeFileTool } from './writeFile';

/** The Task's workspace tools, in the order the model sees them (a stable order keeps the cached system prefix stable). */
export const WORKSPACE_TOOLS: readonly Tool[] = [
  readFileTool,
  listFilesTool,
  searchFilesTool,
  listDefinitionsTool,
  writeFileTool,
  editFileTool,
  executeCommandTool,
];

/**
 * A session's workspace tools: `WORKSPACE_TOOLS`, then the five LSP tools when the session has a
 * language service. Appended, so a session without one sends the same bytes as before.
 */
export function workspaceTools(language: LanguageService | undefined): readonly Tool[] {
  return language ? [...WORKSPACE_TOOLS, ...LSP_TOOLS] : WORKSPACE_TOOLS;
}

/** One entry of the Messages API `tools` array. */
export interface ApiToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/**
 * The `tools` array for the API, from each tool's zod schema (`io: 'input'`, so fields with
 * defaults are optional to the model). Deterministic: same tools, same bytes.
 */
export function toolDefinitionsForApi(tools: readonly Tool[] = WORKSPACE_TOOLS): ApiToolDefinition[] {
  return tools.map((tool) => {
    const { $schema: _dropped, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
    return { name: tool.name, description: tool.description, input_schema: { ...schema, type: 'object' } };
  });
}

export function findTool(name: string, tools: readonly Tool[] = WORKSPACE_TOOLS): Tool | undefined {
  return tools.find((t) => t.name === name);
}
