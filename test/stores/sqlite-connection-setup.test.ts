/** A SQLite connection's settings: the busy timeout first, and WAL tried again while another process holds the file. */
import { expect } from 'chai';
import { prepareSqliteConnection } from '../../src/stores/sql/sql-connection.js';

/** a connection whose `journal_mode = WAL` answers SQLITE_BUSY `busyTimes` times */
function connection(busyTimes: number, failure?: Error) {
  const pragmas: string[] = [];
  let busy = busyTimes;
  return {
    pragmas,
    pragma(source: string): unknown {
      if (source === 'journal_mode = WAL') {
        if (failure) throw failure;
        if (busy > 0) {
          busy -= 1;
          pragmas.push('busy');
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        }
      }
      pragmas.push(source);
      return undefined;
    },
  };
}

describe('SQLite connection set-up', () => {
  it('sets the busy timeout first, then WAL and NORMAL sync', async () => {
    const made = connection(0);
    await prepareSqliteConnection(made, 5000);
    expect(made.pragmas).to.deep.equal(['busy_timeout = 5000', 'journal_mode = WAL', 'synchronous = NORMAL']);
  });

  it('tries WAL again while the file is busy', async () => {
    const made = connection(3);
    await prepareSqliteConnection(made, 5000);
    expect(made.pragmas).to.deep.equal([
      'busy_timeout = 5000',
      'busy',
      'busy',
      'busy',
      'journal_mode = WAL',
      'synchronous = NORMAL',
    ]);
  });

  it('gives up once the busy timeout is over, and at once on another error', async () => {
    const stuck = connection(Number.POSITIVE_INFINITY);
    const started = Date.now();
    const busy = await prepareSqliteConnection(stuck, 100).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(busy).to.have.property('code', 'SQLITE_BUSY');
    expect(Date.now() - started).to.be.within(90, 2_000);
    const broken = connection(0, Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
    const other = await prepareSqliteConnection(broken, 5000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(other).to.have.property('code', 'SQLITE_IOERR');
    expect(broken.pragmas).to.deep.equal(['busy_timeout = 5000']);
  });
});
