import { expect } from 'chai';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeNames } from '../../src/cli/close-names.js';
import { writeInlineProject } from '../support/inline-project.js';
import { byAttribute, parseMarkup } from '../support/markup.js';
import { runCli } from './cli-harness.js';

const PROJECT = {
  domain: `
    slots:
      amount:
        type: float
    responses:
      utter_ask_amount:
        - text: How much?
      utter_done:
        - text: Done.
  `,
  flows: `
    flows:
      transfer_money:
        description: Send money.
        steps:
          - collect: amount
            next:
              - if: slots.amount > 100
                then: big
              - else: done
          - id: big
            link: check_balance
          - id: done
            action: utter_done
      check_balance:
        description: Show the balance.
        steps:
          - action: utter_done
  `,
};

describe('parley data diagram', function () {
  this.timeout(30_000);
  let root: string;
  let out: string;
  before(() => (root = writeInlineProject(PROJECT)));
  beforeEach(() => (out = join(mkdtempSync(join(tmpdir(), 'parley-diagrams-')), 'nested', 'out')));
  afterEach(() => rmSync(join(out, '..', '..'), { recursive: true, force: true }));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('writes one SVG per flow, patterns included, into a folder it creates, and lists them', async () => {
    const run = await runCli(['data', 'diagram', '-p', root, '--out', out]);
    expect(run.code, run.stderr).to.equal(0);
    const files = readdirSync(out).sort();
    expect(files).to.include.members([
      'check_balance.svg',
      'transfer_money.svg',
      'pattern_collect_information.svg',
    ]);
    expect(files.every((file) => file.endsWith('.svg'))).to.equal(true);
    for (const file of files) expect(run.stdout).to.contain(join(out, file));
    expect(run.stdout.trimEnd().split('\n').at(-1)).to.equal(
      `Wrote ${files.length} flow diagrams to ${out}.`,
    );
    const svg = parseMarkup(readFileSync(join(out, 'transfer_money.svg'), 'utf8'));
    expect([...byAttribute(svg, 'data-edge').keys()]).to.include.members([
      'START->transfer_money_0_collect_amount',
      'transfer_money_0_collect_amount->big',
      'transfer_money_0_collect_amount->done',
      'done->END',
    ]);
  });

  it('leaves the patterns out with --no-patterns', async () => {
    const run = await runCli(['data', 'diagram', '-p', root, '--out', out, '--no-patterns']);
    expect(run.code, run.stderr).to.equal(0);
    expect(readdirSync(out).sort()).to.deep.equal(['check_balance.svg', 'transfer_money.svg']);
  });

  it('writes only the flow named', async () => {
    const run = await runCli(['data', 'diagram', 'check_balance', '-p', root, '--out', out]);
    expect(run.code, run.stderr).to.equal(0);
    expect(readdirSync(out)).to.deep.equal(['check_balance.svg']);
    expect(run.stdout).to.equal(`${join(out, 'check_balance.svg')}\nWrote 1 flow diagram to ${out}.\n`);
  });

  it('refuses an unknown flow, naming the close ones, and writes nothing', async () => {
    const run = await runCli(['data', 'diagram', 'transfer_mony', '-p', root, '--out', out]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(
      "parley: no flow 'transfer_mony' in the assistant. Did you mean: transfer_money?\n",
    );
    expect(existsSync(out)).to.equal(false);
  });

  it('lists the flows when no name is close, and bounds a huge name', async () => {
    const far = await runCli(['data', 'diagram', 'zzzzzzzz', '-p', root, '--out', out]);
    expect(far.code).to.equal(1);
    expect(far.stderr).to.contain('Its flows: transfer_money, check_balance.');
    const huge = await runCli([
      'data',
      'diagram',
      `x\u001b[2J${'y'.repeat(100_000)}`,
      '-p',
      root,
      '--out',
      out,
    ]);
    expect(huge.code).to.equal(1);
    expect(huge.stderr.length).to.be.lessThan(400);
    expect(huge.stderr).to.not.contain('\u001b');
  });

  it('refuses an --out that is a file', async () => {
    mkdirSync(join(out, '..'), { recursive: true });
    writeFileSync(out, 'not a folder');
    const run = await runCli(['data', 'diagram', '-p', root, '--out', out]);
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(`parley: --out ${out} is a file, not a folder.\n`);
    expect(readFileSync(out, 'utf8')).to.equal('not a folder');
  });

  it('refuses a project that does not load, with its errors', async () => {
    const broken = writeInlineProject({ ...PROJECT, flows: 'flows:\n  bad flow:\n    steps: []\n' });
    try {
      const run = await runCli(['data', 'diagram', '-p', broken, '--out', out]);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/ error [A-Z_]+ /);
      expect(run.stderr).to.contain('does not load');
      expect(existsSync(out)).to.equal(false);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe('closeNames', () => {
  it('lists near names nearest first, and names that contain the one typed', () => {
    const known = ['transfer_money', 'transfer_money_abroad', 'check_balance', 'pattern_cancel_flow'];
    expect(closeNames('transfer_mony', known)).to.deep.equal(['transfer_money']);
    expect(closeNames('transfer', known)).to.deep.equal(['transfer_money', 'transfer_money_abroad']);
    expect(closeNames('balance', known)).to.deep.equal(['check_balance']);
    expect(closeNames('qqq', known)).to.deep.equal([]);
  });
});
