import Ajv from 'ajv';
import type { AgentProfile } from '../../a2a/agent-profile';
import type { AgentChoiceResult } from '../orchestration.types';
import type { Routing, RoutingRequest } from './routing';

const MAX_REPLY_BYTES = 256 * 1024;

const CHOICE_SCHEMA = {
  type: 'object',
  required: ['agentId', 'reasoning', 'confidence'],
  properties: {
    agentId: { type: 'string', minLength: 1 },
    additionalAgents: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    reasoning: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
};
const validateChoice = new Ajv({ allErrors: true }).compile<AgentChoiceResult>(CHOICE_SCHEMA);

export interface LlmRouterOptions {
  model: string;
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Why the LLM router gave no usable answer; the message names the cause, never the key. */
export class LlmRouterError extends Error {
  override name = 'LlmRouterError';
}

/**
 * Routes with any OpenAI-compatible chat-completions endpoint: the agents' cards go in the
 * system prompt, the answer must be JSON matching AgentChoiceResult (checked with a schema, and
 * every agent id must be one of the hosted agents). One retry, telling the model what was wrong.
 */
export class LlmRouter {
  constructor(private readonly options: LlmRouterOptions) {}

  async route(request: RoutingRequest, agents: readonly AgentProfile[]): Promise<Routing> {
    const ids = new Set(agents.map((a) => a.id));
    const messages = [
      { role: 'system', content: systemPrompt(agents, request.multiAgent) },
      {
        role: 'user',
        content: request.previousAgentId
          ? `${request.text}\n\n(The previous turn of this conversation was answered by "${request.previousAgentId}".)`
          : request.text,
      },
    ];
    let problem = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      const content = await this.complete(
        problem
          ? [
              ...messages,
              {
                role: 'user',
                content: `Your previous answer was unusable (${problem}). Answer again with only the JSON object.`,
              },
            ]
          : messages,
      ).catch((error: Error) => {
        problem = error.message;
        return undefined;
      });
      if (content === undefined) continue;
      const choice = parseChoice(content, ids, request.multiAgent);
      if (typeof choice === 'string') {
        problem = choice;
        continue;
      }
      return { ...choice, candidates: [choice.agentId, ...(choice.additionalAgents ?? [])] };
    }
    throw new LlmRouterError(`LLM router failed twice: ${problem}`);
  }

  /**
   * Whether the endpoint answers: GET {base}/models (OpenAI-compatible), with the key. Any HTTP
   * answer means reachable; 401/403 say the key is refused.
   */
  async probe(timeoutMs = 3_000): Promise<{ reachable: boolean; http_status?: number; error?: string }> {
    try {
      const response = await fetch(`${this.options.baseUrl}/models`, {
        headers: this.headers({ accept: 'application/json' }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (response.status === 401 || response.status === 403)
        return { reachable: true, http_status: response.status, error: 'the endpoint refuses ROUTER_API_KEY' };
      return { reachable: true, http_status: response.status };
    } catch (error) {
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable';
      return { reachable: false, error: `router endpoint ${why}` };
    }
  }

  /** `base` plus the bearer key, when there is one. */
  private headers(base: Record<string, string>): Record<string, string> {
    return this.options.apiKey ? { ...base, authorization: `Bearer ${this.options.apiKey}` } : base;
  }

  private async complete(messages: { role: string; content: string }[]): Promise<string> {
    const headers = this.headers({ 'content-type': 'application/json', accept: 'application/json' });
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.options.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages,
        }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const cause =
        (error as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : 'unreachable';
      throw new LlmRouterError(`router endpoint ${cause}`);
    }
    const body = await readLimited(response);
    if (!response.ok) throw new LlmRouterError(`router endpoint answered HTTP ${response.status}`);
    let parsed: { choices?: { message?: { content?: unknown } }[] };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      throw new LlmRouterError('router endpoint answered something other than JSON');
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string')
      throw new LlmRouterError('router endpoint answer has no choices[0].message.content');
    return content;
  }
}

function systemPrompt(agents: readonly AgentProfile[], multiAgent: boolean): string {
  const catalog = agents.map((a) => ({
    id: a.id,
    name: a.name,
    description: a.description,
    skills: a.skills.map((s) => ({ name: s.name, description: s.description, tags: s.tags, examples: s.examples })),
  }));
  return [
    'You route a user request to the agents that should handle it. The agents:',
    JSON.stringify(catalog),
    'Answer with only a JSON object: {"agentId": string, "additionalAgents": string[], "reasoning": string, "confidence": number}.',
    'agentId and additionalAgents must be ids from the list. confidence is 0..1: how sure you are that these agents are right.',
    multiAgent
      ? 'When the request asks for several things handled by different agents, put the first in agentId and the others, in request order, in additionalAgents.'
      : 'Choose exactly one agent; additionalAgents must be empty.',
  ].join('\n');
}

/** The validated choice, or what is wrong with it. */
function parseChoice(content: string, ids: Set<string>, multiAgent: boolean): AgentChoiceResult | string {
  let value: unknown;
  try {
    value = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return 'not JSON';
  }
  if (!validateChoice(value)) {
    return `does not match AgentChoiceResult: ${validateChoice.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join(', ')}`;
  }
  const unknown = [value.agentId, ...(value.additionalAgents ?? [])].filter((id) => !ids.has(id));
  if (unknown.length) return `unknown agent ids: ${unknown.join(', ')}`;
  const additional = multiAgent ? (value.additionalAgents ?? []).filter((id) => id !== value.agentId) : [];
  return {
    agentId: value.agentId,
    additionalAgents: additional.length ? additional : undefined,
    reasoning: value.reasoning,
    confidence: value.confidence,
  };
}

async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_REPLY_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw new LlmRouterError(`router endpoint answer larger than ${MAX_REPLY_BYTES} bytes`);
  }
  const text = await response.text().catch(() => {
    throw new LlmRouterError('router endpoint answer could not be read');
  });
  if (Buffer.byteLength(text) > MAX_REPLY_BYTES) {
    throw new LlmRouterError(`router endpoint answer larger than ${MAX_REPLY_BYTES} bytes`);
  }
  return text;
}
