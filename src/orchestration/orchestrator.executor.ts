import { Message, Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AgentProfile, DEFAULT_AGENT_ID } from '../a2a/agent-profile';
import { agentTextMessage } from '../a2a/executors/agent-messages';
import { ownerOf } from '../a2a/hosting/a2a-user';
import { AgentHost } from '../a2a/hosting/agent-host';
import { AppConfig } from '../platform/config/app-config';
import { isDomainError } from '../platform/errors/domain-error';
import { inSpan } from '../platform/telemetry/spans';
import type { Metrics } from '../platform/metrics/metrics';
import { AgentCall, AgentOutcome, AgentRunner, textOf } from './agent-runner';
import { ContextSnapshot, empty, OrchestrationContextStore } from './context/orchestration-context.store';
import { OrchestrationFailure } from './orchestration-failure';
import type { AgentChoiceResult, OrchestrationContext, PendingInput } from './orchestration.types';
import { AgentRouter } from './router/agent-router';
import { DefaultRouter } from './router/default-router';
import { userUtterance } from './router/text-analysis';
import { RoutingLog, RoutingRecord } from './routing-log/routing-log';

export type TaskStateLabel = 'fresh' | 'resumed' | 'completed';

/** Key of the OrchestrationError in a failed orchestrator task's metadata. */
export const ORCHESTRATION_ERROR_KEY = 'orchestration_error';

/** A routing-log record until the turn ends. */
type DecisionDraft = Omit<RoutingRecord, 'durationMs' | 'outcome'>;

/** What the orchestrator decided to do with a request. */
type Plan =
  | {
      kind: 'run';
      calls: { agentId: string; text: string }[];
      choice: AgentChoiceResult;
      router: string;
      /** The turn answers a question asked earlier (by an agent or by the orchestrator). */
      answersPending: boolean;
    }
  | { kind: 'ask'; question: string; candidates: string[]; choice: AgentChoiceResult; router: string };

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
    private readonly router: AgentRouter,
    private readonly contexts: OrchestrationContextStore,
    private readonly routingLog: RoutingLog,
    config: AppConfig,
    metrics?: Metrics,
  ) {
    this.settings = config.orchestration;
    this.runner = new AgentRunner(host, this.settings.agentTimeoutMs, metrics);
  }

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const started = Date.now();
    const reply = new Reply(request, bus, started);
    const owner = ownerOf(request.context);
    const text = textOf(request.userMessage.parts);
    const utterance = userUtterance(text);
    const log: DecisionDraft = {
      owner,
      contextId: request.contextId,
      taskId: request.taskId,
      requestText: utterance,
      agents: [],
      confidence: null,
      reasoning: '',
      router: this.router.usesLlm ? 'llm' : 'default',
      errorCode: null,
    };
    try {
      const stored = this.settings.preserveContext ? await this.contexts.load(owner, request.contextId) : undefined;
      const context = stored?.context ?? empty(request.contextId);
      const freshness: TaskStateLabel = stored?.etag ? 'resumed' : 'fresh';
      const agents = this.host
        .list()
        .filter((a) => a.id !== DEFAULT_AGENT_ID && takesText(a.profile))
        .map((a) => a.profile);
      if (!utterance || !agents.length) {
        const message = utterance
          ? 'No agents are registered yet, so there is nobody to pass that to. An operator can add one with POST /api/agents.'
          : 'Please tell me what you would like me to do - I can only read text.';
        reply.answer(message, [], freshness);
        this.finish({ ...log, reasoning: message }, started, 'answered');
        return;
      }

      const plan = await inSpan(
        'orchestrator.route',
        { 'switchboard.agents_available': agents.length },
        () => this.plan(utterance, text, context, agents),
        (chosen) => ({
          'switchboard.router': chosen.router,
          'switchboard.agents': chosen.kind === 'run' ? chosen.calls.map((c) => c.agentId) : [],
          'switchboard.confidence': chosen.choice.confidence ?? -1,
        }),
      );
      Object.assign(log, {
        agents: plan.kind === 'run' ? plan.calls.map((c) => c.agentId) : plan.candidates,
        confidence: plan.choice.confidence,
        reasoning: plan.choice.reasoning,
        router: plan.router,
      });

      if (plan.kind === 'ask') {
        const pending: PendingInput = { kind: 'clarification', request: text, candidates: plan.candidates };
        await this.remember(owner, stored, utterance, plan.question, [], { pending });
        reply.ask(plan.question, [], freshness);
        this.finish(log, started, 'clarification');
        return;
      }

      const outcomes = await this.runner.runAll(
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
        request.context,
        this.settings.maxParallelAgents,
      );
      const agentsUsed = outcomes.map((o) => o.agentId);
      const names = new Map(agents.map((a) => [a.id, a.name]));
      const asking = outcomes.find((o) => o.needsInput);
      const timedOut = outcomes.filter((o) => o.timedOut);
      const answerText = aggregate(outcomes, names, asking);
      await this.remember(owner, stored, utterance, answerText, outcomes, {
        pending: asking ? { kind: 'agent-input', agentId: asking.agentId } : undefined,
        previousAgentId: asking?.agentId ?? agentsUsed[0],
      });

      if (timedOut.length) {
        const late = timedOut.map((o) => names.get(o.agentId) ?? o.agentId);
        const answered = outcomes.filter((o) => o.success && !o.needsInput);
        throw new OrchestrationFailure(
          {
            errorCode: 'AGENT_TIMEOUT',
            userMessage: [answerText, `${list(late)} did not answer in time.`].filter(Boolean).join(' '),
            technicalDetails: timedOut.map((o) => `${o.agentId}: ${o.errorMessage}`).join('; '),
            suggestedAction: 'Try again; if it keeps happening, check the agent or raise AGENT_TIMEOUT_MS.',
          },
          { text: answered.map((o) => o.content).join('\n'), agentsUsed },
        );
      }
      const state: TaskStateLabel = plan.answersPending && !asking ? 'completed' : freshness;
      if (asking) {
        reply.ask(answerText, agentsUsed, state);
        this.finish(log, started, 'input-required');
      } else {
        reply.answer(answerText, agentsUsed, state);
        this.finish(log, started, 'answered');
      }
    } catch (error) {
      const failure = asFailure(error, this.logger);
      reply.fail(failure);
      this.finish({ ...log, errorCode: failure.error.errorCode }, started, 'error');
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

  private async plan(
    utterance: string,
    text: string,
    context: OrchestrationContext,
    agents: AgentProfile[],
  ): Promise<Plan> {
    const hosted = new Set(agents.map((a) => a.id));
    const pending = context.pending;
    if (pending?.kind === 'agent-input' && hosted.has(pending.agentId)) {
      return {
        kind: 'run',
        calls: [{ agentId: pending.agentId, text }],
        choice: { agentId: pending.agentId, reasoning: `Answer to ${pending.agentId}'s question`, confidence: 1 },
        router: 'previous-agent',
        answersPending: true,
      };
    }
    if (pending?.kind === 'clarification') {
      const candidates = agents.filter((a) => pending.candidates.includes(a.id));
      const pick = new DefaultRouter(candidates).route({ text: utterance, multiAgent: false });
      if (pick.agentId && pick.confidence >= 0.5) {
        return {
          kind: 'run',
          calls: [{ agentId: pick.agentId, text: pending.request }],
          choice: {
            agentId: pick.agentId,
            reasoning: `The user chose ${pick.agentId} when asked`,
            confidence: pick.confidence,
          },
          router: 'clarification',
          answersPending: true,
        };
      }
    }

    const previous =
      context.previousAgentId && hosted.has(context.previousAgentId) ? context.previousAgentId : undefined;
    const { routing, router } = await this.router.route(
      { text: utterance, previousAgentId: previous, multiAgent: this.settings.multiAgent },
      agents,
      this.host.revision,
    );
    const choice: AgentChoiceResult = {
      agentId: routing.agentId,
      additionalAgents: routing.additionalAgents,
      reasoning: routing.reasoning,
      confidence: routing.confidence,
    };
    if (!routing.agentId || routing.confidence < this.settings.confidenceThreshold) {
      if (previous) {
        return {
          kind: 'run',
          calls: [{ agentId: previous, text }],
          choice: {
            agentId: previous,
            reasoning: `${routing.reasoning}; confidence ${routing.confidence} is below the threshold, so the conversation's previous agent continues`,
            confidence: routing.confidence,
          },
          router,
          answersPending: false,
        };
      }
      const names = routing.candidates.map((id) => agents.find((a) => a.id === id)?.name ?? id);
      const question = names.length
        ? `I'm not sure who should handle that. Did you mean ${list(names, 'or')}?`
        : "I'm not sure who should handle that. Could you say it another way?";
      return { kind: 'ask', question, candidates: routing.candidates, choice, router };
    }

    const ids = [routing.agentId, ...(this.settings.multiAgent ? (routing.additionalAgents ?? []) : [])];
    const preamble = text.slice(0, Math.max(0, text.lastIndexOf(utterance)));
    return {
      kind: 'run',
      calls: ids.map((agentId) => ({
        agentId,
        text: routing.parts?.[agentId] && ids.length > 1 ? preamble + routing.parts[agentId] : text,
      })),
      choice,
      router,
      answersPending: false,
    };
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
    const at = new Date().toISOString();
    const keep = this.settings.maxHistory * 2;
    await this.contexts.update(owner, from, (context) => {
      const agentThreads = { ...context.agentThreads };
      for (const outcome of outcomes) {
        agentThreads[outcome.agentId] = {
          contextId: agentThreads[outcome.agentId]?.contextId ?? outcome.contextId,
          taskId: outcome.needsInput ? outcome.taskId : undefined,
        };
      }
      const history = [
        ...context.history,
        { role: 'user' as const, text: said, at },
        { role: 'agent' as const, text: answered, agents: outcomes.map((o) => o.agentId), at },
      ];
      return {
        ...context,
        agentThreads,
        previousAgentId: next.previousAgentId ?? context.previousAgentId,
        history: keep > 0 ? history.slice(-keep) : [],
        pending: next.pending,
      };
    });
  }

  private finish(log: DecisionDraft, started: number, outcome: RoutingRecord['outcome']) {
    void this.routingLog.record({ ...log, durationMs: Date.now() - started, outcome });
  }
}

/** Publishes the orchestrator's answer in the form its callers read. */
class Reply {
  constructor(
    private readonly request: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly started: number,
  ) {}

  answer(text: string, agentsUsed: string[], state: TaskStateLabel): void {
    const metadata = this.metadata(agentsUsed, state);
    if (this.request.task) {
      // A client that names the task it answers gets that task completed, with the answer.
      this.status(TaskState.TASK_STATE_COMPLETED, text, metadata);
    } else {
      this.bus.publish(AgentEvent.message({ ...agentTextMessage(text, this.request.contextId), metadata }));
    }
    this.bus.finished();
  }

  ask(question: string, agentsUsed: string[], state: TaskStateLabel): void {
    this.open(TaskState.TASK_STATE_INPUT_REQUIRED, question, this.metadata(agentsUsed, state));
    this.bus.finished();
  }

  fail(failure: OrchestrationFailure): void {
    const metadata = {
      ...this.metadata(failure.partial?.agentsUsed ?? [], 'fresh'),
      [ORCHESTRATION_ERROR_KEY]: {
        ...failure.error,
        ...(failure.partial ? { partialResult: failure.partial.text } : {}),
      },
    };
    this.open(TaskState.TASK_STATE_FAILED, failure.error.userMessage, metadata);
    this.bus.finished();
  }

  /** A new task in `state`, or the client's task moved to it. */
  private open(state: TaskState, text: string, metadata: Record<string, unknown>): void {
    if (this.request.task) return this.status(state, text, metadata);
    const task: Task = {
      id: this.request.taskId,
      contextId: this.request.contextId,
      status: { state, message: this.statusMessage(text), timestamp: new Date().toISOString() },
      history: [this.request.userMessage],
      artifacts: [],
      metadata,
    };
    this.bus.publish(AgentEvent.task(task));
  }

  private status(state: TaskState, text: string, metadata: Record<string, unknown>): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.request.taskId,
        contextId: this.request.contextId,
        status: { state, message: this.statusMessage(text), timestamp: new Date().toISOString() },
        metadata,
      }),
    );
  }

  private statusMessage(text: string): Message {
    return agentTextMessage(text, this.request.contextId, this.request.taskId);
  }

  private metadata(agentsUsed: string[], state: TaskStateLabel): Record<string, unknown> {
    return { agents_used: agentsUsed, execution_time_ms: Date.now() - this.started, task_state: state };
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

function list(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
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

/** Agents the orchestrator can pass a spoken request to: those taking text (or saying nothing). */
function takesText(profile: AgentProfile): boolean {
  return profile.defaultInputModes.length === 0 || profile.defaultInputModes.some((mode) => mode.startsWith('text'));
}
