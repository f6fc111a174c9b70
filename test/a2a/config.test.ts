import { expect } from 'chai';
import { a2aMountPaths, loadA2aServerConfig, readA2aServerConfig } from '../../src/a2a/config.js';
import type { A2aServerConfig } from '../../src/a2a/config.js';
import { A2A_SERVER_KEYS } from '../../src/core/a2a-server-rules.js';
import type { DiagnosticCode } from '../../src/core/diagnostic-codes.js';
import { AppError } from '../../src/core/errors.js';
import { a2aServerSchema } from '../../src/project/schemas/a2a-server.js';
import { validateFile } from '../../src/project/schemas/index.js';
import { validateProject } from '../../src/project/validate/index.js';
import { writeInlineProject } from '../support/inline-project.js';
import { A2A_DOMAIN, A2A_FLOWS } from './a2a-project.js';

const SECRET = 's'.repeat(32);

function config(block: Record<string, unknown>): A2aServerConfig {
  const result = readA2aServerConfig(block);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.config;
}

/** the codes of the load-time schema and of the start-time reader for one block */
function codesOf(block: unknown): { schema: DiagnosticCode[]; reader: DiagnosticCode[] } {
  const schema = validateFile('endpoints', { a2a_server: block }).map(
    (problem) => problem.code ?? 'ENDPOINTS_SCHEMA',
  );
  const result = readA2aServerConfig(block);
  return { schema: schema as DiagnosticCode[], reader: result.ok ? [] : result.problems.map((p) => p.code) };
}

describe('a2a_server configuration', () => {
  it('fills in Rasa’s defaults around the one required key', () => {
    expect(config({ description: 'Banking sub-agent' })).to.deep.equal({
      enabled: true,
      description: 'Banking sub-agent',
      includeConversationRepair: true,
      taskTimeoutSeconds: 600,
      messageCacheTtlSeconds: 600,
      maxContexts: 1000,
      pushNotificationsEnabled: false,
      pushNotificationAllowedHosts: [],
      contextIdAsSenderId: false,
      limits: {
        maxMessageBytes: 65_536,
        maxTaskHistoryBytes: 262_144,
        maxContextBytes: 1_048_576,
        maxTaskMemoryBytes: 67_108_864,
      },
      taskStore: 'tracker_store',
    });
  });

  it('reads every key, with values given as text by ${VAR} references', () => {
    const read = config({
      enabled: 'true',
      name: 'Bank',
      version: '2.1.0',
      description: 'd',
      url: 'HTTPS://Bot.Example.com:443/agents/bank/',
      agent_card_path: 'card.json',
      include_conversation_repair: 'false',
      task_timeout_seconds: ' 120 ',
      a2a_message_cache_ttl_seconds: 60,
      max_contexts: '0',
      push_notifications_enabled: true,
      push_notification_allowed_hosts: ['Hooks.Example.com', '*.example.org'],
      context_id_as_sender_id: 'true',
      max_message_bytes: '2048',
      max_task_history_bytes: 4096,
      max_context_bytes: '8192',
      max_task_memory_bytes: 1_000_000,
      task_store: 'in_memory',
    });
    expect(read).to.deep.equal({
      enabled: true,
      name: 'Bank',
      version: '2.1.0',
      description: 'd',
      url: 'https://bot.example.com/agents/bank',
      agentCardPath: 'card.json',
      includeConversationRepair: false,
      taskTimeoutSeconds: 120,
      messageCacheTtlSeconds: 60,
      maxContexts: 0,
      pushNotificationsEnabled: true,
      pushNotificationAllowedHosts: ['hooks.example.com', '*.example.org'],
      contextIdAsSenderId: true,
      limits: {
        maxMessageBytes: 2048,
        maxTaskHistoryBytes: 4096,
        maxContextBytes: 8192,
        maxTaskMemoryBytes: 1_000_000,
      },
      taskStore: 'in_memory',
    });
  });

  it('keeps messageIds as long as a task may run, and 600 s when the task timeout is off', () => {
    expect(config({ description: 'd', task_timeout_seconds: 30 }).messageCacheTtlSeconds).to.equal(30);
    const noTimeout = config({ description: 'd', task_timeout_seconds: 0 });
    expect(noTimeout.taskTimeoutSeconds).to.equal(0);
    expect(noTimeout.messageCacheTtlSeconds).to.equal(600);
    expect(config({ description: 'd', a2a_message_cache_ttl_seconds: 0 }).messageCacheTtlSeconds).to.equal(0);
  });

  it('reads auth with a shared secret or a JWKS, with the family’s default algorithm and 30 s leeway', () => {
    expect(config({ description: 'd', auth: { secret: SECRET } }).auth).to.deep.equal({
      keys: { kind: 'secret', secret: SECRET },
      audience: [],
      algorithms: ['HS256'],
      leewaySeconds: 30,
    });
    const jwks = config({
      description: 'd',
      auth: {
        jwks_url: 'https://idp.example.com/jwks.json',
        issuer: 'https://idp.example.com/',
        audience: 'parley-bank',
        algorithms: ['ES256', 'RS256'],
        leeway: '5',
      },
    });
    expect(jwks.auth).to.deep.equal({
      keys: { kind: 'jwks', url: 'https://idp.example.com/jwks.json' },
      issuer: 'https://idp.example.com/',
      audience: ['parley-bank'],
      algorithms: ['ES256', 'RS256'],
      leewaySeconds: 5,
    });
  });

  it('mounts the endpoint at the root and under the path of a configured url', () => {
    expect(a2aMountPaths(config({ description: 'd' }))).to.deep.equal(['/']);
    expect(a2aMountPaths(config({ description: 'd', url: 'http://localhost:5005/' }))).to.deep.equal(['/']);
    expect(a2aMountPaths(config({ description: 'd', url: 'https://h.example/agents/bank/' }))).to.deep.equal([
      '/',
      '/agents/bank',
    ]);
  });

  it('is off without the block or with enabled: false, and lists every problem at once otherwise', () => {
    expect(loadA2aServerConfig({})).to.equal(undefined);
    expect(loadA2aServerConfig({ a2a_server: { description: 'd', enabled: false } })).to.equal(undefined);
    expect(loadA2aServerConfig({ a2a_server: { description: 'd', extra: 1 } })?.unknownKeys).to.deep.equal([
      'extra',
    ]);
    let error: unknown;
    try {
      loadA2aServerConfig({
        a2a_server: { url: 'ftp://x', max_contexts: -1, auth: {}, task_store: 'redis' },
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(AppError);
    expect((error as AppError).code).to.equal('A2A_CONFIG_INVALID');
    const problems = ((error as AppError).details as { problems: { code: string; key: string }[] }).problems;
    expect(problems.map((problem) => `${problem.code} ${problem.key}`)).to.have.members([
      'A2A_DESCRIPTION_MISSING a2a_server.description',
      'A2A_URL_INVALID a2a_server.url',
      'A2A_CONFIG_INVALID a2a_server.max_contexts',
      'A2A_AUTH_INVALID a2a_server.auth',
      'A2A_CONFIG_INVALID a2a_server.task_store',
    ]);
    expect((error as AppError).message).to.contain('a2a_server.url must be an absolute http(s) URL');
    expect((error as AppError).message).to.contain(
      'a2a_server.task_store must be one of tracker_store, in_memory',
    );
  });

  it('has a schema for exactly the keys the reader knows', () => {
    expect(Object.keys(a2aServerSchema['properties'] as object)).to.deep.equal([...A2A_SERVER_KEYS]);
  });

  describe('every diagnostic, the same at load time (schema) and at start (reader)', () => {
    const cases: { name: string; block: unknown; code: DiagnosticCode }[] = [
      { name: 'a block that is not a map', block: 'yes', code: 'A2A_CONFIG_INVALID' },
      { name: 'no description', block: { url: 'http://localhost:5005' }, code: 'A2A_DESCRIPTION_MISSING' },
      { name: 'an empty description', block: { description: ' ' }, code: 'A2A_DESCRIPTION_MISSING' },
      { name: 'an ftp url', block: { description: 'd', url: 'ftp://h.example' }, code: 'A2A_URL_INVALID' },
      {
        name: 'a url with a query',
        block: { description: 'd', url: 'http://h/a?b=c' },
        code: 'A2A_URL_INVALID',
      },
      {
        name: 'a url with credentials',
        block: { description: 'd', url: 'http://u:p@h/' },
        code: 'A2A_URL_INVALID',
      },
      { name: 'a relative url', block: { description: 'd', url: '/agents/bank' }, code: 'A2A_URL_INVALID' },
      {
        name: 'a negative timeout',
        block: { description: 'd', task_timeout_seconds: -1 },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a fractional TTL',
        block: { description: 'd', a2a_message_cache_ttl_seconds: 1.5 },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a timeout past Node’s timers',
        block: { description: 'd', task_timeout_seconds: 3_000_000 },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a cap that is text',
        block: { description: 'd', max_contexts: 'many' },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a byte limit below 1000',
        block: { description: 'd', max_message_bytes: 100 },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a byte limit of 0 (limits cannot be switched off)',
        block: { description: 'd', max_task_memory_bytes: '0' },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a byte limit that is text',
        block: { description: 'd', max_context_bytes: '1mb' },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'context_id_as_sender_id that is not boolean',
        block: { description: 'd', context_id_as_sender_id: 'on' },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a flag that is not boolean',
        block: { description: 'd', enabled: 'yes' },
        code: 'A2A_CONFIG_INVALID',
      },
      { name: 'an empty name', block: { description: 'd', name: '' }, code: 'A2A_CONFIG_INVALID' },
      { name: 'a numeric version', block: { description: 'd', version: 1 }, code: 'A2A_CONFIG_INVALID' },
      {
        name: 'an empty agent_card_path',
        block: { description: 'd', agent_card_path: '' },
        code: 'A2A_CONFIG_INVALID',
      },
      {
        name: 'a push host with a scheme',
        block: { description: 'd', push_notification_allowed_hosts: ['https://hooks.example.com'] },
        code: 'A2A_PUSH_HOST_INVALID',
      },
      {
        name: 'push hosts that are not a list',
        block: { description: 'd', push_notification_allowed_hosts: 'hooks.example.com' },
        code: 'A2A_PUSH_HOST_INVALID',
      },
      {
        name: 'auth without a key',
        block: { description: 'd', auth: { issuer: 'i' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'auth with two key sources',
        block: {
          description: 'd',
          auth: { secret: SECRET, jwks_url: 'https://i/jwks', issuer: 'i', audience: 'a' },
        },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a JWKS without issuer and audience',
        block: { description: 'd', auth: { jwks_url: 'https://i/jwks' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a JWKS over plain http to another host',
        block: { description: 'd', auth: { jwks_url: 'http://idp/jwks', issuer: 'i', audience: 'a' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'HS256 with a JWKS (algorithm confusion)',
        block: {
          description: 'd',
          auth: { jwks_url: 'https://i/jwks', issuer: 'i', audience: 'a', algorithms: ['HS256'] },
        },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'RS256 with a shared secret',
        block: { description: 'd', auth: { secret: SECRET, algorithms: ['RS256'] } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'alg none',
        block: { description: 'd', auth: { secret: SECRET, algorithms: ['none'] } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'no algorithms at all',
        block: { description: 'd', auth: { secret: SECRET, algorithms: [] } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a short secret',
        block: { description: 'd', auth: { secret: 'letmein' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a misspelt auth key',
        block: { description: 'd', auth: { secret: SECRET, audiance: 'a' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a leeway over five minutes',
        block: { description: 'd', auth: { secret: SECRET, leeway: 3600 } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'a blank audience',
        block: { description: 'd', auth: { secret: SECRET, audience: ' ' } },
        code: 'A2A_AUTH_INVALID',
      },
      {
        name: 'an empty audience list',
        block: { description: 'd', auth: { secret: SECRET, audience: [] } },
        code: 'A2A_AUTH_INVALID',
      },
    ];
    for (const { name, block, code } of cases) {
      it(`${code}: ${name}`, () => {
        const { schema, reader } = codesOf(block);
        expect(schema, 'schema').to.not.be.empty;
        expect(new Set(schema), 'schema').to.deep.equal(new Set([code]));
        expect(new Set(reader), 'reader').to.deep.equal(new Set([code]));
      });
    }

    it('A2A_UNKNOWN_KEY: a misspelt key is a warning with a suggestion; the reader ignores it', () => {
      const problems = validateFile('endpoints', {
        a2a_server: { description: 'd', task_timeout_second: 5 },
      });
      expect(problems).to.have.length(1);
      expect(problems[0]).to.include({
        code: 'A2A_UNKNOWN_KEY',
        instancePath: '/a2a_server/task_timeout_second',
      });
      expect(problems[0]?.hint).to.contain("'task_timeout_seconds'");
      expect(codesOf({ description: 'd', task_timeout_second: 5 }).reader).to.deep.equal([]);
    });

    it('a valid block has no problem at all', () => {
      const block = {
        description: 'd',
        url: 'https://bot.example.com/agents/bank',
        push_notification_allowed_hosts: ['hooks.example.com', '*.example.org'],
        auth: {
          jwks_url: 'http://127.0.0.1:8080/jwks',
          issuer: 'i',
          audience: ['a', 'b'],
          algorithms: ['EdDSA'],
        },
      };
      expect(codesOf(block)).to.deep.equal({ schema: [], reader: [] });
    });
  });

  it('reports the problems of endpoints.yml with positions when the project is validated', () => {
    const root = writeInlineProject({
      domain: A2A_DOMAIN,
      flows: A2A_FLOWS,
      endpoints: `
        a2a_server:
          url: "localhost:5005"
          task_timeout_seconds: \${A2A_TIMEOUT}
          max_contexts: \${A2A_CONTEXTS}
          auth:
            secret: short
      `,
    });
    const { diagnostics, hasErrors } = validateProject(
      { project: root },
      { env: { A2A_TIMEOUT: '120', A2A_CONTEXTS: 'lots' } },
    );
    expect(hasErrors).to.equal(true);
    const found = diagnostics
      .filter((item) => item.code.startsWith('A2A_'))
      .map((item) => `${item.code}@${item.line}`);
    expect(found).to.have.members([
      'A2A_DESCRIPTION_MISSING@1',
      'A2A_URL_INVALID@2',
      'A2A_CONFIG_INVALID@4',
      'A2A_AUTH_INVALID@6',
    ]);
  });
});
