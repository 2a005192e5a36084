/**
 * bench/routing/domain-audit: which hosted card serves each everyday domain (DomainMap), on card
 * sets written differently - the labelled sets' cards and card sets with no utterances
 * (bench/routing/sets/<name>/cards.json) - with the runner-up and the figures each rule looked at,
 * against the assignment judged by hand for each set (domain-audit.expected.json). No labelled
 * utterance is read: this is about the cards only.
 *
 *   npm run bench:routing-audit -- [--set main|second-household|ha-terse|rich-household|overlap-family|third-household|fourth-household|fifth-household|sixth-household|seventh-household|eighth-household|ninth-household|tenth-household|eleventh-household|twelfth-household|thirteenth-household|fourteenth-household|fifteenth-household|sixteenth-household|seventeenth-household|eighteenth-hub] [--quiet]
 *
 * Per domain: the agent given (by a line of its card, backed by the domain's requests' votes when a
 * little further off, or by a word of a card placed nowhere else) or "-";
 * then the card whose closest line is nearest the domain's line (cosine; "claims" when that line,
 * or another of the card's, claims the domain) with how far the domain's requests stand out for
 * it on average, the runner-up, and the cards most of the domain's requests stand out for (votes). ✗ marks an assignment the hand judgement does not accept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentProfile } from '../../src/a2a/agent-profile';
import { CardVectors } from '../../src/orchestration/router/semantic/card-vectors';
import { DomainAssignment, DomainMap } from '../../src/orchestration/router/semantic/domain-map';
import { SentenceEncoder } from '../../src/orchestration/router/semantic/sentence-encoder';
import { AppConfig } from '../../src/platform/config/app-config';
import { validateEnvironment } from '../../src/platform/config/environment';
import { profileOf } from './labelled-set';

/** Card sets audited by default: the labelled sets' (fresh uses main's cards) and three without utterances. */
const CARD_SETS = [
  'main',
  'second-household',
  'ha-terse',
  'rich-household',
  'overlap-family',
  'third-household',
  'fourth-household',
  'fifth-household',
  'sixth-household',
  'seventh-household',
  'eighth-household',
  'ninth-household',
  'tenth-household',
  'eleventh-household',
  'twelfth-household',
  'thirteenth-household',
  'fourteenth-household',
  'fifteenth-household',
  'sixteenth-household',
  'seventeenth-household',
  'eighteenth-hub',
];

/** Per set, per domain, the outcomes judged right: an agent id, or '' for none; a domain not listed: none. */
type Expected = Record<string, Record<string, string | string[]>>;

function cardsOf(set: string): AgentProfile[] {
  const file = set === 'main' ? join(__dirname, 'cards.json') : join(__dirname, 'sets', set, 'cards.json');
  if (!/^[a-z0-9-]+$/.test(set) || !existsSync(file)) throw new Error(`No card set "${set}" (${file})`);
  return (JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof profileOf>[0][]).map(profileOf);
}

function accepted(expected: Expected, set: string, domain: string): string[] | undefined {
  if (!expected[set]) return undefined;
  const value = expected[set][domain] ?? '';
  return Array.isArray(value) ? value : [value];
}

export async function auditSet(encoder: SentenceEncoder, agents: AgentProfile[]): Promise<readonly DomainAssignment[]> {
  const cards = new CardVectors(encoder);
  await cards.prepare(agents);
  const domains = new DomainMap(encoder);
  await domains.assign(
    agents.map((a) => a.id),
    cards,
  );
  return domains.explain();
}

function describe(a: DomainAssignment): string {
  const line = (c?: DomainAssignment['cards'][number]) =>
    c
      ? `${c.agentId} ${c.similarity.toFixed(2)}${c.claims ? ' claims' : ''}, requests ${c.requestStanding.toFixed(2)} σ`
      : '-';
  const [first, second] = a.cards;
  const voted = a.cards
    .filter((c) => c.votes > 0)
    .sort((x, y) => y.votes - x.votes)
    .slice(0, 2)
    .map((c) => `${c.agentId} ${c.votes}`)
    .join(', ');
  const named = a.by === 'name' ? ` | named: ${line(a.cards.find((c) => c.agentId === a.agentId))}` : '';
  return `line: ${line(first)}; next ${line(second)}${named} | votes of ${a.requests}: ${voted || '-'}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { set: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
  const expected = JSON.parse(readFileSync(join(__dirname, 'domain-audit.expected.json'), 'utf8')) as Expected;
  const encoder = new SentenceEncoder(new AppConfig(validateEnvironment({})));
  await encoder.load();
  const totals: string[] = [];
  for (const set of values.set ? [values.set] : CARD_SETS) {
    const agents = cardsOf(set);
    const assignments = await auditSet(encoder, agents);
    console.log(`\n## ${set} (${agents.length} cards)\n`);
    let wrong = 0;
    for (const a of assignments) {
      const ok = accepted(expected, set, a.domain);
      const right = !ok || ok.includes(a.agentId ?? '');
      if (!right) wrong++;
      const judged = !ok ? '' : right ? '  ' : '✗ ';
      const want = right ? '' : ` (want ${ok.map((x) => x || 'none').join(' or ')})`;
      const given = a.agentId ? `${a.agentId} by ${a.by}` : '-';
      if (values.quiet && right) continue;
      console.log(`${judged}${a.domain.padEnd(24)} → ${given.padEnd(28)}${want} | ${describe(a)}`);
    }
    totals.push(
      `${set}: ${expected[set] ? `${wrong} of ${assignments.length} domains judged wrong` : 'no hand judgement'}`,
    );
  }
  console.log(`\n${totals.join('\n')}`);
  encoder.close();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
