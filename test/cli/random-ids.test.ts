import { expect } from 'chai';
import { RANDOM_IDS } from '../../src/cli/compose.js';

describe('RANDOM_IDS (the ids a running server gives frames and messages)', () => {
  it('gives 8-character frame ids that do not repeat, across refills of its random pool', () => {
    // 4 KB of random bytes hold 682 ids of 6 bytes: 5,000 ids span several refills
    const ids = Array.from({ length: 5000 }, () => RANDOM_IDS.frameId());
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids) expect(id).to.match(/^[A-Z0-9_-]{8}$/);
  });

  it('gives 32-hex-digit message ids', () => {
    const ids = Array.from({ length: 100 }, () => RANDOM_IDS.messageId());
    expect(new Set(ids).size).to.equal(ids.length);
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{32}$/);
  });
});
