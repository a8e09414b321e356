/**
 * Document links through the built language server: `[[Page title]]` to the library page, entity
 * refs (text and relation fields) to the entity's declaration line; unresolved refs get no link.
 */
import assert from 'node:assert/strict';
import { DocumentLinkRequest } from 'vscode-languageserver-protocol/node';
import { startOnExample, type LspClient } from '../helpers/lspClient';
import { removeTempDirs } from '../helpers/tempWorkspace';

describe('LSP document links (built server, JSON-RPC)', () => {
  let lsp: LspClient;
  before(async () => {
    lsp = await startOnExample();
  });
  after(async () => {
    await lsp.stop();
    removeTempDirs();
  });

  const links = async (rel: string) => {
    const found =
      (await lsp.connection.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: lsp.uri(rel) } })) ?? [];
    return found.map(
      (l) =>
        `${l.range.start.line + 1}:${l.range.start.character + 1}-${l.range.end.character + 1} -> ${l.target!.slice(lsp.uri('').length + 1)} | ${l.tooltip}`,
    );
  };

  it('links [[Page title]] and entity refs in a library page', async () => {
    assert.deepEqual(await links('.context/guides/calling-the-payments-gateway.md'), [
      '4:71-95 -> payments-platform/catalog/apis.yaml#L36 | Open api:default/payments-gateway-api (Payments gateway API)',
      '17:2-36 -> payments-platform/catalog-info.yaml#L141 | Open component:default/payments-gateway (Payments gateway)',
      '18:31-63 -> payments-platform/catalog/apis.yaml#L36 | Open api:default/payments-gateway-api (Payments gateway API)',
      '38:48-65 -> .context/reference/decline-codes.md#L1 | Open "Decline codes" (.context/reference/decline-codes.md)',
      '44:44-89 -> .context/rules/money-in-minor-units.md#L1 | Open "Money is always an integer in minor units" (.context/rules/money-in-minor-units.md)',
    ]);
  });

  it('links short relation-field refs in a catalog file and leaves the unresolved one and the declarations alone', async () => {
    assert.deepEqual(await links('storefront/catalog/legacy-entities.yaml'), [
      '15:10-25 -> platform-infra/catalog/groups.yaml#L63 | Open group:default/storefront-team (Storefront team)',
      '16:11-21 -> storefront/catalog-info.yaml#L16 | Open system:default/storefront (Storefront)',
      '42:10-25 -> platform-infra/catalog/groups.yaml#L63 | Open group:default/storefront-team (Storefront team)',
      '43:11-21 -> storefront/catalog-info.yaml#L16 | Open system:default/storefront (Storefront)',
      '45:7-29 -> storefront/catalog/legacy-entities.yaml#L6 | Open component:default/order-export (Order export (legacy))',
    ]);
  });

  it('skips [[links]] inside code and links whose page does not exist', async () => {
    await lsp.open(
      'notes/links.md',
      [
        'See [[Refund policy]] and [[No such page]].',
        '',
        '```',
        '[[Decline codes]]',
        '```',
        'Inline `[[Glossary]]` too.',
        '',
      ].join('\n'),
    );
    assert.deepEqual(await links('notes/links.md'), [
      '1:5-22 -> .context/reference/refund-policy.md#L1 | Open "Refund policy" (.context/reference/refund-policy.md)',
    ]);
  });
});
