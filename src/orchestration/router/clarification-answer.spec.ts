import type { AgentProfile } from '../../a2a/agent-profile';
import { pickedAgent } from './clarification-answer';

const agent = (id: string, name: string): AgentProfile => ({
  id,
  name,
  description: '',
  version: '1',
  kind: 'remote',
  skills: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
});

const AGENTS = [
  agent('home-control', 'Home Control'),
  agent('family-calendar', 'Family Calendar'),
  agent('ask-wiki', 'Ask Wiki'),
  agent('music', 'Music'),
];
const OFFERED = ['family-calendar', 'ask-wiki'];

describe('pickedAgent', () => {
  it.each([
    ['Family Calendar', 'family-calendar'],
    ['the calendar one... I mean family calendar', 'family-calendar'],
    ['ask wiki please', 'ask-wiki'],
    ['ask-wiki', 'ask-wiki'],
    ['home controll', 'home-control'], // not offered, one typo
    ['Music!', 'music'],
    ['the second one', 'ask-wiki'],
    ['first', 'family-calendar'],
    ['the last', 'ask-wiki'],
  ])('"%s" picks %s', (answer, expected) => {
    expect(pickedAgent(answer, OFFERED, AGENTS)).toBe(expected);
  });

  it('takes yes for the one agent offered, and only then', () => {
    expect(pickedAgent('yes', ['music'], AGENTS)).toBe('music');
    expect(pickedAgent('yes', OFFERED, AGENTS)).toBeUndefined();
  });

  it.each([
    'what is the weather tomorrow',
    'play some music in the kitchen and dim the living room lights please',
    'set a timer for 2 minutes and then remind me to call the family',
    '',
    'calendar',
  ])('"%s" is not a pick', (answer) => {
    expect(pickedAgent(answer, OFFERED, AGENTS)).toBeUndefined();
  });
});
