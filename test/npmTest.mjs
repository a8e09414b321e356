/**
 * `npm test`: the type check runs beside the rest (lint, build, then every suite, two files at a
 * time). tsc keeps one core busy for about half a minute on its own; one after the other, the
 * other core waited for it. The type check's output is printed as one block when it ends (not
 * mixed into the test reporter's lines), and a failed type check fails `npm test` however the
 * tests went. Arguments after `npm test --` go to mocha.
 */
import { spawn } from 'node:child_process';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `npm run <script>`; its output is passed through, or kept when `keep` is set. Resolves to its exit code and output. */
function npmRun(script, args = [], keep = false) {
  return new Promise((resolve) => {
    const child = spawn(NPM, ['run', script, ...(args.length ? ['--', ...args] : [])], {
      stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: process.platform === 'win32',
    });
    let output = '';
    if (keep) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    }
    child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.once('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const typecheck = npmRun('typecheck', [], true).then((result) => {
  process.stdout.write(result.code === 0 ? '\nType check: no errors.\n' : `\nType check failed:\n${result.output}\n`);
  return result.code;
});

let testsCode = 0;
for (const [script, args] of [
  ['lint', []],
  ['build', []],
  ['test:mocha', process.argv.slice(2)],
]) {
  testsCode = (await npmRun(script, args)).code;
  if (testsCode !== 0) break;
}
const typecheckCode = await typecheck;
if (typecheckCode !== 0) process.stdout.write('npm test: the type check failed (its errors are above).\n');
process.exitCode = testsCode || typecheckCode;
