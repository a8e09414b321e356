/**
 * get_context's change, as the tool publishes it (tools/getContext.ts): the reasons a page or item
 * can have, the `changes` part of the answer and how it is made from a built bundle, the
 * expectations files a change is checked against, and what the call log keeps of a change.
 */
import * as path from 'node:path';
import { z } from 'zod';
import {
  decodeText,
  EXPECTATIONS_FILE,
  parseExpectations,
  readGuardedBytes,
  usesFolderPrefix,
  workspacePath,
} from '../engine';
import { CHANGE_FILES_LISTED } from '../library/context/change/changeBundle';
import type { ExpectationsSource } from '../library/context/change/changeExpectations';
import type { IdOf } from '../library/context/render';
import type { ChangePart } from '../library/context/types';
import type { Services } from '../services/services';

/** Most bytes of an expectations file read: 1 MiB. */
const MAX_EXPECTATIONS_BYTES = 1024 * 1024;

/** Why a page is in the bundle (pages[] and skipped[]: the published enum, unchanged since before changes). */
export const pageReason = z.enum(['rule', 'pinned', 'recipe', 'use', 'link', 'folder', 'search', 'entity']);

/** Why a change's item is in the bundle (changes.items, and a change's page's `changeReason`). */
export const changeReason = z.enum([
  'owns',
  'depends-on-changed',
  'runbook',
  'doc',
  'rule-applies',
  'epic',
  'expectation',
]);

/**
 * A change's page in pages[] and skipped[]: its reason in the published enum (`rule` for a rule
 * the changed paths fall under, `entity` for an entity's page), its change reason beside it, so a
 * client that knows only the first enum reads every answer.
 */
export function publishedReason(reason: string): {
  reason: z.infer<typeof pageReason>;
  changeReason?: z.infer<typeof changeReason>;
} {
  const change = changeReason.safeParse(reason);
  if (!change.success) return { reason: reason as z.infer<typeof pageReason> };
  return { reason: change.data === 'rule-applies' ? 'rule' : 'entity', changeReason: change.data };
}

/** What a change touches (set when `changes` was given). */
export const changesOutput = z.object({
  from: z.enum(['changedPaths', 'diff']),
  /** Files in the change; `files` lists at most the first 40 (the answer stays sized to the budget). */
  filesTotal: z.number(),
  files: z.array(
    z.object({
      path: z.string(),
      status: z.string(),
      oldPath: z.string().optional(),
      added: z.number().optional(),
      removed: z.number().optional(),
      /** Refs of the entities that own it; empty when none does. */
      owners: z.array(z.string()),
      /** The indexed page the file is, when it is one (page_id for library pages, else its path is its id). */
      pageId: z.string().optional(),
    }),
  ),
  /** The entities owning the change, most changed files first. */
  entities: z.array(
    z.object({
      ref: z.string(),
      kind: z.string(),
      title: z.string().optional(),
      type: z.string().optional(),
      lifecycle: z.string().optional(),
      owner: z.string().optional(),
      /** Why it owns the files: catalog-entry, api-definition, file-name, techdocs-dir, source-location, package, catalog-place. */
      evidence: z.array(z.object({ kind: z.string(), detail: z.string() })),
      files: z.number(),
      provides: z.array(z.string()),
    }),
  ),
  /** Changed paths no entity owns. */
  unowned: z.array(z.string()),
  /** What depends on the owned entities or consumes their APIs (hop 2 only when the budget allowed it). */
  dependents: z.array(
    z.object({
      ref: z.string(),
      owner: z.string().optional(),
      lifecycle: z.string().optional(),
      hop: z.number(),
      via: z.array(z.object({ on: z.string(), relation: z.string(), api: z.string().optional() })),
    }),
  ),
  /** Every item of the change's bundle with its reason; `sent` says whether its page is in the bundle in full. */
  items: z.array(
    z.object({
      reason: changeReason,
      /** owns, depends-on-changed: the entity. */
      ref: z.string().optional(),
      /** Pages: workspace-relative path. */
      path: z.string().optional(),
      /** Library pages: page_id. */
      id: z.string().optional(),
      title: z.string().optional(),
      /** Runbooks, docs, epics: the entity they are for. */
      entity: z.string().optional(),
      /** expectation: the question or task as written. */
      question: z.string().optional(),
      /** The page is in the bundle in full (pages[] has it with why it came); else it is named for the reader to open. */
      sent: z.boolean(),
    }),
  ),
  /** Entries of .wsctx/expectations.yaml whose pages the change edits: run `wsctx check` after it. */
  expectations: z.array(
    z.object({
      file: z.string(),
      line: z.number(),
      question: z.string(),
      task: z.boolean(),
      pages: z.array(z.object({ page: z.string(), kind: z.enum(['expect', 'exclude']) })),
    }),
  ),
  /** The second hop of dependents came (a quarter of the change's budget was still free). */
  secondHop: z.boolean(),
  /** Lines of the diff that could not be read. */
  problems: z.array(z.string()),
});

/** The `changes` part of an answer, from the bundle's change part. */
export function changesOutputOf(part: ChangePart, idOf: IdOf): z.infer<typeof changesOutput> {
  const { analysis } = part;
  const refOf = new Map(analysis.owned.map((e) => [e.key, e.ref]));
  const sent = new Set(part.pages.map((p) => `${p.change?.reason} ${p.doc.id}`));
  const pageIdOf = (doc: { id: string; sourceKind: string }) =>
    doc.sourceKind === 'library' ? idOf(doc.id) : undefined;
  const items: z.infer<typeof changesOutput>['items'] = [];
  const pageItem = (page: ChangePart['pages'][number], isSent: boolean) => {
    const id = pageIdOf(page.doc);
    items.push({
      reason: page.reason as z.infer<typeof changeReason>,
      ...(page.change?.reason === 'owns' || page.change?.reason === 'depends-on-changed'
        ? {}
        : { path: page.doc.path }),
      ...(id ? { id } : {}),
      title: page.doc.title,
      ...(page.change?.entity ? { entity: page.change.entity } : {}),
      sent: isSent,
    });
  };
  for (const entity of analysis.owned) {
    const page = part.pages.find((p) => p.change?.reason === 'owns' && p.change.entity === entity.ref);
    items.push({
      reason: 'owns',
      ref: entity.ref,
      title: entity.title ?? entity.ref,
      sent: page !== undefined,
    });
  }
  const dependents = analysis.dependents.filter((d) => d.hop === 1 || part.secondHop);
  for (const d of dependents) {
    const page = part.pages.find((p) => p.change?.reason === 'depends-on-changed' && p.change.entity === d.ref);
    items.push({
      reason: 'depends-on-changed',
      ref: d.ref,
      sent: page !== undefined,
    });
  }
  for (const page of part.pages)
    if (page.change && page.change.reason !== 'owns' && page.change.reason !== 'depends-on-changed')
      pageItem(page, true);
  for (const skipped of part.skipped) {
    if (
      skipped.reason === 'owns' ||
      skipped.reason === 'depends-on-changed' ||
      sent.has(`${skipped.reason} ${skipped.doc.id}`)
    )
      continue;
    const id = pageIdOf(skipped.doc);
    items.push({
      reason: skipped.reason as z.infer<typeof changeReason>,
      path: skipped.doc.path,
      ...(id ? { id } : {}),
      title: skipped.doc.title,
      sent: false,
    });
  }
  for (const e of analysis.expectations)
    items.push({
      reason: 'expectation',
      path: e.file,
      question: e.question,
      sent: true,
    });
  return {
    from: analysis.from,
    filesTotal: analysis.files.length,
    files: analysis.files.slice(0, CHANGE_FILES_LISTED).map((f) => {
      const id = f.doc ? pageIdOf(f.doc) : undefined;
      return {
        path: f.path,
        status: f.status,
        ...(f.oldPath ? { oldPath: f.oldPath } : {}),
        ...(f.added !== undefined ? { added: f.added, removed: f.removed ?? 0 } : {}),
        owners: f.owners.map((k) => refOf.get(k) ?? k),
        ...(id ? { pageId: id } : {}),
      };
    }),
    entities: analysis.owned.map((e) => ({
      ref: e.ref,
      kind: e.kind,
      ...(e.title ? { title: e.title } : {}),
      ...(e.type ? { type: e.type } : {}),
      ...(e.lifecycle ? { lifecycle: e.lifecycle } : {}),
      ...(e.owner ? { owner: e.owner } : {}),
      evidence: e.evidence.map((v) => ({ kind: v.kind, detail: v.detail })),
      files: e.files.length,
      provides: e.provides,
    })),
    unowned: analysis.unowned,
    dependents: dependents.map((d) => ({
      ref: d.ref,
      ...(d.owner ? { owner: d.owner } : {}),
      ...(d.lifecycle ? { lifecycle: d.lifecycle } : {}),
      hop: d.hop,
      via: d.via.map((v) => ({ on: v.on, relation: v.relation, ...(v.api ? { api: v.api } : {}) })),
    })),
    items,
    expectations: analysis.expectations.map((e) => ({
      file: e.file,
      line: e.line,
      question: e.question,
      task: e.task,
      pages: e.pages,
    })),
    secondHop: part.secondHop,
    problems: analysis.problems,
  };
}

/**
 * Each served folder's `.wsctx/expectations.yaml`, read through the read guard (inside the folder,
 * a regular file, size-capped); a folder without one, or one that cannot be read (an index over a
 * store, whose folders are not on this disk), has none. A broken entry is left out by the parser.
 */
export async function readExpectations(engine: Services['engine']): Promise<ExpectationsSource[]> {
  const out: ExpectationsSource[] = [];
  const prefixed = usesFolderPrefix(engine.folders);
  for (const folder of engine.folders) {
    const read = await readGuardedBytes(
      path.join(folder.absPath, EXPECTATIONS_FILE),
      [folder.absPath],
      MAX_EXPECTATIONS_BYTES,
    );
    if (!read.ok) continue;
    const file = workspacePath(engine.folders, folder.name, EXPECTATIONS_FILE);
    const parsed = parseExpectations(file, decodeText(read.bytes).text);
    out.push({ path: file, prefix: prefixed ? `${folder.name}/` : '', expectations: parsed.expectations });
  }
  return out;
}

/** A change as the call log keeps it: the paths (at most 50) or the diff's size, never the diff. */
export function changesForLog(changes: { changedPaths?: readonly string[]; diff?: string }): Record<string, unknown> {
  if (changes.changedPaths)
    return { changedPaths: changes.changedPaths.slice(0, 50), paths: changes.changedPaths.length };
  return { diffChars: changes.diff?.length ?? 0 };
}
