/**
 * Publishing the workspace's diagnostics after each pass, in two steps: what the index itself says
 * (diagnostics.ts `PASS_SOURCES`) at once, then the expectations file's failures when its questions
 * have been answered. The expectations run workspace_context and get_context, and on a first open
 * those wait for the embedding model to load (seconds on a loaded machine): the index is in
 * service, and the status says so, long before.
 *
 * Each URI gets the union of both sets; a URI that has neither any more is cleared. A newer pass
 * makes an older pass's expectations stale: their answer is dropped when it comes.
 */
import type { Diagnostic } from 'vscode-languageserver';
import {
  collectDiagnostics,
  EXPECTATION_SOURCES,
  PASS_SOURCES,
  toLspDiagnostics,
  type DiagnosticInput,
} from './diagnostics';
import type { DocumentStore } from './documents';

export class DiagnosticsPublisher {
  private fromPass = new Map<string, Diagnostic[]>();
  private fromExpectations = new Map<string, Diagnostic[]>();
  private published = new Set<string>();
  private generation = 0;
  private expectationsRun: Promise<void> = Promise.resolve();

  constructor(
    private readonly publish: (uri: string, diagnostics: Diagnostic[]) => void,
    private readonly documents: DocumentStore,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Publishes the pass's own diagnostics and resolves; then runs the expectations (when the input
   * has them) and publishes theirs when they are in.
   */
  async publishPass(input: DiagnosticInput): Promise<void> {
    const generation = ++this.generation;
    const byUri = await toLspDiagnostics(await collectDiagnostics(input, PASS_SOURCES), input, this.documents);
    if (generation !== this.generation) return;
    this.fromPass = byUri;
    this.flush();
    if (input.expectations) this.expectationsRun = this.publishExpectations(generation, input);
  }

  /** Resolves when the latest pass's expectations are published (or failed, logged). */
  settled(): Promise<void> {
    return this.expectationsRun;
  }

  private async publishExpectations(generation: number, input: DiagnosticInput): Promise<void> {
    const started = performance.now();
    try {
      const items = await collectDiagnostics(input, EXPECTATION_SOURCES);
      if (generation !== this.generation) return;
      this.fromExpectations = await toLspDiagnostics(items, input, this.documents);
      this.flush();
      const failing = items.filter((d) => d.code === 'expectation.failed').length;
      this.log(
        `[expectations] checked in ${Math.round(performance.now() - started)} ms: ${failing === 0 ? 'every expectation holds' : `${failing} failing`}${items.length > failing ? `, ${items.length - failing} problems in the file` : ''}`,
      );
    } catch (error) {
      this.log(`[expectations] ${(error as Error).stack ?? error}`);
    }
  }

  private flush(): void {
    const uris = new Set([...this.fromPass.keys(), ...this.fromExpectations.keys()]);
    for (const uri of uris)
      this.publish(uri, [...(this.fromPass.get(uri) ?? []), ...(this.fromExpectations.get(uri) ?? [])]);
    for (const uri of this.published) if (!uris.has(uri)) this.publish(uri, []);
    this.published = uris;
  }
}
