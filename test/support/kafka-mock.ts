/**
 * A Kafka cluster for the Kafka event broker's tests: librdkafka's built-in mock cluster, hosted by a
 * `kcat` consumer (Debian's package kcat) started with `test.mock.num.brokers`. The mock speaks the
 * Kafka protocol on a loopback port (metadata, produce with acks, fetch) and is librdkafka's own, not
 * ours; it is not Apache Kafka. The same kcat process consumes the topic, so what the broker holds is
 * read back as kcat's JSON lines. Suites skip with one line when kcat is missing, unless
 * REQUIRE_KAFKA=1 (CI), where they fail.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const KCAT = process.env['PARLEY_TEST_KCAT'] ?? 'kcat';

/** Call in a `before` hook: skips the suite (one line) without kcat, fails with REQUIRE_KAFKA=1. */
export function requireKcat(context: Mocha.Context): void {
  const probe = spawnSync(KCAT, ['-V'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.includes('librdkafka')) return;
  const reason = probe.error ? probe.error.message : `exit ${String(probe.status)}`;
  if (process.env['REQUIRE_KAFKA'] === '1')
    throw new Error(`kcat (librdkafka's mock Kafka cluster) is required (REQUIRE_KAFKA=1): ${reason}`);
  console.warn(
    `    ⚠ skipping: kcat is not installed (${reason}; Debian: apt-get install kcat); set REQUIRE_KAFKA=1 to fail instead`,
  );
  context.skip();
}

/** one record as kcat -J prints it */
export interface KafkaRecord {
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  readonly payload: string;
}

export class MockKafka {
  readonly records: KafkaRecord[] = [];
  private stdout = '';

  private constructor(
    private readonly process: ChildProcess,
    /** `127.0.0.1:port` */
    readonly bootstrap: string,
  ) {
    process.stdout?.setEncoding('utf8');
    process.stdout?.on('data', (chunk: string) => this.read(chunk));
  }

  /** A one-broker mock cluster whose `topic` (created with 4 partitions) is consumed from the start. */
  static async start(topic: string): Promise<MockKafka> {
    const child = spawn(
      KCAT,
      [
        '-C',
        '-b',
        '127.0.0.1:9',
        '-X',
        'test.mock.num.brokers=1',
        '-t',
        topic,
        '-o',
        'beginning',
        '-J',
        '-u',
        '-d',
        'mock',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stderr.setEncoding('utf8');
    let log = '';
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`kcat printed no mock cluster address:\n${log}`)),
        5000,
      );
      child.stderr.on('data', (chunk: string) => {
        log = (log + chunk).slice(-20_000);
        const match = /bootstrap\.servers=(127\.0\.0\.1:\d+)/.exec(log);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`kcat exited (${String(code)}):\n${log}`)));
    });
    // the debug lines go on; keep reading them so that kcat never blocks on a full pipe
    child.stderr.resume();
    return new MockKafka(child, address);
  }

  /** Waits until `count` records arrived (or `timeoutMs` passed) and returns them all. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<KafkaRecord[]> {
    const until = Date.now() + timeoutMs;
    while (this.records.length < count && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return [...this.records];
  }

  /** The broker stops answering (its process is frozen); `resume` wakes it. */
  pause(): void {
    this.process.kill('SIGSTOP');
  }

  resume(): void {
    this.process.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGCONT');
    this.process.kill('SIGKILL');
    await once(this.process, 'exit');
  }

  private read(chunk: string): void {
    this.stdout += chunk;
    const lines = this.stdout.split('\n');
    this.stdout = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const record = JSON.parse(line) as KafkaRecord;
      this.records.push({
        partition: record.partition,
        offset: record.offset,
        key: record.key,
        payload: record.payload,
      });
    }
  }
}
