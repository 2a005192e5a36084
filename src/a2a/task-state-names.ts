import { TaskState } from '@a2a-js/sdk';

/** The A2A name of a stored ProtoJSON state such as TASK_STATE_INPUT_REQUIRED: input-required. */
export function stateNameOf(stored: string): string {
  return stored
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

/** The A2A name of a state: submitted, working, input-required, completed, failed, canceled, … */
export function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? undefined : TaskState[state];
  return name ? stateNameOf(name) : 'unknown';
}
