/**
 * `get_file(page_id)` (docs/ARCHITECTURE.md, get_context's contract): the file attached to a library page (front matter `file:`), as
 * text when it is UTF-8 text, else base64, with its name, size and media type. Only the attached
 * file of a ready page, only inside the workspace folder, at most {@link MAX_FILE_BYTES}; nothing
 * is ever written.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { boundedString, INPUT_LIMITS } from './inputLimits';
import { type WorkspaceIndex, type Doc, baseName, extName, estimateTokens, readGuardedBytes } from '../engine';
import { shownId } from '../library/view/libraryView';
import { COLD_NOTICE, libraryState, logged } from './libraryTool';
import { findPage } from './readPage';
import type { Services } from '../services/services';
import type { ToolDefinition } from './toolDefinition';
import { ToolInputError } from './toolError';

/** Largest attached file served. Default 5 MiB. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Media types by extension; anything else is `application/octet-stream` (or `text/plain` when it reads as text). */
const MEDIA_TYPES: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  xml: 'application/xml',
  html: 'text/html',
  sql: 'application/sql',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const input = {
  page_id: boundedString(INPUT_LIMITS.id)
    .min(1)
    .describe('The page_id of a page with an attached file (get_context and read_page say which pages have one).'),
};

const output = {
  file: z
    .object({
      pageId: z.string(),
      pageTitle: z.string(),
      /** Workspace-relative path. */
      path: z.string(),
      name: z.string(),
      bytes: z.number(),
      mediaType: z.string(),
      encoding: z.enum(['utf8', 'base64']),
      content: z.string(),
      /** Estimated tokens of a text file's content. */
      tokens: z.number().optional(),
    })
    .optional(),
  notice: z.string().optional(),
  degraded: z.array(z.string()),
  indexedAt: z.string().nullable(),
};

export type GetFileOutput = z.infer<z.ZodObject<typeof output>>;

export const getFileTool: ToolDefinition<typeof input, typeof output> = {
  name: 'get_file',
  title: "Get a page's attached file",
  description: [
    'Returns the file attached to a library page (an OpenAPI file, a CSV of alert thresholds, a PDF): text files as text, others base64-encoded, with name, size and media type.',
    'Pass the page_id get_context or read_page printed for a page that says it has an attached file.',
  ].join(' '),
  input,
  output,
  async run(services: Services, args, context) {
    let returned: string | undefined;
    return logged(
      services,
      context,
      'get_file',
      { page_id: args.page_id },
      async (): Promise<GetFileOutput> => {
        const found = await libraryState(services);
        if (found.kind === 'cold') return { notice: COLD_NOTICE, degraded: ['index-cold'], indexedAt: null };
        const doc = findPage(services, found.view, 'page_id', args.page_id, context);
        const id = found.view.docById.has(doc.id) ? shownId(found.view, doc.id) : doc.id.slice(0, 8);
        // A file the page names but indexing did not find is looked at again: it may have been
        // added since, or it is there but not servable (a FIFO), and the answer says which.
        const file = doc.library?.file ?? doc.library?.missingFile;
        // A valid page without a file is an answer, not a mistake: say so and point at the page.
        if (!file)
          return {
            notice: `"${doc.title}" (page_id ${id}) has no attached file; read_page(page_id="${id}") returns the page itself.`,
            degraded: [],
            indexedAt: found.indexedAt,
          };
        const { abs, root } = absolutePath(services.engine, doc, file);
        // Through the read guard: inside the page's folder, a regular file (a FIFO is refused
        // before it is opened, and opened non-blocking), at most MAX_FILE_BYTES actually read.
        const read = await readGuardedBytes(abs, [root], MAX_FILE_BYTES);
        if (!read.ok) {
          if (read.refusal === 'too-large')
            throw new ToolInputError(
              `page_id: the file attached to "${doc.title}" (${file}) is over the ${MAX_FILE_BYTES.toLocaleString('en-US')}-byte limit; open it in the workspace instead.`,
            );
          if (read.refusal === 'unreadable' && /ENOENT|ENOTDIR/.test(read.message))
            throw new ToolInputError(
              `page_id: "${doc.title}" names the attached file ${file} in its front matter, but there is no such file.`,
            );
          if (read.refusal === 'outside')
            throw new ToolInputError(
              `page_id: the file attached to "${doc.title}" (${file}) is outside the workspace folder and is not served.`,
            );
          throw new ToolInputError(
            `page_id: the file attached to "${doc.title}" (${file}) cannot be served: ${read.message}.`,
          );
        }
        const bytes = read.bytes;
        returned = doc.id;
        const text = asText(bytes);
        const ext = extName(file).toLowerCase();
        const mediaType = MEDIA_TYPES[ext] ?? (text !== null ? 'text/plain' : 'application/octet-stream');
        return {
          file: {
            pageId: id,
            pageTitle: doc.title,
            path: file,
            name: baseName(file),
            bytes: bytes.length,
            mediaType,
            encoding: text !== null ? 'utf8' : 'base64',
            content: text ?? bytes.toString('base64'),
            ...(text !== null ? { tokens: estimateTokens(text) } : {}),
          },
          degraded: [],
          indexedAt: found.indexedAt,
        };
      },
      () => ({ resultIds: returned ? [returned] : [], empty: returned === undefined }),
    );
  },
  unreadable: (_args, notice) => ({ notice, degraded: ['scope-unreadable'], indexedAt: null }),
  renderText(out) {
    const file = out.file;
    if (!file) return out.notice ?? 'No file.';
    const head = `${file.name} (${file.mediaType}, ${file.bytes.toLocaleString('en-US')} bytes), attached to "${file.pageTitle}" [page_id: ${file.pageId}]`;
    if (file.encoding === 'utf8') return `${head}\n\n${file.content}`;
    return `${head}\n\nA binary file: its base64 content is in the structured result (file.content).`;
  },
};

/** The attached file's path on disk, and the real path of the folder it must lie in. */
function absolutePath(engine: WorkspaceIndex, doc: Doc, file: string): { abs: string; root: string } {
  const folder = engine.folders.find((f) => f.name === doc.folder) ?? engine.folders[0];
  const rel =
    engine.folders.length > 1 && file.startsWith(`${folder.name}/`) ? file.slice(folder.name.length + 1) : file;
  const abs = path.resolve(folder.absPath, ...rel.split('/'));
  let root = folder.absPath;
  try {
    root = fs.realpathSync(folder.absPath);
  } catch {
    // The folder is gone: the guard then finds the file missing.
  }
  return { abs, root };
}

/** The bytes as text when they are valid UTF-8 without NUL characters; null otherwise. */
function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
