import { Part, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { userTextMessage } from '../a2a/executors/agent-messages';
import { AgentHost, callContextFor } from '../a2a/hosting/agent-host';
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
  /** The agent's task waiting for input, to continue. */
  taskId?: string;
  /** Aborting it ends the call as a timeout does: the agent's task is cancelled. */
  signal?: AbortSignal;
}

const INTERRUPTED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);
const FAILED = new Set([TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_CANCELED]);

/**
 * Runs hosted agents for the orchestrator, in process, through each agent's own SDK request
 * handler - so a local agent runs its executor and a remote one goes through the registry's proxy
 * (its own context and task ids kept by the proxy), with the hub's task records and push
 * notifications as for any caller. Each call has a deadline; past it the agent's task is
 * cancelled and the call reports a timeout.
 */
export class AgentRunner {
  constructor(
    private readonly host: AgentHost,
    private readonly deadlineMs: number,
    private readonly metrics?: Metrics,
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
    const request: SendMessageRequest = {
      tenant: '',
      message: userTextMessage(call.text, call.contextId, call.taskId),
      configuration: undefined,
      metadata: undefined,
    };
    const turn = new Turn();
    const stream = agent.handler.sendMessageStream(request, context);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout' | 'aborted'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.deadlineMs);
      if (call.signal?.aborted) resolve('aborted');
      call.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    try {
      const finished = (async () => {
        for await (const event of stream) turn.apply(event);
        return 'done' as const;
      })();
      const how = await Promise.race([finished, deadline]);
      if (how !== 'done') {
        finished.catch(() => undefined);
        if (turn.taskId) {
          await agent.handler
            .cancelTask({ tenant: '', id: turn.taskId, metadata: undefined }, context)
            .catch(() => undefined);
        }
        void stream.return(undefined).catch(() => undefined);
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
      return result({ errorMessage: (error as Error).message || 'the agent failed' });
    } finally {
      clearTimeout(timer);
    }
    return result(turn.outcome());
  }
}

/** What one agent's stream said, folded into its final answer. */
class Turn {
  taskId?: string;
  private state?: TaskState;
  private statusText = '';
  private messageText = '';
  private readonly artifacts = new Map<string, string>();

  apply(event: StreamResponse): void {
    const payload = event.payload;
    switch (payload?.$case) {
      case 'message':
        this.messageText = textOf(payload.value.parts);
        this.state = TaskState.TASK_STATE_COMPLETED;
        return;
      case 'task':
        this.taskId = payload.value.id;
        this.status(payload.value.status);
        for (const artifact of payload.value.artifacts) this.artifacts.set(artifact.artifactId, textOf(artifact.parts));
        return;
      case 'statusUpdate':
        this.taskId = payload.value.taskId || this.taskId;
        this.status(payload.value.status);
        return;
      case 'artifactUpdate': {
        const { artifact, append } = payload.value;
        if (!artifact) return;
        const previous = append ? (this.artifacts.get(artifact.artifactId) ?? '') : '';
        this.artifacts.set(artifact.artifactId, previous + textOf(artifact.parts));
        return;
      }
      default:
        return;
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
