import { LineCounter, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';

export type YamlPath = readonly (string | number)[];

/**
 * A YAML document read with YAML 1.2 core-schema rules (as Rasa's ruamel loader reads it: `Yes` stays a
 * string, no timestamps) that can say on which line any value starts.
 */
export class YamlSource {
  readonly data: unknown;
  readonly errors: readonly { readonly line: number; readonly message: string }[];
  private readonly document: Document.Parsed;
  private readonly lineCounter: LineCounter;

  constructor(text: string) {
    this.lineCounter = new LineCounter();
    this.document = parseDocument(text, {
      version: '1.2',
      schema: 'core',
      lineCounter: this.lineCounter,
      uniqueKeys: true,
    });
    this.errors = this.document.errors.map((error) => ({
      line: error.linePos?.[0].line ?? 1,
      message: error.message.split('\n')[0] ?? error.message,
    }));
    this.data = this.errors.length === 0 ? this.document.toJS() : undefined;
  }

  /** The 1-based line where the value at `path` starts; the nearest enclosing value's line otherwise. */
  lineAt(path: YamlPath): number {
    for (let length = path.length; length >= 0; length--) {
      const node = this.document.getIn(path.slice(0, length), true) as Node | undefined;
      const offset = node?.range?.[0];
      if (offset !== undefined) return this.lineCounter.linePos(offset).line;
    }
    return 1;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
