/**
 * The MCP server's `instructions`: what the server holds and how to use its tools, with the
 * library's paragraph (and its pinned documents, whole) once the first pass is in service.
 */
import type { WorkspaceIndex } from '../engine';
import { libraryInstructions } from '../library/view/pinned';

/** Text for an MCP server's `instructions`, from the engine's folders and its current state. */
export function serverInstructions(engine: WorkspaceIndex): string {
  const names = engine.folders.map((f) => f.name).join(', ');
  return [
    `Workspace Context serves the knowledge of the workspace folder(s) ${names}: the Backstage catalog and its component graph, docs attached to catalog entities, repository overviews, epic specs, and the team's rules and instructions library.`,
    'Ask workspace_context a plain question when you do not know which entity or document you need; every passage comes with its source, commit and a why[] that explains its score.',
    'Use workspace_expand once you know the entity, to walk what it depends on (direction "out") or what depends on it ("in").',
    "Before writing or changing something, call get_context with the task in plain words: it returns the team's rules (always follow them) and the reference pages and excerpts that apply, within a token budget. Use get_toc, get_section and search_instructions to browse or search the instructions library yourself, read_page for a whole page and get_file for a page's attachment.",
    `Pass the workspace folder name as \`workspace\` (${names}).`,
    libraryInstructions(engine.current()),
  ]
    .filter(Boolean)
    .join('\n');
}
