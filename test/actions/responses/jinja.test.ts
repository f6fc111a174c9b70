import { expect } from 'chai';
import { jinjaScope, renderJinja } from '../../../src/actions/responses/index.js';

describe('Jinja response templates', () => {
  it('reads the frame context, as utter_flow_cancelled_rasa does', () => {
    const scope = jinjaScope({ slots: {}, context: { canceled_name: 'transfer money' } });
    expect(renderJinja("Okay, I'll stop {{ context.canceled_name }}.", scope).text).to.equal(
      "Okay, I'll stop transfer money.",
    );
  });

  it('reads kwargs by name, as the slot rejection responses use {{value}}', () => {
    const scope = jinjaScope({ slots: { value: 'slot' }, context: {}, kwargs: { value: 'maybe' } });
    expect(renderJinja('Sorry, `{{value}}` is not a valid answer here.', scope).text).to.equal(
      'Sorry, `maybe` is not a valid answer here.',
    );
  });

  it('reads slots both by bare name (as Rasa) and under slots.', () => {
    const scope = jinjaScope({ slots: { name: 'Ann' }, context: {} });
    expect(renderJinja('{{ name }}/{{ slots.name }}', scope).text).to.equal('Ann/Ann');
  });

  it('renders an undefined name as the empty string, without a warning', () => {
    const result = renderJinja(
      '[{{ context.missing }}][{{ nothing }}]',
      jinjaScope({ slots: {}, context: {} }),
    );
    expect(result).to.deep.equal({ text: '[][]', warnings: [] });
  });

  it('supports control flow and filters, and does not escape HTML', () => {
    const scope = jinjaScope({ slots: { vip: true, tag: '<b>' }, context: {} });
    expect(renderJinja('{% if vip %}VIP {% endif %}{{ tag }} {{ "x" | upper }}', scope).text).to.equal(
      'VIP <b> X',
    );
  });

  it('drops one trailing newline, as Jinja does', () => {
    expect(renderJinja('line\n', jinjaScope({ slots: {}, context: {} })).text).to.equal('line');
  });

  it('returns the text as written, with a warning, when the template is broken', () => {
    const result = renderJinja(
      'Hello {{ name',
      jinjaScope({ slots: { name: 'x' }, context: {} }),
      'buttons[0].title',
    );
    expect(result.text).to.equal('Hello {{ name');
    expect(result.warnings).to.have.length(1);
    expect(result.warnings[0]).to.include({ code: 'RESPONSE_JINJA_FAILED', path: 'buttons[0].title' });
  });

  it('returns the text as written when rendering raises', () => {
    const result = renderJinja('{{ missing() }}', jinjaScope({ slots: {}, context: {} }));
    expect(result.text).to.equal('{{ missing() }}');
    expect(result.warnings[0]?.code).to.equal('RESPONSE_JINJA_FAILED');
  });
});

describe('Jinja scope with Python dict methods', () => {
  it('lets templates call keys(), values() and items() on dicts, as Rasa default responses do', () => {
    const scope = jinjaScope({
      slots: {},
      context: { corrected_slots: { add_contact_handle: '@bar' }, new_slot_values: ['@bar'] },
    });
    const text =
      "Changing {{ context.corrected_slots.keys()|join(', ') }} to {{ context.new_slot_values | join(', ') }}";
    expect(renderJinja(text, scope).text).to.equal('Changing add_contact_handle to @bar');
  });

  it('keeps dict methods out of iteration and printing of the dict', () => {
    const scope = jinjaScope({ slots: {}, context: { pairs: { a: 1 } } });
    expect(renderJinja('{% for k, v in context.pairs %}{{ k }}={{ v }}{% endfor %}', scope).text).to.equal(
      'a=1',
    );
  });
});
