/**
 * Whether each served folder is still there. A folder can disappear under a running server
 * (deleted and re-created by a tool, an unmounted drive, a renamed checkout); the engine then keeps
 * answering from its last index, flagged `workspace-missing`, instead of indexing an empty folder,
 * and looks for the folder's return every `pollMs`, so that it is indexed again with no restart.
 */
import { promises as fs } from 'node:fs';

export class FolderPresence {
  private missingNames: readonly string[] = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param folders the served folders
   * @param pollMs how often a missing folder is looked for (at least 50 ms)
   * @param onReturn called once every missing folder is back
   */
  constructor(
    private readonly folders: readonly { name: string; absPath: string }[],
    private readonly pollMs: number,
    private readonly onReturn: () => void,
  ) {}

  /** Names of the folders found missing by the last check, in folder order. */
  get missing(): readonly string[] {
    return this.missingNames;
  }

  /** Checks every folder now; starts looking for the return of those missing. */
  async check(): Promise<readonly string[]> {
    const present = await Promise.all(this.folders.map((folder) => isDirectory(folder.absPath)));
    this.missingNames = this.folders.filter((_, i) => !present[i]).map((folder) => folder.name);
    if (this.missingNames.length > 0) this.watchForReturn();
    return this.missingNames;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private watchForReturn(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        void this.check().then((missing) => {
          if (missing.length > 0 || !this.timer) return;
          this.dispose();
          this.onReturn();
        });
      },
      Math.max(50, this.pollMs),
    );
    // Looking for a folder never keeps a process alive on its own.
    this.timer.unref();
  }
}

async function isDirectory(absPath: string): Promise<boolean> {
  try {
    return (await fs.stat(absPath)).isDirectory();
  } catch {
    return false;
  }
}
