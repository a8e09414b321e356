/**
 * Rewrites a WebAssembly side module's legacy `dylink` section into the `dylink.0` form that
 * current loaders read.
 *
 * Why: the grammars in `tree-sitter-wasms` 0.1.13 were built by tree-sitter-cli 0.20 with an
 * emscripten that wrote the legacy section; web-tree-sitter 0.27 refuses them ("need the dylink
 * section to be first" is what its check means). The two forms carry the same facts, laid out
 * differently (WebAssembly tool-conventions, DynamicLinking.md, "dylink.0" since 2021):
 *
 * - legacy `dylink`: memorySize, memoryAlignment, tableSize, tableAlignment (LEB128 each), then
 *   the needed libraries as a counted list of strings;
 * - `dylink.0`: subsections `type:u8 size:LEB128 payload`; WASM_DYLINK_MEM_INFO (1) holds the same
 *   four numbers, WASM_DYLINK_NEEDED (2) the same list.
 *
 * Only that first custom section changes; code, data, imports and exports are kept byte for byte.
 */

const MAGIC_AND_VERSION = 8;
const CUSTOM_SECTION = 0;
const MEM_INFO = 1;
const NEEDED = 2;

/**
 * The module with its legacy `dylink` section rewritten as `dylink.0`; any other input (a module
 * already in the new form, one with no dylink section, bytes that are not WebAssembly) is returned
 * as it came, for the loader to accept or refuse.
 */
export function upgradeDylinkSection(module: Uint8Array): Uint8Array {
  if (
    module.length <= MAGIC_AND_VERSION ||
    module[0] !== 0 ||
    module[1] !== 0x61 ||
    module[2] !== 0x73 ||
    module[3] !== 0x6d
  )
    return module;
  if (module[MAGIC_AND_VERSION] !== CUSTOM_SECTION) return module;
  try {
    const size = readLeb(module, MAGIC_AND_VERSION + 1);
    const sectionEnd = size.next + size.value;
    const nameLength = readLeb(module, size.next);
    const nameEnd = nameLength.next + nameLength.value;
    if (sectionEnd > module.length || nameEnd > sectionEnd) return module;
    if (new TextDecoder().decode(module.subarray(nameLength.next, nameEnd)) !== 'dylink') return module;

    let at = nameEnd;
    for (let field = 0; field < 4; field++) at = readLeb(module, at).next;
    const memInfo = module.subarray(nameEnd, at);
    const neededCount = readLeb(module, at);
    const needed = module.subarray(at, sectionEnd);

    const name = new TextEncoder().encode('dylink.0');
    const payload: number[] = [...writeLeb(name.length), ...name, MEM_INFO, ...writeLeb(memInfo.length), ...memInfo];
    if (neededCount.value > 0) payload.push(NEEDED, ...writeLeb(needed.length), ...needed);
    const header = [CUSTOM_SECTION, ...writeLeb(payload.length)];

    const out = new Uint8Array(MAGIC_AND_VERSION + header.length + payload.length + (module.length - sectionEnd));
    out.set(module.subarray(0, MAGIC_AND_VERSION), 0);
    out.set(header, MAGIC_AND_VERSION);
    out.set(payload, MAGIC_AND_VERSION + header.length);
    out.set(module.subarray(sectionEnd), MAGIC_AND_VERSION + header.length + payload.length);
    return out;
  } catch {
    // A truncated section: leave it to the loader, which names the problem.
    return module;
  }
}

function readLeb(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= bytes.length || shift > 28) throw new Error('truncated LEB128');
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: at };
  }
}

function writeLeb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}
