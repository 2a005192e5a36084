import type { AgentProfile } from '../../a2a/agent-profile';

export const WORKFLOW_AGENT_ID = 'workflow';

export const WORKFLOW_PROFILE: AgentProfile = {
  id: WORKFLOW_AGENT_ID,
  name: 'Workflow',
  description:
    'Runs apflow task trees: send the tasks as a data part ({"tasks": [...]}, or {"task_id": …} to run an ' +
    'existing tree) and get an A2A task that follows the execution.',
  version: '1.0.0',
  kind: 'local',
  skills: [
    {
      id: 'tasks.execute',
      name: 'Execute a task tree',
      description:
        'Creates the tasks (parents and dependencies by name or id, executors in schemas.method) and runs the tree; ' +
        'the A2A task id is the execution, its contextId the root task, its artifact the results.',
      tags: ['workflow', 'tasks', 'apflow'],
      examples: [
        '{"tasks": [{"name": "fetch", "schemas": {"method": "http.request"}, "inputs": {"url": "https://example.com"}}]}',
      ],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    },
  ],
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
};
