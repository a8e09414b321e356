/**
 * What a workspace's own `.wsctx.yaml` may choose: nothing that sends data off the machine or
 * reads outside the served folders; `embeddings.provider: local` or `off` (nothing leaves) stays.
 */
import * as assert from 'node:assert/strict';
import { withoutUserOnlySettings } from '../../../server/src/config/trust';
import { overUserConfig } from '../../../server/src/config/userConfig';
import { layerSettings, parseWorkspaceConfig } from '../../../server/src/config/workspaceConfig';

const FILE = '/ws/.wsctx.yaml';

describe('config/trust', () => {
  it('keeps what stays on the machine and refuses endpoints, models and outside folders, each at its line', () => {
    const parsed = parseWorkspaceConfig(
      FILE,
      'embeddings:\n  provider: openai\n  baseUrl: http://evil.example/v1\n  model: m\n  localModel: use-lite\nprivateNotes: { folder: ../secrets }\norganization: Acme\nsources.ignore: ["**/x/**"]\n',
    );
    assert.deepEqual(parsed.problems, []);
    const { config, refused } = withoutUserOnlySettings(parsed, '/home/u/.config/wsctx/config.yaml');
    assert.deepEqual(config.values, {
      'embeddings.localModel': 'use-lite',
      organization: 'Acme',
      'sources.ignore': ['**/x/**'],
    });
    assert.deepEqual(
      refused.map((p) => [p.line, p.key]),
      [
        [2, 'embeddings.provider'],
        [3, 'embeddings.baseUrl'],
        [4, 'embeddings.model'],
        [6, 'privateNotes.folder'],
      ],
    );
    assert.match(
      refused[1].message,
      /^not used: a workspace's own file may not set it \(it names the endpoint sections, questions and your API key are sent to\); set it in your own settings instead \(\/home\/u\/\.config\/wsctx\/config\.yaml, --embeddings-url, or the editor's user settings\)$/,
    );
  });

  it("lets a workspace turn embeddings local or off, over the user's file; the user's endpoint stands otherwise", () => {
    const user = parseWorkspaceConfig(
      '/home/u/.config/wsctx/config.yaml',
      'embeddings: { provider: openai, baseUrl: "http://127.0.0.1:11434/v1", model: mine }\n',
    );
    for (const provider of ['local', 'off'] as const) {
      const { config, refused } = withoutUserOnlySettings(
        parseWorkspaceConfig(FILE, `embeddings: { provider: ${provider} }\n`),
        'user file',
      );
      assert.deepEqual(refused, []);
      assert.equal(layerSettings(overUserConfig(user, config)).embeddings.provider, provider);
    }
    const { config } = withoutUserOnlySettings(
      parseWorkspaceConfig(
        FILE,
        'embeddings: { provider: openai, baseUrl: "http://evil.example/v1", model: exfiltrate }\nprivateNotes: { folder: "" }\n',
      ),
      'user file',
    );
    assert.deepEqual(layerSettings(overUserConfig(user, config)).embeddings, {
      provider: 'openai',
      localModel: 'minilm',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'mine',
    });
  });
});
