/**
 * The labelled routing set: agent cards written the way agent authors write them (some rich with
 * skills, tags and examples, some a name and one line) and utterances said the way people talk
 * to a voice assistant, each labelled with the agents that should handle it (none: the hub should
 * ask). Every utterance carries its split; the holdout (30 %, stratified by category) is fixed in
 * the file and never used to tune the router. Items added later get their split when written (so
 * that each category stays at ~30 %) and keep it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProfile } from '../../src/a2a/agent-profile';

export const CATEGORIES = [
  'direct',
  'paraphrase',
  'typo',
  'multi-intent',
  'follow-up',
  'topic-change',
  'out-of-scope',
] as const;
export type Category = (typeof CATEGORIES)[number];
export type Split = 'dev' | 'holdout';

export interface Utterance {
  id: string;
  category: Category;
  split: Split;
  text: string;
  /**
   * Follow-ups and topic changes (and some out-of-scope requests) are a conversation's second turn:
   * `before` is what the user said first, `previous` the agent that should have answered it.
   */
  previous?: string;
  before?: string;
  /** The exact set of agents that should handle it; empty: a clarifying question. */
  expect: string[];
  /**
   * A multi-intent request with a part no agent here handles ("play some jazz and order us a
   * pizza"): the right answer runs `expect` and asks about that part in the same answer (issue
   * 17's rule for a clear clause beside an unclear one), so running `expect` alone is a miss too.
   */
  asks?: true;
}

interface Card {
  id: string;
  name: string;
  description: string;
  skills: { id: string; name: string; description: string; tags: string[]; examples: string[] }[];
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(__dirname, file), 'utf8')) as T;
}

/**
 * A labelled set: `main` is cards.json + utterances.json beside this file; any other is
 * sets/<name>/ - its utterances, and its own cards.json or else the main set's cards. (The
 * other sets were written later, by someone who had not seen the router, to check that what
 * was tuned on the main set's dev split holds for other words and other cards.)
 */
export type LabelledSet = string;

/**
 * The sets test/routing-set.e2e-spec.ts holds to its sizes: the one the router was tuned on (its dev
 * split), and two written later. (sets/third-household, 102 utterances, is smaller: `--set` reads it.)
 */
export const LABELLED_SETS: readonly LabelledSet[] = ['main', 'fresh', 'second-household'];

/** Every labelled set: `main` and each sets/<name>/ with utterances (the others there are card sets for the DomainMap audit). */
export function allLabelledSets(): LabelledSet[] {
  const sets = readdirSync(join(__dirname, 'sets')).filter((name) =>
    existsSync(join(__dirname, 'sets', name, 'utterances.json')),
  );
  return ['main', ...sets.sort()];
}

function fileOf(set: LabelledSet, file: 'cards.json' | 'utterances.json'): string {
  if (set === 'main') return file;
  if (!/^[a-z0-9-]+$/.test(set) || !existsSync(join(__dirname, 'sets', set, 'utterances.json'))) {
    throw new Error(`No labelled set "${set}" (bench/routing/sets/${set}/utterances.json)`);
  }
  const own = join('sets', set, file);
  return existsSync(join(__dirname, own)) ? own : file;
}

export function profileOf(card: Card): AgentProfile {
  return {
    ...card,
    version: '1.0.0',
    kind: 'remote',
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  };
}

export function labelledAgents(set: LabelledSet = 'main'): AgentProfile[] {
  return readJson<Card[]>(fileOf(set, 'cards.json')).map(profileOf);
}

export function utterances(set: LabelledSet = 'main'): Utterance[] {
  return readJson<Utterance[]>(fileOf(set, 'utterances.json'));
}

/** Topics for the cards that pad a latency run to 50 agents: one line each, like the thin cards. */
const DISTRACTOR_TOPICS = [
  'parking spaces near you',
  'pet care and vet visits',
  'plant watering schedules',
  'fitness workouts',
  'meditation sessions',
  'language lessons',
  'stock prices',
  'cryptocurrency prices',
  'sports scores',
  'movie showtimes',
  'tv guide listings',
  'podcast episodes',
  'audiobook playback',
  'public transport departures',
  'traffic reports',
  'flight status',
  'hotel bookings',
  'restaurant reservations',
  'food delivery',
  'grocery lists',
  'package tracking for couriers',
  'energy usage reports',
  'solar panel output',
  'electric car charging',
  'home security cameras',
  'baby monitor',
  'school homework help',
  'math problems',
  'unit conversions',
  'currency exchange rates',
  'jokes and trivia games',
  'bedtime stories',
  'horoscopes',
  'lottery results',
  'job listings',
  'real estate listings',
  'car maintenance reminders',
  'medication reminders',
  'water intake tracking',
  'sleep tracking',
  'printer and ink status',
];

/** `count` thin agent cards on topics of their own, to measure decisions among many agents. */
export function distractorAgents(count: number): AgentProfile[] {
  return DISTRACTOR_TOPICS.slice(0, count).map((topic, i) =>
    profileOf({
      id: `extra-${i + 1}`,
      name: topic.replace(/^./, (c) => c.toUpperCase()),
      description: `Helps with ${topic}.`,
      skills: [],
    }),
  );
}
