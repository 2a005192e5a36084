import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AgentProfile, DEFAULT_AGENT_ID } from '../a2a/agent-profile';
import { ownerOf } from '../a2a/hosting/a2a-user';
import { continuesConversation } from '../a2a/hosting/call-state';
import { AgentHost } from '../a2a/hosting/agent-host';
import { AppConfig } from '../platform/config/app-config';
import { isDomainError } from '../platform/errors/domain-error';
import { inSpan } from '../platform/telemetry/spans';
import type { Metrics } from '../platform/metrics/metrics';
import { AgentCall, AgentOutcome, AgentRunner, textOf } from './agent-runner';
import { ContextSnapshot, empty, OrchestrationContextStore } from './context/orchestration-context.store';
import { afterTurn } from './context/turn-record';
import { OrchestrationFailure } from './orchestration-failure';
import { Reply, TaskStateLabel } from './orchestrator-reply';
import type { OrchestrationContext, PendingInput } from './orchestration.types';
import { userUtterance } from './router/text-analysis';
import { RoutingLog, RoutingRecord } from './routing-log/routing-log';
import { list, Plan, TurnPlanner } from './turn-planner';

/** A routing-log record until the turn ends. */
type DecisionDraft = Omit<RoutingRecord, 'durationMs' | 'outcome'>;

/** One request as the orchestrator works on it. */
interface Turn {
  request: RequestContext;
  owner: string;
  /** The message's text, and the user's own words in it (see userUtterance). */
  text: string;
  utterance: string;
  started: number;
  reply: Reply;
  log: DecisionDraft;
}

/** What the conversation remembered when the turn began. */
interface Recalled {
  /** As read, to compare-and-set against; undefined when context preservation is off. */
  stored: ContextSnapshot | undefined;
  context: OrchestrationContext;
  freshness: TaskStateLabel;
}

/**
 * The orchestrator: routes each request to the agents that should answer it, runs them in
 * parallel with a deadline each, and answers as one - an A2A Message whose first part is the
 * aggregated reply, with `agents_used`, `execution_time_ms` and `task_state` in its metadata. When
 * an agent asks something, or routing is too unsure, the answer is a Task in `input-required`
 * whose status message is the question; the next message in the same context (with or without
 * the task id - Home Assistant never sends one) continues. Conversations are kept in the
 * key-value store, decisions in the routing log.
 */
export class OrchestratorExecutor implements AgentExecutor {
  private readonly logger = new Logger('Orchestrator');
  private readonly runner: AgentRunner;
  private readonly settings: AppConfig['orchestration'];

  constructor(
    private readonly host: AgentHost,
    private readonly planner: TurnPlanner,
    private readonly contexts: OrchestrationContextStore,
    private readonly routingLog: RoutingLog,
    config: AppConfig,
    metrics?: Metrics,
  ) {
    this.settings = config.orchestration;
    this.runner = new AgentRunner(host, this.settings.agentTimeoutMs, metrics);
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const turn = this.begin(request, bus);
    try {
      const recalled = await this.recall(turn);
      const agents = this.candidates();
      if (!turn.utterance || !agents.length) return this.answerAlone(turn, recalled);
      const plan = await this.route(turn, recalled.context, agents);
      if (plan.kind === 'ask') return await this.ask(turn, recalled, plan);
      const outcomes = await this.run(turn, recalled.context, plan);
      await this.conclude(turn, recalled, plan, outcomes, agents);
    } catch (error) {
      const failure = asFailure(error, this.logger);
      turn.reply.fail(failure);
      this.finish(turn, 'error', { errorCode: failure.error.errorCode, answerText: failure.error.userMessage });
    }
  }

  /** The turn's request, its reply and its routing-log record, before anything is decided. */
  private begin(request: RequestContext, bus: ExecutionEventBus): Turn {
    const started = Date.now();
    const owner = ownerOf(request.context);
    const text = textOf(request.userMessage.parts);
    const utterance = userUtterance(text);
    return {
      request,
      owner,
      text,
      utterance,
      started,
      reply: new Reply(request, bus, started),
      log: {
        owner,
        contextId: request.contextId,
        taskId: request.taskId,
        requestText: utterance,
        agents: [],
        confidence: null,
        reasoning: '',
        candidates: [],
        answerText: null,
        router: this.planner.routerName,
        errorCode: null,
      },
    };
  }

  /**
   * The conversation so far (when context preservation is on). A message that named no context
   * or task starts a conversation under an id the SDK just made up: nothing is stored to read.
   */
  private async recall(turn: Turn): Promise<Recalled> {
    const { context: call, contextId } = turn.request;
    let stored: ContextSnapshot | undefined;
    if (this.settings.preserveContext) {
      stored = continuesConversation(call)
        ? await this.contexts.load(turn.owner, contextId)
        : { context: empty(contextId), etag: null };
    }
    return {
      stored,
      context: stored?.context ?? empty(turn.request.contextId),
      freshness: stored?.etag ? 'resumed' : 'fresh',
    };
  }

  /** The agents a spoken request can go to. */
  private candidates(): AgentProfile[] {
    return routableAgents(this.host);
  }

  /** Nothing to route: no text, or no agent to route to. */
  private answerAlone(turn: Turn, recalled: Recalled): void {
    const message = !turn.utterance
      ? 'Please tell me what you would like me to do - I can only read text.'
      : 'No agents are registered yet, so there is nobody to pass that to. An operator can add one with POST /api/agents.';
    turn.reply.answer(message, [], recalled.freshness);
    this.finish(turn, 'answered', { reasoning: message, answerText: message });
  }

  private async route(turn: Turn, context: OrchestrationContext, agents: AgentProfile[]): Promise<Plan> {
    const plan = await inSpan(
      'orchestrator.route',
      { 'switchboard.agents_available': agents.length },
      () => this.planner.plan(turn.owner, turn.utterance, turn.text, context, agents),
      (chosen) => ({
        'switchboard.router': chosen.router,
        'switchboard.agents': chosen.kind === 'run' ? chosen.calls.map((c) => c.agentId) : [],
        'switchboard.confidence': chosen.choice.confidence ?? -1,
      }),
    );
    Object.assign(turn.log, {
      agents: plan.kind === 'run' ? plan.calls.map((c) => c.agentId) : plan.candidates,
      candidates: plan.kind === 'ask' ? plan.candidates : (plan.choice.candidates ?? []),
      confidence: plan.choice.confidence,
      reasoning: plan.choice.reasoning,
      router: plan.router,
    });
    return plan;
  }

  /** Routing was too unsure: the turn is a question naming the candidates. */
  private async ask(turn: Turn, recalled: Recalled, plan: Extract<Plan, { kind: 'ask' }>): Promise<void> {
    const pending: PendingInput = { kind: 'clarification', request: turn.text, candidates: plan.candidates };
    await this.remember(turn.owner, recalled.stored, turn.utterance, plan.question, [], { pending });
    turn.reply.ask(plan.question, [], recalled.freshness);
    this.finish(turn, 'clarification', { answerText: plan.question });
  }

  /** Calls the planned agents, each in the thread the conversation keeps with it. */
  private run(turn: Turn, context: OrchestrationContext, plan: Extract<Plan, { kind: 'run' }>) {
    return this.runner.runAll(
      plan.calls.map((call): AgentCall => {
        const thread = context.agentThreads[call.agentId];
        return {
          ...call,
          contextId: thread?.contextId ?? randomUUID(),
          continuesThread: thread !== undefined,
          taskId:
            context.pending?.kind === 'agent-input' && context.pending.agentId === call.agentId
              ? thread?.taskId
              : undefined,
        };
      }),
      turn.request.context,
      this.settings.maxParallelAgents,
    );
  }

  /** Remembers the turn and answers: the aggregate, an agent's question, or AGENT_TIMEOUT. */
  private async conclude(
    turn: Turn,
    recalled: Recalled,
    plan: Extract<Plan, { kind: 'run' }>,
    outcomes: AgentOutcome[],
    agents: AgentProfile[],
  ): Promise<void> {
    const agentsUsed = outcomes.map((o) => o.agentId);
    const names = new Map(agents.map((a) => [a.id, a.name]));
    const asking = outcomes.find((o) => o.needsInput);
    // An agent's own question comes first; the orchestrator asks about the rest of a split request otherwise.
    const question = asking ? undefined : plan.question;
    const answerText = [aggregate(outcomes, names, asking), question?.text].filter(Boolean).join('\n');
    await this.remember(turn.owner, recalled.stored, turn.utterance, answerText, outcomes, {
      pending: asking
        ? { kind: 'agent-input', agentId: asking.agentId }
        : question && { kind: 'clarification', request: question.request, candidates: question.candidates },
      previousAgentId: asking?.agentId ?? agentsUsed[0],
    });
    const timedOut = outcomes.filter((o) => o.timedOut);
    if (timedOut.length) throw timeoutFailure(timedOut, outcomes, names, answerText);
    const state: TaskStateLabel = plan.answersPending && !asking ? 'completed' : recalled.freshness;
    if (asking || question) {
      turn.reply.ask(answerText, agentsUsed, state);
      this.finish(turn, 'input-required', { answerText });
    } else {
      turn.reply.answer(answerText, agentsUsed, state);
      this.finish(turn, 'answered', { answerText });
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    // Agents run within the request and are cancelled at their deadline; an input-required task
    // is only a question waiting for an answer, so cancelling it just ends it.
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  /** Records the turn in the conversation's context (when context preservation is on). */
  private async remember(
    owner: string,
    /** The context as this turn read it; undefined when context preservation is off. */
    from: ContextSnapshot | undefined,
    said: string,
    answered: string,
    outcomes: AgentOutcome[],
    next: { pending?: PendingInput; previousAgentId?: string },
  ): Promise<void> {
    if (!from) return;
    const turn = { said, answered, ran: outcomes, ...next, at: new Date().toISOString() };
    await this.contexts.update(owner, from, (context) => afterTurn(context, turn, this.settings.maxHistory));
  }

  /** Writes the turn's decision to the routing log (behind the answer). */
  private finish(turn: Turn, outcome: RoutingRecord['outcome'], extra: Partial<DecisionDraft> = {}): void {
    void this.routingLog.record({ ...turn.log, ...extra, durationMs: Date.now() - turn.started, outcome });
  }
}

/** The reply: what succeeded, in agent order, the question if one was asked, and plainly what failed. */
function aggregate(outcomes: AgentOutcome[], names: Map<string, string>, asking: AgentOutcome | undefined): string {
  const parts: string[] = [];
  for (const outcome of outcomes) {
    if (outcome === asking || outcome.timedOut) continue;
    const name = names.get(outcome.agentId) ?? outcome.agentId;
    if (outcome.needsInput || !outcome.success) {
      if (!outcome.needsInput) parts.push(`${name} could not help: ${outcome.errorMessage ?? 'it failed'}.`);
    } else {
      parts.push(outcome.content || `${name} finished without saying anything.`);
    }
  }
  if (asking) parts.push(asking.content);
  return parts.join('\n');
}

function asFailure(error: unknown, logger: Logger): OrchestrationFailure {
  if (error instanceof OrchestrationFailure) return error;
  // A DomainError's message is written for callers (a store unavailable); anything else only for the log.
  if (!isDomainError(error)) {
    logger.error(`Orchestration failed: ${(error as Error)?.message ?? String(error)}`, (error as Error)?.stack);
  }
  return new OrchestrationFailure({
    errorCode: 'WORKFLOW_ERROR',
    userMessage: 'Sorry, something went wrong while handling that. Please try again.',
    technicalDetails: isDomainError(error) ? error.message : undefined,
    suggestedAction: 'Retry the request.',
  });
}

/** AGENT_TIMEOUT: what the agents that answered said, and which did not answer in time. */
function timeoutFailure(
  timedOut: AgentOutcome[],
  outcomes: AgentOutcome[],
  names: Map<string, string>,
  answerText: string,
): OrchestrationFailure {
  const late = timedOut.map((o) => names.get(o.agentId) ?? o.agentId);
  const answered = outcomes.filter((o) => o.success && !o.needsInput);
  return new OrchestrationFailure(
    {
      errorCode: 'AGENT_TIMEOUT',
      userMessage: [answerText, `${list(late)} did not answer in time.`].filter(Boolean).join(' '),
      technicalDetails: timedOut.map((o) => `${o.agentId}: ${o.errorMessage}`).join('; '),
      suggestedAction: 'Try again; if it keeps happening, check the agent or raise AGENT_TIMEOUT_MS.',
    },
    { text: answered.map((o) => o.content).join('\n'), agentsUsed: outcomes.map((o) => o.agentId) },
  );
}

/** The hosted agents the orchestrator routes among. */
export function routableAgents(host: AgentHost): AgentProfile[] {
  return host
    .list()
    .filter((a) => a.id !== DEFAULT_AGENT_ID && takesText(a.profile))
    .map((a) => a.profile);
}

/** Agents the orchestrator can pass a spoken request to: those taking text (or saying nothing). */
function takesText(profile: AgentProfile): boolean {
  return profile.defaultInputModes.length === 0 || profile.defaultInputModes.some((mode) => mode.startsWith('text'));
}
