import { expect } from 'chai';
import { ActiveConversations } from '../../src/server/active-conversations.js';

describe('ActiveConversations', () => {
  it('counts each conversation once while its last turn is inside the window', () => {
    let now = 0;
    const active = new ActiveConversations({ windowSeconds: 60, maxTracked: 100, now: () => now });
    active.touch('a');
    active.touch('b');
    active.touch('a');
    expect(active.count()).to.equal(2);
    now = 50_000;
    active.touch('a'); // a's last turn moves to 50 s
    now = 61_000;
    expect(active.count()).to.equal(1); // b (0 s) expired, a (50 s) still active
    now = 111_000;
    expect(active.count()).to.equal(0);
  });

  it('remembers at most maxTracked ids, forgetting the least recently active first', () => {
    let now = 0;
    const active = new ActiveConversations({ windowSeconds: 3600, maxTracked: 3, now: () => now });
    for (const id of ['a', 'b', 'c']) {
      active.touch(id);
      now += 1;
    }
    active.touch('a'); // a: 0 → 3 ms, so b (1 ms) is the least recently active
    active.touch('d'); // a fourth id: b is forgotten, c (2 ms), a and d (3 ms) remain
    expect(active.count()).to.equal(3);
    // at this time an id last seen at 1 ms would have expired but one seen at 2 ms not: had c been
    // forgotten instead of b, the count would drop to 2 here
    now = 3600 * 1000 + 2;
    expect(active.count()).to.equal(3);
    now += 1;
    expect(active.count()).to.equal(2);
  });
});
