/**
 * prom-client's child of a metric for one set of label values, made once and kept: a turn reports
 * some ten observations, and prom-client otherwise hashes a fresh label object at each one. The label
 * values come from bounded sets (channels are capped by the caller, the rest are enums).
 */
export class LabelledChildren<Child> {
  private readonly children = new Map<string, Map<string, Child>>();

  constructor(private readonly make: (first: string, second: string) => Child) {}

  get(first: string, second = ''): Child {
    let inner = this.children.get(first);
    if (!inner) {
      inner = new Map();
      this.children.set(first, inner);
    }
    let child = inner.get(second);
    if (!child) {
      child = this.make(first, second);
      inner.set(second, child);
    }
    return child;
  }
}
