/**
 * The words "Context for my change" shows in the status bar and `@context /change` in chat, from
 * the server's ChangeContextResult. Workspace text (paths, titles, questions) goes through
 * shared/markdown.ts, so nothing in it is read as Markdown. Imports no `vscode` (unit tests load it).
 */
import { markdownText } from '../../shared/markdown';
import type { ChangeContextResult } from '../../shared/protocol';

/** "3 files in component:default/billing-worker, component:default/invoice-api; 1 owned by none". */
export function changeSummary(result: ChangeContextResult): string {
  const entities = result.entities.length > 0 ? `in ${result.entities.join(', ')}` : 'owned by no entity';
  const unowned =
    result.entities.length > 0 && result.unowned.length > 0 ? `; ${result.unowned.length} owned by none` : '';
  return `${result.files} ${result.files === 1 ? 'file' : 'files'} ${entities}${unowned}`;
}

/** The order and words each reason is listed under. */
const REASONS: readonly [reason: string, heading: string][] = [
  ['owns', 'Owned by'],
  ['depends-on-changed', 'Depends on what changed'],
  ['rule-applies', 'Rules for the changed paths'],
  ['runbook', 'Runbooks'],
  ['doc', 'Docs'],
  ['epic', 'Epics'],
  ['expectation', 'Expectations it touches (run `wsctx check`)'],
];

/** The chat answer: what changed, then every item under its reason; `*` marks what the bundle did not send whole. */
export function changeChatMarkdown(result: ChangeContextResult): string {
  const lines = [
    `**Context for my change** (${markdownText(result.compared)}): ${markdownText(changeSummary(result))}.`,
  ];
  for (const [reason, heading] of REASONS) {
    const items = result.items.filter((i) => i.reason === reason);
    if (items.length === 0) continue;
    lines.push('', `**${heading}**`);
    for (const item of items)
      lines.push(
        `- ${markdownText(item.label)}${item.path && item.path !== item.label ? ` (${markdownText(item.path)})` : ''}${item.sent ? '' : ' *'}`,
      );
  }
  if (result.unowned.length > 0)
    lines.push('', `**Owned by no entity**: ${result.unowned.map((p) => markdownText(p)).join(', ')}`);
  if (result.items.some((i) => !i.sent))
    lines.push('', '\\* not in the bundle in full (the budget): open it by its path.');
  return lines.join('\n');
}
