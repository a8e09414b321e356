/**
 * The legacy `dylink` section rewritten as `dylink.0`: on a real grammar from tree-sitter-wasms
 * (the same four numbers, everything after the section byte for byte) and on a hand-made module
 * that needs a library; anything else passes through untouched.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { upgradeDylinkSection } from '../../../../server/src/engine/parsing/dylinkSection';
import { defaultGrammarDir } from '../../../../server/src/engine/parsing/syntaxTree';

// The project's `lib` has no DOM, so the WebAssembly global is typed here for what the test uses.
interface WasmModuleApi {
  new (bytes: Uint8Array): object;
  customSections(module: object, name: string): ArrayBuffer[];
  imports(module: object): unknown[];
  exports(module: object): unknown[];
}
const WasmModule = (globalThis as unknown as { WebAssembly: { Module: WasmModuleApi } }).WebAssembly.Module;

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const ascii = (text: string) => [...Buffer.from(text, 'ascii')];

/** A module holding only a custom section `name` with `payload`. */
function customModule(name: string, payload: number[]): Uint8Array {
  const body = [name.length, ...ascii(name), ...payload];
  return Uint8Array.from([...HEADER, 0, body.length, ...body]);
}

const section = (module: Uint8Array, name: string) =>
  WasmModule.customSections(new WasmModule(module), name).map((s) => [...new Uint8Array(s)]);

describe('dylink section upgrade', () => {
  it('rewrites a tree-sitter-wasms grammar: same memory and table figures, same code', () => {
    const original = new Uint8Array(fs.readFileSync(path.join(defaultGrammarDir(), 'tree-sitter-go.wasm')));
    const legacy = section(original, 'dylink');
    assert.equal(legacy.length, 1);
    assert.deepEqual(section(original, 'dylink.0'), []);

    const upgraded = upgradeDylinkSection(original);
    assert.deepEqual(section(upgraded, 'dylink'), []);
    // Legacy payload: four LEB128 figures then a count of needed libraries (zero here).
    const figures = legacy[0].slice(0, -1);
    assert.equal(legacy[0].at(-1), 0);
    assert.deepEqual(section(upgraded, 'dylink.0'), [[1, figures.length, ...figures]]);

    // The section is still first, and every byte after it is the original's.
    const legacyEnd = 8 + 1 + 1 + 7 + legacy[0].length; // id, size (one byte here), name
    assert.equal(original[8 + 1], 1 + 6 + legacy[0].length);
    assert.deepEqual(upgraded.subarray(upgraded.length - (original.length - legacyEnd)), original.subarray(legacyEnd));
    const modules = [original, upgraded].map((bytes) => new WasmModule(bytes));
    assert.deepEqual(WasmModule.imports(modules[1]), WasmModule.imports(modules[0]));
    assert.deepEqual(WasmModule.exports(modules[1]), WasmModule.exports(modules[0]));
  });

  it('carries the needed libraries into their own subsection', () => {
    const legacy = customModule('dylink', [0x80, 0x01, 2, 3, 0, 1, 9, ...ascii('libfoo.so')]);
    assert.deepEqual(section(upgradeDylinkSection(legacy), 'dylink.0'), [
      [1, 5, 0x80, 0x01, 2, 3, 0, 2, 11, 1, 9, ...ascii('libfoo.so')],
    ]);
  });

  it('returns anything else as it came', () => {
    const current = customModule('dylink.0', [1, 4, 0, 0, 0, 0]);
    assert.equal(upgradeDylinkSection(current), current);
    const other = customModule('name', [0]);
    assert.equal(upgradeDylinkSection(other), other);
    const text = new TextEncoder().encode('not wasm at all');
    assert.equal(upgradeDylinkSection(text), text);
    const truncated = Uint8Array.from([...HEADER, 0, 20, 6, ...ascii('dylink'), 0x80]);
    assert.equal(upgradeDylinkSection(truncated), truncated);
  });
});
