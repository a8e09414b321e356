/**
 * Every place in the workspace that names an entity (find references, link counts): the files the
 * engine indexes plus source code and plain text, whose comments name entities too
 * (`// Consumed by component:checkout-web`). In source code only comments and strings count
 * (entityMentions.ts).
 *
 * Built lazily on the first question and kept until `invalidate()`: the walk honours `.gitignore`
 * and the size and binary caps exactly as the indexing walk does (it is the same walk, with wider
 * globs), and a file whose size and modification time are unchanged since the last walk is not
 * read again.
 */
import type { WorkspaceFolder } from '../indexState';
import type { EntityKey } from '../model';
import { DEFAULT_MAX_FILE_SIZE, discoverWorkspace, type DiscoveredFile } from '../workspace/discovery';
import { WorkspaceReader } from '../workspace/readGuard';
import { DEFAULT_SOURCE_GLOBS, type SourceGlobs } from '../workspace/globs';
import { findEntityMentionsAsync, type EntityMention } from './entityMentions';

/**
 * Files read for mentions besides the indexed sources: source code, configuration and text in
 * common languages. Matched against repository-relative paths, like the source globs.
 */
export const DEFAULT_MENTION_GLOBS: readonly string[] = [
  '**/*.{ts,tsx,js,jsx,mjs,cjs,py,go,kt,kts,java,scala,rb,rs,cs,swift,php,c,h,cc,cpp,hpp}',
  '**/*.{proto,graphql,sql,tf,hcl,sh,bash,toml,ini,txt,rst,adoc,mdx}',
  '**/Dockerfile',
];

/** Files read at once while refreshing. Default 16. */
const READ_CONCURRENCY = 16;

export interface MentionIndexOptions {
  /** The engine's source globs (overrides), so every indexed file is read too. */
  sourceGlobs?: Partial<SourceGlobs>;
  /** Extra files to read for mentions. Default {@link DEFAULT_MENTION_GLOBS}. */
  mentionGlobs?: readonly string[];
  /** Same cap as the engine's. Default 2 MiB. */
  maxFileSize?: number;
}

/** A mention and the workspace-relative path of the file holding it. */
export interface FileMention {
  path: string;
  mention: EntityMention;
}

interface CachedFile {
  size: number;
  mtimeMs: number;
  mentions: EntityMention[];
}

export class MentionIndex {
  private readonly cache = new Map<string, CachedFile>();
  private byKey: Map<EntityKey, FileMention[]> | undefined;
  private building: Promise<Map<EntityKey, FileMention[]>> | undefined;
  private generation = 0;

  private readonly reader: WorkspaceReader;

  constructor(
    private readonly folders: readonly WorkspaceFolder[],
    private readonly options: MentionIndexOptions = {},
  ) {
    this.reader = new WorkspaceReader(folders, options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
  }

  /** Forget what the last walk found; the next question walks again (unchanged files are not re-read). */
  invalidate(): void {
    this.generation++;
    this.byKey = undefined;
    this.building = undefined;
  }

  /** Every mention that resolves to `key`, by path then position. */
  async mentionsOf(key: EntityKey): Promise<FileMention[]> {
    const byKey = await this.ensure();
    return byKey.get(key.toLowerCase()) ?? [];
  }

  /** Paths of every file the last walk read. */
  paths(): string[] {
    return [...this.cache.keys()];
  }

  private ensure(): Promise<Map<EntityKey, FileMention[]>> {
    if (this.byKey) return Promise.resolve(this.byKey);
    if (!this.building) {
      const generation = this.generation;
      this.building = this.build().then((built) => {
        if (generation === this.generation) this.byKey = built;
        return built;
      });
    }
    return this.building;
  }

  private async build(): Promise<Map<EntityKey, FileMention[]>> {
    const globs = { ...DEFAULT_SOURCE_GLOBS, ...stripUndefined(this.options.sourceGlobs ?? {}) };
    const discovery = await discoverWorkspace(this.folders, {
      globs: { ...globs, markdown: [...globs.markdown, ...(this.options.mentionGlobs ?? DEFAULT_MENTION_GLOBS)] },
      maxFileSize: this.options.maxFileSize,
    });
    const seen = new Set(discovery.files.map((f) => f.path));
    for (const path of [...this.cache.keys()]) if (!seen.has(path)) this.cache.delete(path);

    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < discovery.files.length) await this.refreshFile(discovery.files[next++]);
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));

    const byKey = new Map<EntityKey, FileMention[]>();
    for (const file of discovery.files) {
      for (const mention of this.cache.get(file.path)?.mentions ?? []) {
        if (!mention.key) continue;
        const list = byKey.get(mention.key);
        if (list) list.push({ path: file.path, mention });
        else byKey.set(mention.key, [{ path: file.path, mention }]);
      }
    }
    return byKey;
  }

  private async refreshFile(file: DiscoveredFile): Promise<void> {
    const cached = this.cache.get(file.path);
    if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) return;
    const read = await this.reader.readText(file.absPath);
    if (!read.ok) {
      // A file that vanished or cannot be read names nothing; the walk after the next change retries.
      this.cache.delete(file.path);
      return;
    }
    const text = read.text;
    this.cache.set(file.path, {
      size: file.size,
      mtimeMs: file.mtimeMs,
      mentions: await findEntityMentionsAsync(file.path, text),
    });
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
