/**
 * Natural batching of one kind of statement: at most `maxInFlight` are on their way at once, and the
 * requests that come meanwhile wait, then go together in one statement (at most `maxBatch`). At low load
 * a request goes at once, alone; under load one round trip serves many. A request names the
 * conversation it is about: a batch never holds two of one conversation, nor one of a conversation
 * whose earlier request is still on its way (a write could not follow events not yet committed), so a
 * conversation's requests run in the order they were made.
 */
export interface BatchedStatements<Request, Answer> {
  /** one request alone (also what a failed batch falls back to, request by request) */
  alone(request: Request): Promise<Answer>;
  /** several requests in one statement: one answer each, in order */
  together(requests: readonly Request[]): Promise<Answer[]>;
  /** whether a batch that failed so should run again request by request (else each gets the error) */
  retryAlone(error: unknown): boolean;
  /** what a request weighs toward BatcherLimits.maxWeight (e.g. the bytes it sends); 0 when not given */
  weight?(request: Request): number;
}

export interface BatcherLimits {
  readonly maxInFlight: number;
  readonly maxBatch: number;
  /**
   * a bound on the summed weight of a batch, so that one statement stays a reasonable size; a request
   * heavier than it alone goes alone
   */
  readonly maxWeight?: number;
}

interface Waiting<Request, Answer> {
  readonly conversationId: string;
  readonly request: Request;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
}

export class StatementBatcher<Request, Answer> {
  private readonly waiting: Waiting<Request, Answer>[] = [];
  private inFlight = 0;
  /** the conversations of the requests on their way */
  private readonly sending = new Set<string>();
  private readonly statements: BatchedStatements<Request, Answer>;
  private readonly limits: BatcherLimits;

  constructor(statements: BatchedStatements<Request, Answer>, limits: BatcherLimits) {
    this.statements = statements;
    this.limits = limits;
  }

  run(conversationId: string, request: Request): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      this.waiting.push({ conversationId, request, resolve, reject });
      this.sendNext();
    });
  }

  private sendNext(): void {
    while (this.inFlight < this.limits.maxInFlight && this.waiting.length > 0) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.inFlight += 1;
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        for (const { conversationId } of batch) this.sending.delete(conversationId);
        this.sendNext();
      });
    }
  }

  /** The oldest waiting requests that may go now, one a conversation, at most maxBatch and maxWeight. */
  private takeBatch(): Waiting<Request, Answer>[] {
    const batch: Waiting<Request, Answer>[] = [];
    const later: Waiting<Request, Answer>[] = [];
    const maxWeight = this.limits.maxWeight ?? Number.POSITIVE_INFINITY;
    let weight = 0;
    while (this.waiting.length > 0 && batch.length < this.limits.maxBatch) {
      const next = this.waiting.shift() as Waiting<Request, Answer>;
      const nextWeight = this.statements.weight?.(next.request) ?? 0;
      if (this.sending.has(next.conversationId)) later.push(next);
      else if (batch.length > 0 && weight + nextWeight > maxWeight) {
        // full: it and the ones after it wait for the next batch, in their order
        later.push(next);
        break;
      } else {
        this.sending.add(next.conversationId);
        batch.push(next);
        weight += nextWeight;
      }
    }
    this.waiting.unshift(...later);
    return batch;
  }

  private async send(batch: readonly Waiting<Request, Answer>[]): Promise<void> {
    const [only] = batch;
    if (batch.length === 1 && only) return this.sendAlone(only);
    let answers: Answer[];
    try {
      answers = await this.statements.together(batch.map((waiting) => waiting.request));
    } catch (error) {
      if (this.statements.retryAlone(error))
        await Promise.all(batch.map((waiting) => this.sendAlone(waiting)));
      else for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => waiting.resolve(answers[index] as Answer));
  }

  private async sendAlone(waiting: Waiting<Request, Answer>): Promise<void> {
    try {
      waiting.resolve(await this.statements.alone(waiting.request));
    } catch (error) {
      waiting.reject(error);
    }
  }
}
