import { expect } from 'chai';
import { renderResponse, type RenderInput } from '../../../src/actions/responses/index.js';
import { button, fixed, predicate, response, variation } from './helpers.js';

function input(fields: Partial<RenderInput> = {}): RenderInput {
  return { slots: {}, context: {}, random: fixed(0), ...fields };
}

describe('renderResponse', () => {
  it('shapes a text-only response like a bot event, with every data key present', () => {
    const rendered = renderResponse(
      response('utter_greet', variation({ text: 'Hi {name}' })),
      input({ slots: { name: 'Ann' } }),
    );
    expect(rendered?.message).to.deep.equal({
      text: 'Hi Ann',
      data: {
        elements: null,
        quick_replies: null,
        buttons: null,
        attachment: null,
        image: null,
        custom: null,
      },
      metadata: { utter_action: 'utter_greet' },
    });
    expect(rendered?.warnings).to.deep.equal([]);
  });

  it('interpolates button titles and payloads and keeps only title and payload', () => {
    const template = response(
      'utter_ask_confirm',
      variation({
        text: 'Send {amount}?',
        buttons: [
          button('Yes, send {amount}', '/SetSlots(confirm=true, to={recipient})'),
          button('No', '/SetSlots(confirm=false)'),
        ],
      }),
    );
    const rendered = renderResponse(
      template,
      input({ slots: { amount: 50, recipient: 'Ann' }, slotTypes: { amount: 'float', recipient: 'text' } }),
    );
    expect(rendered?.message.text).to.equal('Send 50.0?');
    expect(rendered?.message.data.buttons).to.deep.equal([
      { title: 'Yes, send 50.0', payload: '/SetSlots(confirm=true, to=Ann)' },
      { title: 'No', payload: '/SetSlots(confirm=false)' },
    ]);
  });

  it('interpolates the image, which also becomes the attachment when there is none', () => {
    const template = response('utter_pic', variation({ image: 'https://img.example/{animal}.png' }));
    const data = renderResponse(template, input({ slots: { animal: 'cat' } }))?.message.data;
    expect(data?.image).to.equal('https://img.example/cat.png');
    expect(data?.attachment).to.equal('https://img.example/cat.png');
    expect(renderResponse(template, input({ slots: { animal: 'cat' } }))?.message.text).to.equal(null);
  });

  it('keeps an explicit attachment, interpolated, over the image', () => {
    const template = response(
      'utter_file',
      variation({ image: 'i.png', attachment: { url: '/files/{id}' } }),
    );
    const data = renderResponse(template, input({ kwargs: { id: 7 } }))?.message.data;
    expect(data?.attachment).to.deep.equal({ url: '/files/7' });
    expect(data?.image).to.equal('i.png');
  });

  it('interpolates string leaves of custom recursively and keeps other values', () => {
    const custom = {
      blocks: [{ type: 'section', text: 'Balance: {balance}', count: 2, urgent: false }],
      tags: ['{name}'],
    };
    const template = response('utter_custom', variation({ custom }));
    const rendered = renderResponse(template, input({ slots: { balance: 10.5, name: 'Ann' } }));
    expect(rendered?.message.data.custom).to.deep.equal({
      blocks: [{ type: 'section', text: 'Balance: 10.5', count: 2, urgent: false }],
      tags: ['Ann'],
    });
    expect(custom.blocks[0]?.text).to.equal('Balance: {balance}');
  });

  it('interpolates quick_replies and passes elements through untouched, as Rasa does', () => {
    const template = response(
      'utter_cards',
      variation({ quickReplies: [{ title: '{name}', payload: 'x' }], elements: [{ title: '{name}' }] }),
    );
    const data = renderResponse(template, input({ slots: { name: 'Ann' } }))?.message.data;
    expect(data?.quick_replies).to.deep.equal([{ title: 'Ann', payload: 'x' }]);
    expect(data?.elements).to.deep.equal([{ title: '{name}' }]);
  });

  it("nests the variation's metadata and id in the message metadata, with utter_action", () => {
    const template = response(
      'utter_ask_rephrase',
      variation({ text: 'Say again?', id: 'v1', metadata: { rephrase: true, rephrase_prompt: 'p' } }),
    );
    const rendered = renderResponse(template, input());
    expect(rendered?.message.metadata).to.deep.equal({
      metadata: { rephrase: true, rephrase_prompt: 'p' },
      id: 'v1',
      utter_action: 'utter_ask_rephrase',
    });
    expect(rendered?.variation.metadata).to.deep.equal({ rephrase: true, rephrase_prompt: 'p' });
  });

  it('renders every interpolated field with Jinja when metadata.template is jinja', () => {
    const template = response(
      'utter_flow_cancelled_rasa',
      variation({
        text: "Okay, I'll stop {{ context.canceled_name }}.",
        buttons: [button('Restart {{ context.canceled_name }}', '/start')],
        metadata: { rephrase: true, template: 'jinja' },
      }),
    );
    const rendered = renderResponse(template, input({ context: { canceled_name: 'transfer money' } }));
    expect(rendered?.message.text).to.equal("Okay, I'll stop transfer money.");
    expect(rendered?.message.data.buttons?.[0]?.title).to.equal('Restart transfer money');
    expect(rendered?.message.metadata).to.deep.equal({
      metadata: { rephrase: true, template: 'jinja' },
      utter_action: 'utter_flow_cancelled_rasa',
    });
  });

  it('passes kwargs to Jinja, as utter_boolean_slot_rejection uses {{value}}', () => {
    const template = response(
      'utter_boolean_slot_rejection',
      variation({ text: 'Sorry, `{{value}}` is not a valid answer here.', metadata: { template: 'jinja' } }),
    );
    expect(renderResponse(template, input({ kwargs: { value: 'perhaps' } }))?.message.text).to.equal(
      'Sorry, `perhaps` is not a valid answer here.',
    );
  });

  it('does not treat single braces as placeholders in Jinja mode', () => {
    const template = response(
      'utter_j',
      variation({ text: '{name} {{ name }}', metadata: { template: 'jinja' } }),
    );
    expect(renderResponse(template, input({ slots: { name: 'Ann' } }))?.message.text).to.equal('{name} Ann');
  });

  it('collects warnings with the path of the string that could not be filled', () => {
    const template = response(
      'utter_broken',
      variation({ text: 'ok {name}', buttons: [button('fine', '/SetSlots(x={unknown})')] }),
    );
    const rendered = renderResponse(template, input({ slots: { name: 'Ann' } }));
    expect(rendered?.message.text).to.equal('ok Ann');
    expect(rendered?.message.data.buttons?.[0]?.payload).to.equal('/SetSlots(x={unknown})');
    expect(rendered?.warnings.map((warning) => [warning.code, warning.path])).to.deep.equal([
      ['RESPONSE_PLACEHOLDER_UNRESOLVED', 'buttons[0].payload'],
    ]);
  });

  it('selects the variation by condition and channel before rendering', () => {
    const template = response(
      'utter_hi',
      variation({ text: 'Hi VIP {name}', condition: predicate('slots.vip') }),
      variation({ text: 'Hi {name}' }),
      variation({ text: 'Hi on Slack', channel: 'slack' }),
    );
    expect(renderResponse(template, input({ slots: { vip: true, name: 'Ann' } }))?.message.text).to.equal(
      'Hi VIP Ann',
    );
    expect(renderResponse(template, input({ slots: { vip: false, name: 'Ann' } }))?.message.text).to.equal(
      'Hi Ann',
    );
    expect(
      renderResponse(template, input({ slots: { vip: true }, channel: 'slack' }))?.message.text,
    ).to.equal('Hi on Slack');
  });

  it('returns undefined when no variation is eligible', () => {
    const template = response('utter_slack_only', variation({ text: 'x', channel: 'slack' }));
    expect(renderResponse(template, input({ channel: 'rest' }))).to.equal(undefined);
    expect(renderResponse(response('utter_empty'), input())).to.equal(undefined);
  });

  it('returns data that shares nothing with the domain', () => {
    const template = response(
      'utter_x',
      variation({ text: 't', elements: [{ a: 1 }], custom: { b: [1] }, metadata: { m: { deep: 1 } } }),
    );
    const rendered = renderResponse(template, input());
    expect(rendered?.message.data.elements).to.not.equal(template.variations[0]?.elements);
    expect(rendered?.message.data.custom).to.not.equal(template.variations[0]?.custom);
    expect(rendered?.message.metadata['metadata']).to.not.equal(template.variations[0]?.metadata);
  });
});
