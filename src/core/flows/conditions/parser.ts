import { assertNever } from '../../errors.js';
import type { CompareOperator, ConditionAst, ConditionSyntaxError } from './ast.js';
import type { Token } from './lexer.js';

// pypred's grammar as a recursive-descent parser:
//   expression := NOT expression | term ((AND | OR) expression)?
//   term       := factor (op factor | IS NOT factor | CONTAINS factor | MATCHES factor)?
//   factor     := word | number | true | false | null | undefined | empty | ( expression ) | { factor* }
// AND and OR share one precedence level and associate to the right (`a or b and c` is
// `a or (b and c)`); NOT binds tighter than both (`not a and b` is `(not a) and b`).

export type TokenParseResult =
  | { readonly ok: true; readonly ast: ConditionAst }
  | { readonly ok: false; readonly error: ConditionSyntaxError };

class SyntaxFailure extends Error {
  constructor(readonly syntaxError: ConditionSyntaxError) {
    super(syntaxError.message);
  }
}

const COMPARISONS: Readonly<Record<string, CompareOperator>> = {
  '=': '=',
  '==': '=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

export function parseTokens(tokens: readonly Token[]): TokenParseResult {
  const parser = new Parser(tokens);
  try {
    const ast = parser.expression();
    parser.expectEnd();
    return { ok: true, ast };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, error: error.syntaxError };
    throw error;
  }
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  expression(): ConditionAst {
    const left = this.unary();
    const next = this.peek();
    if (next.kind !== 'keyword' || (next.keyword !== 'and' && next.keyword !== 'or')) return left;
    this.index += 1;
    return { kind: 'logical', operator: next.keyword, left, right: this.expression(), offset: next.offset };
  }

  expectEnd(): void {
    const next = this.peek();
    if (next.kind !== 'end') this.fail(next);
  }

  private unary(): ConditionAst {
    const next = this.peek();
    if (next.kind !== 'keyword' || next.keyword !== 'not') return this.term();
    this.index += 1;
    return { kind: 'not', operand: this.unary(), offset: next.offset };
  }

  private term(): ConditionAst {
    const left = this.factor();
    const next = this.peek();
    const offset = next.offset;
    if (next.kind === 'punctuation' && next.punctuation in COMPARISONS) {
      this.index += 1;
      return {
        kind: 'compare',
        operator: COMPARISONS[next.punctuation] ?? '=',
        left,
        right: this.factor(),
        offset,
      };
    }
    if (next.kind !== 'keyword') return left;
    switch (next.keyword) {
      case 'is':
        this.index += 1;
        return { kind: 'compare', operator: this.skipNot() ? '!=' : '=', left, right: this.factor(), offset };
      case 'contains':
        this.index += 1;
        return { kind: 'contains', left, right: this.factor(), offset };
      case 'matches':
        this.index += 1;
        return { kind: 'matches', left, right: this.factor(), offset };
      default:
        return left;
    }
  }

  private skipNot(): boolean {
    const next = this.peek();
    if (next.kind !== 'keyword' || next.keyword !== 'not') return false;
    this.index += 1;
    return true;
  }

  private factor(): ConditionAst {
    const token = this.peek();
    this.index += 1;
    switch (token.kind) {
      case 'word':
        return wordNode(token.text, token.offset);
      case 'number':
        return { kind: 'number', value: token.value, offset: token.offset };
      case 'keyword':
        return this.keywordFactor(token);
      case 'punctuation':
        if (token.punctuation === '(') return this.parenthesised();
        if (token.punctuation === '{') return this.set(token.offset);
        return this.fail(token);
      case 'end':
        return this.fail(token);
      default:
        return assertNever(token, 'token');
    }
  }

  private keywordFactor(token: Token & { readonly kind: 'keyword' }): ConditionAst {
    const offset = token.offset;
    switch (token.keyword) {
      case 'true':
        return { kind: 'constant', value: true, offset };
      case 'false':
        return { kind: 'constant', value: false, offset };
      case 'null':
        return { kind: 'constant', value: null, offset };
      case 'undefined':
        return { kind: 'undefined', offset };
      case 'empty':
        return { kind: 'empty', offset };
      default:
        return this.fail(token);
    }
  }

  /** Parentheses only group: `(x)` is the node `x` itself, as in pypred. */
  private parenthesised(): ConditionAst {
    const inner = this.expression();
    const close = this.peek();
    if (close.kind !== 'punctuation' || close.punctuation !== ')') return this.fail(close);
    this.index += 1;
    return inner;
  }

  private set(offset: number): ConditionAst {
    const items: ConditionAst[] = [];
    for (;;) {
      const next = this.peek();
      if (next.kind === 'punctuation' && next.punctuation === '}') break;
      items.push(this.factor());
    }
    this.index += 1;
    return { kind: 'set', items, offset };
  }

  private peek(): Token {
    const token = this.tokens[this.index] ?? this.tokens[this.tokens.length - 1];
    return token ?? { kind: 'end', offset: 0 };
  }

  private fail(token: Token): never {
    const message =
      token.kind === 'end' ? 'Unexpected end of condition' : `Syntax error at ${JSON.stringify(token.text)}`;
    throw new SyntaxFailure({ message, offset: token.offset });
  }
}

/** Quoted words are strings; every other word names a value in the document. */
function wordNode(text: string, offset: number): ConditionAst {
  const first = text[0];
  const quoted = text.length >= 2 && (first === '"' || first === "'") && text[text.length - 1] === first;
  return quoted
    ? { kind: 'string', value: text.slice(1, -1), offset }
    : { kind: 'identifier', name: text, offset };
}
