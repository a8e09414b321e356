/**
 * Loads playwright-core from the harness's tool folder (.vscode-test/tools, installed by
 * scripts/e2e/setup.mjs) instead of the project's dependencies, and types the part of its API
 * the harness uses. The interfaces are a structural subset of playwright-core's own: add a member
 * here, with the same signature, when a helper needs it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { toolsDir } from './paths';

export interface Locator {
  first(): Locator;
  last(): Locator;
  nth(index: number): Locator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  filter(options: { hasText?: string | RegExp; hasNotText?: string | RegExp }): Locator;
  waitFor(options?: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number }): Promise<void>;
  click(options?: { timeout?: number; force?: boolean }): Promise<void>;
  hover(options?: { timeout?: number; force?: boolean }): Promise<void>;
  count(): Promise<number>;
  isVisible(): Promise<boolean>;
  innerText(options?: { timeout?: number }): Promise<string>;
  textContent(options?: { timeout?: number }): Promise<string | null>;
  allInnerTexts(): Promise<string[]>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  evaluateAll<R>(pageFunction: string | ((elements: unknown[]) => R)): Promise<R>;
}

/** An iframe's document, found by a selector (a webview is one iframe inside another). */
export interface FrameLocator {
  frameLocator(selector: string): FrameLocator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  first(): FrameLocator;
}

export interface Page {
  frameLocator(selector: string): FrameLocator;
  goto(
    url: string,
    options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' | 'networkidle' | 'commit' },
  ): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  evaluate<R>(expression: string): Promise<R>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: {
    press(key: string, options?: { delay?: number }): Promise<void>;
    type(text: string, options?: { delay?: number }): Promise<void>;
    insertText(text: string): Promise<void>;
  };
  mouse: {
    move(x: number, y: number, options?: { steps?: number }): Promise<void>;
    click(x: number, y: number, options?: { clickCount?: number }): Promise<void>;
  };
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', listener: (error: Error) => void): void;
  /** Runs `script` in every document the page loads, before the document's own scripts. */
  addInitScript(script: string): Promise<void>;
  /** Makes `window[name](...args)` in the page call `callback` in Node. */
  exposeFunction(name: string, callback: (...args: never[]) => unknown): Promise<void>;
}

/** A raw Chrome DevTools Protocol session on a page (Chromium only). */
export interface CDPSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  on(event: string, listener: (params: never) => void): void;
  detach(): Promise<void>;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
  newCDPSession(page: Page): Promise<CDPSession>;
}

interface Chromium {
  launchPersistentContext(
    userDataDir: string,
    options: {
      executablePath: string;
      headless: boolean;
      args: string[];
      viewport?: { width: number; height: number };
      timeout?: number;
    },
  ): Promise<BrowserContext>;
}

/** Returns playwright-core's `chromium`; throws with the setup command when it is missing. */
export function loadChromium(): Chromium {
  const manifest = path.join(toolsDir, 'package.json');
  if (!existsSync(path.join(toolsDir, 'node_modules', 'playwright-core'))) {
    throw new Error(`e2e: playwright-core is not installed in ${toolsDir}; run \`node scripts/e2e/setup.mjs\``);
  }
  return (createRequire(manifest)('playwright-core') as { chromium: Chromium }).chromium;
}
