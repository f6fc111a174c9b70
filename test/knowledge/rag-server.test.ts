import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { startServer } from '../../src/cli/serve.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import type { FakeOpenAi } from '../support/fake-openai.js';
import { writeInlineProject } from '../support/inline-project.js';
import {
  KNOWLEDGE_DOCS,
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_FLOWS,
  knowledgeConfig,
} from '../support/knowledge-project.js';
import { recordingLogger } from '../support/recording-logger.js';

const GENERATOR = `
  - name: CompactLLMCommandGenerator
    llm:
      model_group: shop_llm`;

describe('parley run with an LLM command generator and a RAG EnterpriseSearchPolicy', function () {
  this.timeout(30_000);
  let fake: FakeOpenAi;
  let root: string;
  beforeEach(async () => {
    fake = await startFakeOpenAi((request) =>
      request.prompt.includes('### Relevant Documents')
        ? 'Delivery abroad takes five to eight working days. [1]\nSources:\n[1] docs/shipping.txt'
        : 'search and reply',
    );
    root = writeInlineProject({
      domain: KNOWLEDGE_DOMAIN,
      flows: KNOWLEDGE_FLOWS,
      config: knowledgeConfig('llm:\n  model_group: shop_llm\ncitation_enabled: true', GENERATOR),
      endpoints: `
        model_groups:
          - id: shop_llm
            models:
              - provider: self-hosted
                model: shop-model
                api_base: ${fake.apiBase}
                max_retries: 0
      `,
      files: KNOWLEDGE_DOCS,
    });
  });
  afterEach(async () => {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('routes a question to pattern_search and answers on REST with the LLM’s answer from the passages', async () => {
    const server = await startServer({
      location: { project: root },
      projectRoot: root,
      port: 0,
      host: '127.0.0.1',
      logger: recordingLogger(),
      env: {},
    });
    try {
      const response = await fetch(`${server.baseUrl}/webhooks/rest/webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ sender: 'eva', message: 'How long does international delivery take?' }),
      });
      const replies = (await response.json()) as { text?: string }[];
      expect(replies[0]?.text).to.equal(
        'Delivery abroad takes five to eight working days. [1]\nSources:\n[1] docs/shipping.txt',
      );
      expect(fake.requests).to.have.length(2);
      const [command, answer] = fake.requests;
      expect(command?.prompt).not.to.contain('### Relevant Documents');
      expect(answer?.prompt).to.contain("{'source': 'docs/shipping.txt'}");
      expect(answer?.prompt).to.contain('International delivery takes five to eight');
      expect(answer?.prompt).to.contain('USER: How long does international delivery take?');
      expect(answer?.prompt).to.contain('### Citing Sources');
    } finally {
      await server.close();
    }
  });
});
