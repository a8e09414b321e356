/**
 * `workspace_context` asked in process of an engine serving one folder named `ws`, as the meaning
 * tests ask it (five passages).
 */
import type { Engine } from '../../../../server/src/engine/engine';
import { createServices } from '../../../../server/src/services/services';
import { callTool } from '../../../../server/src/tools/callTool';
import { findTool } from '../../../../server/src/tools/registry';
import type { ContextOutput } from '../../../../server/src/tools/workspaceContext';

export async function askEngine(engine: Engine, question: string): Promise<ContextOutput> {
  return (await callTool(
    createServices({ engine }),
    findTool('workspace_context')!,
    { workspace: 'ws', question, limit: 5 },
    { sessionId: 't' },
  )) as ContextOutput;
}
