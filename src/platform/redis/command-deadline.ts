import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

interface Waiting {
  startedAt: number;
  fail: (error: Error) => void;
  /** Failed by the sweep while Redis had not answered yet. */
  overdue: boolean;
}

/**
 * Bounds how long callers wait for Redis, with one timer for every command. (node-redis' own
 * per-command timeout arms an `AbortSignal.timeout()` for each command, ~12 µs of CPU apiece - a
 * large share of a rate-limited request's cost.) Waiting commands are kept in the order they
 * started; a sweep, four times per deadline, fails those past it with SERVICE_UNAVAILABLE.
 *
 * A command past its deadline means Redis is stalled (paused, overloaded, a network partition
 * that keeps the socket open). Until the overdue commands are answered, or the connection drops
 * and node-redis fails them, new commands fail at once rather than pile up behind them.
 */
export class CommandDeadline {
  private readonly waiting = new Set<Waiting>();
  private overdue = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly timeoutMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.floor(timeoutMs / 4)));
    this.sweeper.unref();
  }

  /** Whether commands fail at once because earlier ones are still unanswered past the deadline. */
  get stalled(): boolean {
    return this.overdue > 0;
  }

  async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.stalled) throw stalled(this.timeoutMs);
    let fail!: (error: Error) => void;
    const expired = new Promise<never>((_, reject) => (fail = reject));
    const waiting: Waiting = { startedAt: this.now(), fail, overdue: false };
    this.waiting.add(waiting);
    // An async wrapper, so a command that throws at once is answered like one that rejects.
    const answered = (async () => command())();
    const settle = () => {
      if (waiting.overdue) this.overdue--;
      else this.waiting.delete(waiting);
    };
    answered.then(settle, settle);
    return Promise.race([answered, expired]);
  }

  /** Fails every command older than the deadline (the oldest come first in the set). */
  sweep(): void {
    const cutoff = this.now() - this.timeoutMs;
    for (const waiting of this.waiting) {
      if (waiting.startedAt > cutoff) break;
      this.waiting.delete(waiting);
      waiting.overdue = true;
      this.overdue++;
      waiting.fail(timedOut(this.timeoutMs));
    }
  }

  /** Resolves once no command is waiting (each is answered, or failed by the sweep), or after `limitMs`. */
  async idle(limitMs: number): Promise<void> {
    const until = this.now() + limitMs;
    while (this.waiting.size > 0 && this.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      this.sweep();
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

const IDLE_POLL_MS = 20;

function timedOut(timeoutMs: number): DomainError {
  return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, `Redis did not answer within ${timeoutMs} ms`, {
    retryAfterSeconds: 1,
  });
}

function stalled(timeoutMs: number): DomainError {
  return new DomainError(
    ErrorCode.SERVICE_UNAVAILABLE,
    `Redis is not answering (a command has waited more than ${timeoutMs} ms); try again shortly`,
    { retryAfterSeconds: 1 },
  );
}
