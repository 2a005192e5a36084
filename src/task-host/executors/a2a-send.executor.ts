import { AgentHost } from '../../a2a/hosting/agent-host';
import { callContextFor } from '../../a2a/hosting/call-context';
import { A2aUser } from '../../a2a/hosting/a2a-user';
import { DEFAULT_AGENT_ID } from '../../a2a/agent-profile';
import { AgentRunner } from '../../orchestration/agent-runner';
import { Principal } from '../../platform/auth/principal';
import { abortError, setting, TaskExecutor, TaskFailure, TaskRunContext, textSetting } from './task-executor';

/**
 * Sends a text message to a hosted agent (local or a registered remote one, through the same
 * handlers every transport uses), as the task's owner. Inputs: `agent_id` (default the
 * orchestrator), `text` (or `message`), optional `context_id`, `timeout_ms`.
 * Result: `{agent_id, text, task_id, context_id, needs_input}`.
 */
export class A2aSendExecutor implements TaskExecutor {
  readonly id = 'a2a.send';
  readonly description = 'Sends `text` to agent `agent_id` (default the orchestrator); the result is its reply';

  constructor(
    private readonly host: AgentHost,
    private readonly defaultTimeoutMs: number,
  ) {}

  async execute(context: TaskRunContext): Promise<unknown> {
    const agentId = textSetting(context, 'agent_id') ?? DEFAULT_AGENT_ID;
    const text = textSetting(context, 'text') ?? textSetting(context, 'message');
    if (!text || text.trim() === '') throw new TaskFailure('a2a.send needs a non-empty `text` input');
    if (!this.host.get(agentId)) throw new TaskFailure(`Agent not found: ${agentId}`);
    const timeout = Number(setting(context, 'timeout_ms') ?? this.defaultTimeoutMs);
    if (!Number.isFinite(timeout) || timeout < 100) throw new TaskFailure('timeout_ms must be at least 100');
    const contextId = textSetting(context, 'context_id') ?? context.task.rootId;
    const user = new A2aUser(new Principal('task-host', 'task-host', context.task.userId, ['messages']));
    const outcome = await new AgentRunner(this.host, timeout, undefined, 'handler').run(
      { agentId, text, contextId, continuesThread: true, signal: context.signal },
      callContextFor(agentId, user),
    );
    if (context.signal.aborted) throw abortError(context.signal);
    if (!outcome.success) throw new TaskFailure(`Agent ${agentId} failed: ${outcome.errorMessage ?? 'no answer'}`);
    return {
      agent_id: agentId,
      text: outcome.content,
      task_id: outcome.taskId ?? null,
      context_id: contextId,
      needs_input: outcome.needsInput,
    };
  }
}
