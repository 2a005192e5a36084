import { Part, Task, TaskState } from '@a2a-js/sdk';
import { AgentExecutionEvent, DefaultExecutionEventBus, type ServerCallContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { userTextMessage } from '../a2a/executors/agent-messages';
import { AgentHost, HostedAgent } from '../a2a/hosting/agent-host';
import { callContextFor } from '../a2a/hosting/call-context';
import { noteConversation } from '../a2a/hosting/call-state';
import { ownedRequestContext } from '../a2a/hosting/owned-request-context';
import type { AgentCallOutcome, Metrics } from '../platform/metrics/metrics';
import { inSpan } from '../platform/telemetry/spans';
import type { AgentResponse } from './orchestration.types';

/** How an agent's turn ended, beyond AgentResponse: a question, a timeout, its task. */
export interface AgentOutcome extends AgentResponse {
  /** The hub-side context the call used with this agent. */
  contextId: string;
  /** The agent asked for more input (input-required or auth-required); content is its question. */
  needsInput: boolean;
  timedOut: boolean;
  /** The agent's task, if it made one; kept when it waits for input so the next turn continues it. */
  taskId?: string;
}

export interface AgentCall {
  agentId: string;
  text: string;
  /** The hub-side context the orchestrator keeps with this agent for the conversation. */
  contextId: string;
  /** Whether that context is the conversation's earlier one with the agent (false: made up for this call). */
  continuesThread: boolean;
  /** The agent's task waiting for input, to continue. */
  taskId?: string;
  /** Aborting it ends the call as a timeout does: the agent's task is cancelled. */
  signal?: AbortSignal;
}

const INTERRUPTED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);
const FAILED = new Set([TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_CANCELED]);

/**
 * How the runner reaches an agent: straight to its executor, with an event bus of the runner's
 * own (the orchestrator: its turn is the only task record - no second request handler, task
 * record, webhook lookup or archive row per agent called), or through the agent's request
 * handler, its task recorded as for any caller (a task tree's `a2a.send`, whose result names
 * the task).
 */
export type AgentPath = 'executor' | 'handler';

/** One call under way: its events go to the turn; `cancel` stops it. */
interface Running {
  finished: Promise<unknown>;
  cancel(): Promise<unknown>;
}

/**
 * Runs hosted agents in process - a local agent runs its code, a remote one goes through the
 * registry's proxy (its own context and task ids kept by the proxy). An agent's task that waits
 * for input is remembered by the caller (AgentThread) and continued on its next call. Each call
 * has a deadline; past it the agent's task is cancelled and the call reports a timeout.
 */
export class AgentRunner {
  constructor(
    private readonly host: AgentHost,
    private readonly deadlineMs: number,
    private readonly metrics?: Metrics,
    private readonly path: AgentPath = 'executor',
  ) {}

  /** Runs the calls, at most `parallel` at a time; outcomes in call order. */
  async runAll(calls: AgentCall[], caller: ServerCallContext, parallel: number): Promise<AgentOutcome[]> {
    const outcomes: AgentOutcome[] = new Array(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        outcomes[index] = await this.run(calls[index], caller);
        this.observe(outcomes[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, calls.length) }, worker));
    return outcomes;
  }

  private observe(outcome: AgentOutcome): void {
    this.metrics?.agentCall(outcome.agentId, outcomeKind(outcome), outcome.executionTimeMs / 1000);
  }

  /** One agent's turn, in an `agent.call` span: the remote request (if any) is its child. */
  run(call: AgentCall, caller: ServerCallContext): Promise<AgentOutcome> {
    return inSpan(
      'agent.call',
      { 'switchboard.agent_id': call.agentId, 'switchboard.context_id': call.contextId },
      () => this.attempt(call, caller),
      (outcome) => ({ 'switchboard.outcome': outcomeKind(outcome), 'switchboard.task_id': outcome.taskId ?? '' }),
    );
  }

  private async attempt(call: AgentCall, caller: ServerCallContext): Promise<AgentOutcome> {
    const started = Date.now();
    const agent = this.host.get(call.agentId);
    const result = (partial: Partial<AgentOutcome>): AgentOutcome => ({
      agentId: call.agentId,
      contextId: call.contextId,
      content: '',
      success: false,
      needsInput: false,
      timedOut: false,
      executionTimeMs: Date.now() - started,
      ...partial,
    });
    if (!agent) return result({ errorMessage: `agent ${call.agentId} is no longer registered` });

    const context = callContextFor(call.agentId, caller.user);
    const turn = new Turn();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout' | 'aborted'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.deadlineMs);
      if (call.signal?.aborted) resolve('aborted');
      call.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    let running: Running | undefined;
    try {
      running = this.path === 'executor' ? direct(agent, call, context, turn) : viaHandler(agent, call, context, turn);
      const how = await Promise.race([running.finished.then(() => 'done' as const), deadline]);
      if (how !== 'done') {
        running.finished.catch(() => undefined);
        await running.cancel().catch(() => undefined);
        return result({
          timedOut: how === 'timeout',
          errorMessage:
            how === 'timeout'
              ? `no answer within ${Math.round(this.deadlineMs / 100) / 10} s`
              : 'the call was cancelled',
          taskId: turn.taskId,
        });
      }
    } catch (error) {
      return result({ errorMessage: (error as Error).message || 'the agent failed', taskId: turn.taskId });
    } finally {
      clearTimeout(timer);
    }
    return result(turn.outcome());
  }
}

/** The agent's executor, called with the runner's own event bus and request context. */
function direct(agent: HostedAgent, call: AgentCall, context: ServerCallContext, turn: Turn): Running {
  const taskId = call.taskId ?? randomUUID();
  noteConversation(context, call.continuesThread || call.taskId !== undefined);
  const request = ownedRequestContext(
    {
      tenant: '',
      message: userTextMessage(call.text, call.contextId, taskId),
      configuration: undefined,
      metadata: undefined,
    },
    taskId,
    call.contextId,
    context,
    call.taskId ? waitingTask(call.taskId, call.contextId) : undefined,
  );
  const bus = new DefaultExecutionEventBus();
  bus.on('event', (event) => turn.apply(event, taskId));
  return {
    finished: agent.executor.execute(request, bus).finally(() => bus.removeAllListeners('event')),
    cancel: () => agent.executor.cancelTask(taskId, bus),
  };
}

/** The agent's request handler, as any caller's message goes: its task is recorded. */
function viaHandler(agent: HostedAgent, call: AgentCall, context: ServerCallContext, turn: Turn): Running {
  const stream = agent.handler.sendMessageStream(
    {
      tenant: '',
      message: userTextMessage(call.text, call.contextId, call.taskId),
      configuration: undefined,
      metadata: undefined,
    },
    context,
  );
  return {
    finished: (async () => {
      for await (const { payload } of stream)
        if (payload) turn.apply({ kind: payload.$case, data: payload.value } as AgentExecutionEvent);
    })(),
    cancel: async () => {
      if (turn.taskId) await agent.handler.cancelTask({ tenant: '', id: turn.taskId, metadata: undefined }, context);
      void stream.return(undefined).catch(() => undefined);
    },
  };
}

/** The task an agent left waiting for input, as its executor is handed it when the user answers. */
function waitingTask(id: string, contextId: string): Task {
  return {
    id,
    contextId,
    status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: new Date().toISOString() },
    history: [],
    artifacts: [],
    metadata: undefined,
  };
}

/** What one agent's events said, folded into its final answer. */
class Turn {
  /** Set once the agent made a task of the call (a message alone makes none). */
  taskId?: string;
  private state?: TaskState;
  private statusText = '';
  private messageText = '';
  private readonly artifacts = new Map<string, string>();

  /** `requestTaskId`: the task id the call was made with, for events that do not name one. */
  apply(event: AgentExecutionEvent, requestTaskId = ''): void {
    switch (event.kind) {
      case 'message':
        this.messageText = textOf(event.data.parts);
        this.state = TaskState.TASK_STATE_COMPLETED;
        return;
      case 'task':
        this.taskId = event.data.id || requestTaskId;
        this.status(event.data.status);
        for (const artifact of event.data.artifacts) this.artifacts.set(artifact.artifactId, textOf(artifact.parts));
        return;
      case 'statusUpdate':
        this.taskId = event.data.taskId || this.taskId || requestTaskId || undefined;
        this.status(event.data.status);
        return;
      case 'artifactUpdate': {
        const { artifact, append } = event.data;
        if (!artifact) return;
        const previous = append ? (this.artifacts.get(artifact.artifactId) ?? '') : '';
        this.artifacts.set(artifact.artifactId, previous + textOf(artifact.parts));
        return;
      }
    }
  }

  outcome(): Partial<AgentOutcome> {
    const text = this.messageText || this.statusText || [...this.artifacts.values()].filter(Boolean).join('\n');
    const state = this.state;
    if (state !== undefined && INTERRUPTED.has(state)) {
      return { needsInput: true, success: true, content: text || 'Could you tell me more?', taskId: this.taskId };
    }
    if (state !== undefined && FAILED.has(state)) {
      return { errorMessage: this.statusText || `the task ended ${taskStateName(state)}`, taskId: this.taskId };
    }
    if (state !== TaskState.TASK_STATE_COMPLETED) {
      return { errorMessage: 'the agent stopped without an answer', taskId: this.taskId };
    }
    return { success: true, content: text, taskId: this.taskId };
  }

  private status(status: Task['status']): void {
    if (!status) return;
    this.state = status.state;
    if (status.message) this.statusText = textOf(status.message.parts) || this.statusText;
  }
}

/** The text parts of a message or artifact, joined. */
export function textOf(parts: Part[]): string {
  return parts
    .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
    .join('\n')
    .trim();
}

function taskStateName(state: TaskState): string {
  return TaskState[state]?.replace(/^TASK_STATE_/, '').toLowerCase() ?? String(state);
}

function outcomeKind(outcome: AgentOutcome): AgentCallOutcome {
  if (outcome.timedOut) return 'timeout';
  if (outcome.needsInput) return 'input_required';
  return outcome.success ? 'success' : 'error';
}
