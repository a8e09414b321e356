#!/usr/bin/env bash
# End-to-end suite: installs the harness's tools (skipped when present), packs the VSIX, then
# runs test/e2e in code-server + headless chromium. This is what .ci/run calls.
#
#   bash scripts/e2e/run.sh
#   E2E_PROJECT=/tmp/copy bash scripts/e2e/run.sh   pack and check another checkout (say, a copy
#                                                  with a changed package.json)
#
# Screenshots and logs: test-artifacts/e2e/. Downloads: .vscode-test/ (both git-ignored).
set -euo pipefail
cd "$(dirname "$0")/../.."

started=$SECONDS
step() { printf '\n==> e2e: %s\n' "$*"; }

step "setup (chromium, Node 24, code-server, browser driver)"
node scripts/e2e/setup.mjs

step "package the VSIX"
node scripts/package/vsix.mjs --project "${E2E_PROJECT:-.}"

step "run test/e2e"
# One retry per test: the workbench is driven through its DOM, and two reads of it have each failed
# once in four full runs on a loaded machine with the product doing its part (the chat's
# virtualised list not yet carrying a rendered answer's text; "MCP: List Servers" typed while a
# webview held the keyboard). A product fault fails both tries; each failure's screenshot is kept.
E2E_PROJECT="$(cd "${E2E_PROJECT:-.}" && pwd)" npx mocha --no-config --node-option import=tsx --timeout 600000 --retries 1 --reporter spec 'test/e2e/**/*.e2e.ts'

printf '\n==> e2e: done in %d s\n' "$((SECONDS - started))"
