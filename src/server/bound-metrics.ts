/**
 * A histogram and a counter whose series are bound once to their label values and then updated with
 * plain arithmetic. prom-client's own children hash their labels, validate them and look a bucket up
 * by its bound turned into a string at every observation; a turn makes some ten of them, which was 3 to
 * 4 % of a stored REST turn's CPU. These objects have the shape prom-client's Registry reads
 * (`name`, `help`, `type`, `get()`, `reset()`), so the exposition is written by prom-client as before.
 */
import type { Registry } from 'prom-client';

type Labels = Readonly<Record<string, string>>;

interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

interface ExportedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram' | 'counter';
  readonly values: MetricValue[];
  readonly aggregator: 'sum';
}

interface MetricDefinition {
  readonly name: string;
  readonly help: string;
  readonly registry: Registry;
}

export interface HistogramSeries {
  observe(value: number): void;
}

export interface CounterSeries {
  inc(amount?: number): void;
}

class HistogramCells implements HistogramSeries {
  /** per bucket, the observations at or under its bound and above the one before (not cumulative) */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count += 1;
    const bounds = this.bounds;
    for (let index = 0; index < bounds.length; index += 1) {
      if (value <= (bounds[index] as number)) {
        (this.counts[index] as number) += 1;
        return;
      }
    }
  }
}

/** The series of one metric by label values, registered with the registry prom-client writes out. */
abstract class BoundMetric<Cell> {
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  protected readonly series = new Map<string, Cell>();

  constructor(definition: MetricDefinition) {
    this.name = definition.name;
    this.help = definition.help;
    definition.registry.registerMetric(this as never);
  }

  protected abstract cellFor(labels: Labels): Cell;

  /** The series of these label values; `key` names them (the caller keeps the label sets bounded). */
  protected cell(key: string, labels: Labels): Cell {
    let cell = this.series.get(key);
    if (!cell) {
      cell = this.cellFor(labels);
      this.series.set(key, cell);
    }
    return cell;
  }

  reset(): void {
    this.series.clear();
  }
}

export class BoundHistogram extends BoundMetric<HistogramCells> {
  readonly type = 'histogram';

  constructor(
    definition: MetricDefinition,
    private readonly bounds: readonly number[],
  ) {
    super(definition);
  }

  bind(key: string, labels: Labels): HistogramSeries {
    return this.cell(key, labels);
  }

  get(): Promise<ExportedMetric> {
    const values: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const cells of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += cells.counts[index] as number;
        values.push({ labels: { le: bound, ...cells.labels }, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...cells.labels }, value: cells.count, metricName: bucket });
      values.push({ labels: { ...cells.labels }, value: cells.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...cells.labels }, value: cells.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' });
  }

  protected cellFor(labels: Labels): HistogramCells {
    return new HistogramCells(labels, this.bounds);
  }
}

class CounterCell implements CounterSeries {
  value = 0;

  constructor(readonly labels: Labels) {}

  inc(amount = 1): void {
    if (Number.isFinite(amount) && amount > 0) this.value += amount;
  }
}

export class BoundCounter extends BoundMetric<CounterCell> {
  readonly type = 'counter';

  bind(key: string, labels: Labels): CounterSeries {
    return this.cell(key, labels);
  }

  get(): Promise<ExportedMetric> {
    const values = [...this.series.values()].map((cell) => ({
      labels: { ...cell.labels },
      value: cell.value,
    }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' });
  }

  protected cellFor(labels: Labels): CounterCell {
    return new CounterCell(labels);
  }
}
