import { expect } from 'chai';
import type { Command } from '../../src/core/commands/types.js';
import { inlineAssistant, startConversation, utterances } from '../support/inline-assistant.js';
import type { Conversation } from '../support/inline-assistant.js';
import { startMcpServer } from '../support/mcp-server.js';
import type { TestMcpServer, TestTool } from '../support/mcp-server.js';

const DOMAIN = `
  slots:
    city:
      type: text
      mappings: [{type: from_llm}]
    temperature:
      type: float
      mappings: [{type: controlled}]
    summary:
      type: text
      mappings: [{type: controlled}]
    forecast:
      type: text
      mappings: [{type: controlled}]
  responses:
    utter_ask_city:
      - text: Which city?
    utter_weather:
      - text: "{summary} ({temperature} degrees)"
    utter_done:
      - text: Anything else?
`;

const FLOWS = `
  flows:
    weather:
      description: tell the weather of a city
      steps:
        - collect: city
        - call: get_weather
          mcp_server: weather_api
          mapping:
            input:
              - param: city
                slot: city
            output:
              - slot: temperature
                value: result.structuredContent.temperature
              - slot: summary
                value: result.content[0].text
              - slot: forecast
                value: result.structuredContent.days
        - action: utter_weather
        - action: utter_done
`;

const WEATHER: TestTool = {
  name: 'get_weather',
  inputSchema: { properties: { city: { type: 'string' } }, required: ['city'] },
  run: (args) => ({
    content: [{ type: 'text', text: `Sunny in ${String(args['city'])}` }],
    structuredContent: { temperature: 21.5, days: ['sun', 'rain'] },
  }),
};

const START: readonly Command[] = [{ command: 'start flow', flow: 'weather' }];
const PORTO: readonly Command[] = [{ command: 'set slot', name: 'city', value: 'Porto' }];

function endpoints(url: string, extra = ''): string {
  return `
    mcp_servers:
      - name: weather_api
        url: ${url}
        type: http
${extra}
  `;
}

async function conversationWith(
  url: string,
  extra = '',
  env: Record<string, string> = {},
): Promise<Conversation> {
  const assistant = inlineAssistant({ domain: DOMAIN, flows: FLOWS, endpoints: endpoints(url, extra) });
  return startConversation(assistant, { env });
}

describe('MCP tool call steps (a real MCP server built with the official SDK)', function () {
  this.timeout(20_000);
  let server: TestMcpServer;

  afterEach(async () => server?.close());

  it('sends the mapped slots as arguments and sets the mapped output slots, then the flow goes on', async () => {
    server = await startMcpServer([WEATHER]);
    const conversation = await conversationWith(server.url);
    expect(utterances(await conversation.send('weather please', START))).to.deep.equal(['utter_ask_city']);
    const events = await conversation.send('Porto', PORTO);
    expect(server.calls.map((call) => [call.tool, call.args])).to.deep.equal([
      ['get_weather', { city: 'Porto' }],
    ]);
    const slots = await conversation.slots();
    expect(slots['temperature']).to.equal(21.5);
    expect(slots['summary']).to.equal('Sunny in Porto');
    // a non-empty list is stored as its JSON text, as Rasa does
    expect(slots['forecast']).to.equal('["sun","rain"]');
    expect(utterances(events)).to.deep.equal(['utter_weather', 'utter_done', 'utter_can_do_something_else']);
    const texts = events.flatMap((event) => (event.event === 'bot' ? [event.text] : []));
    expect(texts[0]).to.equal('Sunny in Porto (21.5 degrees)');
  });

  it('sends the api_key of endpoints.yml, read from the environment, as the configured header', async () => {
    server = await startMcpServer([WEATHER]);
    const auth =
      '        api_key: "${WEATHER_KEY}"\n        header_name: X-API-Key\n        header_format: "{key}"';
    const conversation = await conversationWith(server.url, auth, { WEATHER_KEY: 'secret-1' });
    await conversation.send('weather', START);
    await conversation.send('Porto', PORTO);
    expect(server.calls[0]?.headers['x-api-key']).to.equal('secret-1');
  });

  it('runs pattern_internal_error when the tool reports an error, sets no slot and continues the flow', async () => {
    const failing: TestTool = {
      ...WEATHER,
      run: () => ({ content: [{ type: 'text', text: 'no such city' }], isError: true }),
    };
    server = await startMcpServer([failing]);
    const conversation = await conversationWith(server.url);
    await conversation.send('weather', START);
    const events = await conversation.send('Atlantis', [
      { command: 'set slot', name: 'city', value: 'Atlantis' },
    ]);
    expect((await conversation.slots())['temperature']).to.equal(null);
    // the flow is not cancelled (Rasa's MCP handling): it goes on after the pattern
    expect(utterances(events)).to.deep.equal([
      'utter_internal_error_rasa',
      'utter_weather',
      'utter_done',
      'utter_can_do_something_else',
    ]);
  });

  it('runs pattern_internal_error when the tool does not exist on the server', async () => {
    server = await startMcpServer([{ ...WEATHER, name: 'other_tool' }]);
    const conversation = await conversationWith(server.url);
    await conversation.send('weather', START);
    const events = await conversation.send('Porto', PORTO);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect(server.calls).to.deep.equal([]);
  });

  it('runs pattern_internal_error when the server is down, and the conversation goes on', async () => {
    server = await startMcpServer([WEATHER]);
    const url = server.url;
    await server.close();
    const conversation = await conversationWith(url);
    await conversation.send('weather', START);
    const events = await conversation.send('Porto', PORTO);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect((await conversation.stack()).map((frame) => frame.flow_id)).to.deep.equal([]);
  });

  it('gives up on a slow tool after the configured timeout', async () => {
    const slow: TestTool = {
      ...WEATHER,
      run: () => new Promise((resolve) => setTimeout(() => resolve(WEATHER.run({ city: 'x' })), 3_000)),
    };
    server = await startMcpServer([slow]);
    const conversation = await conversationWith(server.url, '        timeout: 0.5');
    await conversation.send('weather', START);
    const started = Date.now();
    const events = await conversation.send('Porto', PORTO);
    expect(Date.now() - started).to.be.below(2_500);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
  });

  it('fails the step when an output expression cannot be evaluated, setting none of its slots', async () => {
    const odd: TestTool = {
      ...WEATHER,
      run: () => ({ content: [], structuredContent: { temperature: 'warm' } }),
    };
    server = await startMcpServer([odd]);
    const flows = FLOWS.replace('result.content[0].text', 'result.structuredContent.temperature()');
    const assistant = inlineAssistant({ domain: DOMAIN, flows, endpoints: endpoints(server.url) });
    const conversation = await startConversation(assistant);
    await conversation.send('weather', START);
    const events = await conversation.send('Porto', PORTO);
    expect(utterances(events)).to.include('utter_internal_error_rasa');
    expect((await conversation.slots())['temperature']).to.equal(null);
  });
});
