import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Condition, Flow, NextLink, Step } from '../../src/core/flows/types.js';
import { renderFlowDiagram } from '../../src/diagrams/index.js';
import { loadProject } from '../../src/project/load-project.js';
import { corpusRoot, describeWithCorpus } from '../support/corpus.js';
import { inlineAssistant } from '../support/inline-assistant.js';
import type { MarkupElement } from '../support/markup.js';
import { byAttribute, classesOf, parseMarkup, textContent } from '../support/markup.js';

const assistant = inlineAssistant({
  domain: `
    slots:
      amount:
        type: float
      confirmed:
        type: bool
      note:
        type: text
    responses:
      utter_ask_amount:
        - text: How much?
      utter_ask_confirmed:
        - text: Sure?
      utter_done:
        - text: Done.
      utter_hello:
        - text: Hello.
    actions:
      - action_transfer
  `,
  flows: `
    flows:
      transfer:
        description: Send money.
        steps:
          - collect: amount
          - set_slots:
              - note: pending
          - call: greet
          - collect: confirmed
            next:
              - if: slots.confirmed and slots.amount > 100
                then: big
              - if: slots.confirmed
                then: send
              - else: cancelled
          - id: big
            noop: true
            next: send
          - id: send
            action: action_transfer
            next: END
          - id: cancelled
            link: goodbye
      greet:
        description: Say hello.
        steps:
          - action: utter_hello
      goodbye:
        description: Say goodbye.
        steps:
          - action: utter_done
  `,
});

function flow(id: string): Flow {
  const found = assistant.flows.get(id);
  if (!found) throw new Error(`no flow ${id}`);
  return found;
}

function svgOf(text: string): MarkupElement {
  const root = parseMarkup(text);
  const [svg] = root.children;
  if (svg?.name !== 'svg') throw new Error('not an svg document');
  return svg;
}

function single(map: Map<string, MarkupElement[]>, key: string): MarkupElement {
  const found = map.get(key);
  if (found?.length !== 1 || !found[0])
    throw new Error(`expected one element for ${key}, got ${found?.length ?? 0}`);
  return found[0];
}

const transfer = flow('transfer');
const stepId = (kind: string, index = 0): string => {
  const step = transfer.steps.filter((candidate) => candidate.kind === kind)[index];
  if (!step) throw new Error(`no ${kind} step`);
  return step.id;
};

function condition(text: string): Condition {
  return { text, ast: undefined, isTemplate: false };
}

function step(id: string, kind: 'collect' | 'action', next: NextLink): Step {
  const base = { id, hasCustomId: true, next, metadata: {} };
  if (kind === 'action') return { ...base, kind, action: 'utter_hello' };
  return {
    ...base,
    kind,
    collect: 'x',
    utter: 'utter_ask_x',
    collectAction: 'action_ask_x',
    askBeforeFilling: false,
    resetAfterFlowEnds: true,
    rejections: [],
    forceSlotFilling: false,
  };
}

function makeFlow(id: string, steps: readonly Step[]): Flow {
  return {
    id,
    name: id,
    description: '',
    guard: undefined,
    alwaysIncludeInPrompt: false,
    nluTriggers: [],
    persistedSlots: [],
    runPatternCompleted: true,
    steps,
    firstStepId: steps[0]?.id,
    metadata: {},
    isDefault: false,
  };
}

describe('renderFlowDiagram', () => {
  it('draws a node for every step of every kind, and START and END', () => {
    const svg = svgOf(renderFlowDiagram(transfer));
    const nodes = byAttribute(svg, 'data-step-id');
    expect([...nodes.keys()].sort()).to.deep.equal(
      ['END', 'START', ...transfer.steps.map((step) => step.id)].sort(),
    );
    const kinds = transfer.steps.map((step) =>
      classesOf(single(nodes, step.id)).find((name) => name.startsWith('kind-')),
    );
    expect(new Set(kinds)).to.deep.equal(
      new Set(['kind-collect', 'kind-set_slots', 'kind-call', 'kind-noop', 'kind-action', 'kind-link']),
    );
    expect(textContent(single(nodes, stepId('collect')))).to.contain('amount');
    expect(textContent(single(nodes, stepId('set_slots')))).to.contain('note=pending');
    expect(textContent(single(nodes, 'send'))).to.contain('action_transfer');
  });

  it('draws link and call steps with the flow they go to', () => {
    const nodes = byAttribute(svgOf(renderFlowDiagram(transfer)), 'data-step-id');
    const call = single(nodes, stepId('call'));
    const link = single(nodes, 'cancelled');
    expect(textContent(call)).to.contain('call').and.to.contain('→ greet');
    expect(textContent(link)).to.contain('link').and.to.contain('→ goodbye');
  });

  it('labels each branch edge with its condition and the last one with else', () => {
    const edges = byAttribute(svgOf(renderFlowDiagram(transfer)), 'data-edge');
    const confirm = stepId('collect', 1);
    expect(textContent(single(edges, `${confirm}->big`))).to.contain(
      'slots.confirmed and slots.amount > 100',
    );
    expect(textContent(single(edges, `${confirm}->send`))).to.contain('slots.confirmed');
    expect(textContent(single(edges, `${confirm}->cancelled`))).to.contain('else');
    expect(classesOf(single(edges, `${confirm}->send`))).to.include('branch');
  });

  it('draws the static next links, the start and the end, and no edge out of a link', () => {
    const edges = byAttribute(svgOf(renderFlowDiagram(transfer)), 'data-edge');
    const ids = transfer.steps.map((step) => step.id);
    for (const key of [`START->${ids[0]}`, `${ids[0]}->${ids[1]}`, 'big->send', 'send->END'])
      expect(edges.has(key), key).to.equal(true);
    expect([...edges.keys()].filter((key) => key.startsWith('cancelled->'))).to.deep.equal([]);
    expect(classesOf(single(edges, 'big->send'))).to.not.include('branch');
  });

  it('escapes hostile ids and conditions in text and attributes', () => {
    // Load-time validation refuses such ids; the diagram must still be safe for any Flow it is given.
    const evilStep = "<script>alert('x')</script>";
    const evilTarget = 's" onload="alert(1)';
    const hostile = makeFlow(`evil"<flow>'&`, [
      step(evilStep, 'collect', {
        kind: 'branches',
        branches: [
          { condition: condition(`slots.x = "a&b<c>'d\u0000"`), target: evilTarget },
          { condition: undefined, target: 'END' },
        ],
      }),
      step(evilTarget, 'action', { kind: 'end' }),
    ]);
    const text = renderFlowDiagram(hostile);
    expect(text).to.not.contain('<script>');
    expect(text).to.not.contain('" onload="');
    expect(text).to.not.contain('\u0000');
    const svg = svgOf(text); // parses: every tag balanced, no raw < in text or attributes
    expect(svg.attributes['data-flow-id']).to.equal(`evil"<flow>'&`);
    expect(byAttribute(svg, 'data-step-id').has(evilStep)).to.equal(true);
    const branch = single(byAttribute(svg, 'data-edge'), `${evilStep}->${evilTarget}`);
    expect(textContent(branch)).to.contain(`slots.x = "a&b<c>'d\ufffd"`);
    expect(svg.children.filter((child) => child.name === 'script')).to.deep.equal([]);
  });

  it('marks the current step and the path taken', () => {
    const ids = transfer.steps.map((step) => step.id);
    const confirm = stepId('collect', 1);
    const visited = ['START', ...ids.slice(0, 4)];
    const svg = svgOf(renderFlowDiagram(transfer, { currentStepId: confirm, visitedStepIds: visited }));
    const nodes = byAttribute(svg, 'data-step-id');
    const edges = byAttribute(svg, 'data-edge');
    expect(classesOf(single(nodes, confirm))).to.include.members(['current', 'visited']);
    expect(classesOf(single(nodes, ids[0] ?? '')))
      .to.include('visited')
      .and.not.include('current');
    expect(classesOf(single(nodes, 'send'))).to.not.include('visited');
    expect(classesOf(single(edges, `START->${ids[0]}`))).to.include('visited');
    expect(classesOf(single(edges, `${ids[2]}->${confirm}`))).to.include('visited');
    expect(classesOf(single(edges, `${confirm}->send`))).to.not.include('visited');
    const plain = renderFlowDiagram(transfer);
    expect(plain).to.not.match(/class="[^"]*\b(current|visited|reached|unreached)\b/);
  });

  it('marks reached and unreached steps and edges from coverage', () => {
    const ids = transfer.steps.map((step) => step.id);
    const confirm = stepId('collect', 1);
    const reachedStepIds = new Set(['START', ...ids.slice(0, 4), 'send', 'END']);
    const reachedEdges = new Set([`START->${ids[0]}`, `${confirm}->send`, 'send->END']);
    const svg = svgOf(renderFlowDiagram(transfer, { coverage: { reachedStepIds, reachedEdges } }));
    const nodes = byAttribute(svg, 'data-step-id');
    const edges = byAttribute(svg, 'data-edge');
    expect(classesOf(single(nodes, 'send'))).to.include('reached');
    expect(classesOf(single(nodes, 'big'))).to.include('unreached');
    expect(classesOf(single(nodes, 'cancelled'))).to.include('unreached');
    expect(classesOf(single(edges, `${confirm}->send`))).to.include('reached');
    expect(classesOf(single(edges, `${confirm}->big`))).to.include('unreached');
    for (const element of [...nodes.values(), ...edges.values()].flat()) {
      const classes = classesOf(element);
      expect(classes.includes('reached') !== classes.includes('unreached'), classes.join(' ')).to.equal(true);
    }
  });

  it('is deterministic: the same flow and options give the same bytes', () => {
    const options = { currentStepId: 'send', visitedStepIds: ['START', 'big', 'send'] };
    const first = renderFlowDiagram(transfer, options);
    expect(renderFlowDiagram(transfer, options)).to.equal(first);
    expect(first).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(first).to.not.match(/NaN|undefined|href=|url\(/);
  });

  it('draws every default pattern flow', () => {
    const patterns = assistant.flows.flows.filter((candidate) => candidate.isDefault);
    expect(patterns.length).to.be.greaterThan(10);
    for (const pattern of patterns) {
      const nodes = byAttribute(svgOf(renderFlowDiagram(pattern)), 'data-step-id');
      expect(nodes.size, pattern.id).to.equal(pattern.steps.length + 2);
    }
  });

  it('draws a large flow with loops back, every node below the one before it on the main line', () => {
    const count = 150;
    const steps = Array.from({ length: count }, (_, index) => {
      const next = index + 1 < count ? `s${index + 1}` : 'END';
      const link: NextLink =
        index % 10 === 9
          ? {
              kind: 'branches',
              branches: [
                { condition: condition(`slots.n > ${index}`), target: next },
                { condition: undefined, target: 's0' },
              ],
            }
          : { kind: 'step', target: next };
      return step(`s${index}`, index % 3 === 0 ? 'collect' : 'action', link);
    });
    const svg = svgOf(renderFlowDiagram(makeFlow('big', steps)));
    const nodes = byAttribute(svg, 'data-step-id');
    expect(nodes.size).to.equal(count + 2);
    expect(byAttribute(svg, 'data-edge').size).to.equal(count + 1 + count / 10);
    const top = (id: string): number =>
      Number(single(nodes, id).children.find((child) => child.name === 'rect')?.attributes['y']);
    for (let index = 1; index < count; index++)
      expect(top(`s${index}`)).to.be.greaterThan(top(`s${index - 1}`));
  });
});

describeWithCorpus('flow diagrams of the third-party corpus', () => {
  const root = corpusRoot();
  const projects = readdirSync(root).filter(
    (name) => existsSync(join(root, name, 'domain.yml')) || existsSync(join(root, name, 'domain')),
  );
  it('has projects to draw', () => {
    expect(projects.length).to.be.greaterThan(3);
  });
  for (const name of projects) {
    it(`draws every flow of ${name}`, () => {
      const { project } = loadProject({ project: join(root, name) });
      const flows = project.assistant.flows.flows;
      expect(flows.length).to.be.greaterThan(0);
      for (const each of flows) {
        const svg = svgOf(renderFlowDiagram(each));
        expect(byAttribute(svg, 'data-step-id').size, each.id).to.be.at.least(each.steps.length + 2);
      }
    });
  }
});
